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
// problems. Large problems use blocked products that never hold n×m at once.
package kernel
