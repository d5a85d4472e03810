// Package dense holds the dense linear algebra of gssl's exact and Nyström
// solvers, built on the project's GEMM kernels (internal/gemm) instead of
// gonum's pure-Go BLAS, which runs at about 1 Gflop/s on FALKON's triangular
// solves with c ≈ 10 right-hand sides: the blocked right-looking Cholesky
// factorisation (Golub & Van Loan, Matrix Computations, 4th ed., §4.2.9),
// blocked triangular solves (Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., §8.1), also with the factor packed once for repeated
// solves (PackTri: FALKON's CG solves with the same two factors), the Gram
// product s·R Rᵀ of a triangle and the product of a symmetric matrix stored
// by its upper triangle with a block (PackSym: packed once, for FALKON's
// products with K_nMᵀK_nM).
// Users: package krr (FALKON, Nyström and exact kernel ridge regression) and
// package gp (the exact GP's marginal likelihood).
package dense
