// Package kernel holds positive-definite kernels on points of R^d and their
// Gram matrices.
//
//	Gaussian     k(x,y) = exp(−‖x−y‖² / (2σ²))
//	Laplacian    k(x,y) = exp(−‖x−y‖ / σ)
//	Matérn ν=1/2 k(x,y) = exp(−r/ℓ)
//	Matérn ν=3/2 k(x,y) = (1 + √3 r/ℓ) exp(−√3 r/ℓ)
//	Matérn ν=5/2 k(x,y) = (1 + √5 r/ℓ + 5r²/(3ℓ²)) exp(−√5 r/ℓ)
//	Linear       k(x,y) = xᵀy + c
//	Polynomial   k(x,y) = (γ xᵀy + c)^p
//
// with r = ‖x − y‖ (Rasmussen & Williams, "Gaussian Processes for Machine
// Learning", 2006, eq. 4.9, 4.14, 4.17; the kernel-methods course in
// gssl's papers/003, ch. 2). Radial kernels are evaluated from squared
// distances computed blockwise as ‖x‖² + ‖y‖² − 2xᵀy with a matrix product,
// clamped at zero against rounding.
//
// Gram computes the dense matrix K(X, Y) in parallel over row blocks: it is
// the explicit dense path, O(n·m) memory, for exact KRR, GPs and small
// problems. Large problems use Matrix, the n×M kernel matrix K(X, C) that is
// never held whole: its products K·v, Kᵀ·u, KᵀK·v and the one-pass KᵀK
// (with Kᵀy) evaluate it in blocks of rows on both cores, memory
// O(nd + M·BlockRows). Matrix evaluates radial, linear and polynomial
// kernels from inner products ⟨x, c⟩ in float64 or, with Float32, of float32
// copies of the points (products on internal/gemm's micro-kernels: AVX-512 or
// AVX2 where the CPU has them, portable Go elsewhere); distances below 1e-8 (float32: 1e-4) of
// ‖x‖²+‖c‖² are recomputed directly from the float64 points. On AVX-512 the
// squared distances of a row run eight at a time (a group of eight holding
// such a pair is left to the scalar loop), bitwise the loop's. UpperRowsTo
// evaluates only the entries on and above the diagonal of a square K(C, C),
// all that a Cholesky factorisation reads (FALKON's K_MM).
//
// The Gaussian's exponential of a row of a block runs eight entries at a time
// on CPUs with AVX-512 (expDiv): with k = round(x·log₂e) and
// r = x − k·ln2 (|r| ≤ ln2/2, ln2 split in two parts as Cody and Waite do),
//
//	eˣ = 2ᵏ · Σ_{i≤13} rⁱ/i!,
//
// the polynomial by Horner's rule in FMAs and 2ᵏ applied by VSCALEFPD; the
// truncation error r¹⁴/14! < 5·10⁻¹⁸ is far below half an ulp, and the
// result is within 2 ulp of eˣ, as the scalar exp (a table of 2^(j/64) and
// a degree-5 polynomial) that runs elsewhere.
package kernel
