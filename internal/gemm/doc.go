// Package gemm multiplies dense matrices, C = A·Bᵀ, in float32 or
// float64, for the dot products behind squared distances, kernel matrices
// and Gram matrices:
//
//	‖x − y‖² = ‖x‖² + ‖y‖² − 2xᵀy,    (SᵀS)_jk = Σ_i S_ij S_ik.
//
// The operands are packed into panels (Panels: MR = 6 rows of A, or NR32 =
// 16 / NR64 = 8 rows of B, stored column by column) and every tile of the
// product is computed by one call of a register-blocked micro-kernel
// (Kernel32, Kernel64), the scheme of Goto & van de Geijn, "Anatomy of
// high-performance matrix multiplication", ACM TOMS 34(3), 2008, with the
// full depth K in one call. On amd64 CPUs with AVX2 and FMA the kernels are
// Go assembly holding the 6×16 (float32) or 6×8 (float64) tile in twelve
// 256-bit registers; elsewhere portable Go kernels run (HasAVX2 reports
// which). With AVX-512 (HasAVX512) the same tiles run with a row of the B
// panel in one 512-bit register, and the drivers compute the tiles of two
// consecutive B panels against one A panel in one pass (twelve independent
// 512-bit accumulators, 6×32 in float32, 6×16 in float64): each entry is
// the same chain of FMAs from zero, so the results are bitwise the AVX2
// kernels'. Each entry is a dot product accumulated in order of t, so its
// rounding error is at most γ_K·Σ_t|a_t b_t| with γ_K = K·u/(1 − K·u)
// (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed.,
// §3.1): callers that need exact answers (knngraph's certified search)
// rely on that bound.
//
// MulTTo and ParallelMulTTo drive a kernel over whole matrices (groups of
// eight A panels against every B panel, so that the A group stays in L2
// cache); ParallelAddUpperTo accumulates the upper triangle of a symmetric
// product over blocks. With AVX-512, depths beyond kcMax = 192 are cut in
// chunks (the K-blocking of Goto and van de Geijn): a pair of B panels over
// one chunk is 24 KiB and stays in L1 while the A panels of a group pass
// over it, and the kernels continue each entry's FMA chain from the partial
// tile of the previous chunk (kernel32x2aAVX512, kernel64x2aAVX512, and
// kernel32x4aAVX512, kernel64x4aAVX512 for two A panels at once, 24
// accumulators, each B row loaded once for twelve rows of A), so
// that every entry is still the one dot product accumulated in order of t,
// bitwise the full-depth kernel's. ParallelAddUpperSumTo chains the depths
// of its pairs the same way: Σ_s A_s·B_sᵀ is, entry by entry, the dot
// product over the joined depth. Callers that consume tiles as they come (a
// k-nearest-neighbour heap) call the kernels on panel pairs themselves.
// SqDist16 is the float32 squared distance of zero-padded vectors, with
// the same AVX2 or portable choice.
package gemm
