// Package sgemm multiplies float32 matrices, C = A·Bᵀ, for the dot
// products behind squared distances and kernel matrices:
//
//	‖x − y‖² = ‖x‖² + ‖y‖² − 2xᵀy.
//
// The operands are packed into panels (Panels: MR = 6 rows of A or NR = 16
// rows of B, stored column by column) and every MR×NR tile of the product
// is computed by one call of a register-blocked micro-kernel (Kernel), the
// scheme of Goto & van de Geijn, "Anatomy of high-performance matrix
// multiplication", ACM TOMS 34(3), 2008, with the full depth K in one call.
// On amd64 CPUs with AVX2 and FMA the micro-kernel is Go assembly holding
// the 6×16 tile in twelve 8-lane registers; elsewhere a portable Go kernel
// runs (HasAVX2 reports which). Each entry is a float32 dot product
// accumulated in order of t, so its rounding error is at most
// γ_K·Σ_t|a_t b_t| with γ_K = K·u/(1 − K·u), u = 2⁻²⁴ (Higham, "Accuracy
// and Stability of Numerical Algorithms", 2nd ed., §3.1): callers that need
// exact answers (knngraph's certified search) rely on that bound.
//
// MulTTo and ParallelMulTTo drive the kernel over whole matrices (groups
// of eight A panels against every B panel, so that the A group stays in
// L2 cache); callers that consume tiles as they come (a k-nearest-neighbour
// heap) call Kernel on panel pairs themselves. SqDist16 is the float32
// squared distance of zero-padded vectors with the same AVX2 fallback
// scheme.
package sgemm
