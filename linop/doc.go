// Package linop defines the operator interface every gssl solver works on.
//
// A linear operator is anything with a dimension and a matrix–vector product
// into a destination:
//
//	type Operator interface {
//		Dim() int
//		MulVecTo(dst, x []float64) // dst = A·x
//	}
//
// Sparse graphs (graph.CSR), Laplacians (laplacian.Operator), the STKR and
// IMGP systems and FALKON's preconditioned normal equations all satisfy it, so
// the Krylov solvers (package krylov) and the eigensolvers (package spectral)
// see nothing else. BlockOperator adds a product with an n×c block (one column
// per class) done in a single pass over the matrix.
//
// The package also holds a few operators that are built from others
// (Affine: σI + sA, Diagonal, Func) and the explicit dense path (Dense,
// ToDense) used as a reference in tests. Dimension mismatches inside MulVecTo
// are programmer errors and panic with a "linop:"-style message naming the
// lengths; solvers check dimensions first and return errors.
package linop
