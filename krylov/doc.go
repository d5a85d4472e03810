// Package krylov solves linear systems A x = b where A is only available as
// a linop.Operator (a dimension and a matrix–vector product).
//
// Methods, with the systems they are for:
//
//	CG          symmetric positive definite A, optional SPD preconditioner
//	            (Hestenes & Stiefel 1952; Saad, "Iterative Methods for Sparse
//	            Linear Systems", 2nd ed., Alg. 6.18 and 9.1)
//	BlockCG     the same, for an n×c right-hand side (one column per class),
//	            c CG recursions in lockstep sharing one block product per step
//	MINRES      symmetric, possibly indefinite A (Paige & Saunders 1975)
//	MINRESColumns
//	            the same, for an n×c right-hand side: c independent MINRES
//	            recurrences (each column's iterates bitwise MINRES's) sharing
//	            one block product per step; not a block Krylov method. An
//	            operator that forms its own input (ColumnsOperator) saves
//	            it two of its six n×c blocks
//	GMRES       any non-singular A, restarted GMRES(m) with right
//	            preconditioning and Givens rotations (Saad & Schultz 1986; Saad
//	            Alg. 6.9 and 9.5)
//	BiCGSTAB    any non-singular A (van der Vorst 1992; Saad Alg. 7.7)
//	Richardson  x ← x + ω M (b − A x), the stationary iteration used by STKR's
//	            Algorithms 1 and 2
//	Chebyshev   (I − aS)X = B with S symmetric, spectrum in [−1, 1], 0 < a < 1:
//	            the Chebyshev semi-iteration on [1 − a, 1 + a] (Saad Alg. 12.1),
//	            no inner products, iterates in float64 or float32; label
//	            spreading and personalised PageRank, (1 − a)(I − aS)^{-1}Y
//
// BlockCG and Chebyshev each exist once: BlockCGWith runs the block CG
// recursion on BlockCGPasses and Chebyshev the semi-iteration on a
// ChebyshevSystem, so a caller with a storage of its own (scaled iterates,
// a product fused with the update, a right-hand side by its nonzero rows)
// supplies only its passes; RowPasses runs such passes over fixed row
// chunks with sums that do not depend on the number of goroutines.
//
// Every method measures convergence by the relative residual
//
//	‖b − A x‖₂ / ‖b‖₂ ≤ Settings.Tol
//
// and, when the recurrence says it has converged, recomputes the true residual
// with one extra product and carries on if rounding has made the two differ.
// Results report iterations, products and the final true relative residual.
// The one exception: BlockCGWith's passes may bound the true residual
// without a product (BlockCGBound); when the bound meets Tol the product is
// skipped and the bound is reported instead.
// When the iteration cap is hit the solver returns a *NotConvergedError and
// leaves the best iterate in x: for CG and BlockCG the last one (CG iterates
// decrease the A-norm of the error monotonically, while their residual 2-norm
// need not decrease), for MINRES and GMRES the last one too (their residuals
// decrease monotonically), and for BiCGSTAB and Richardson the iterate with
// the smallest residual seen. A cancelled context likewise returns ctx.Err()
// (wrapped) with the best iterate in x. (MINRES keeps the iterate with the
// smallest residual seen, recurrence estimates included; it differs from the
// last only after a restart, until the new recurrence's estimate drops below
// the one MINRES restarted at.) The block solvers report per column: BlockCG the
// worst column's error, MINRESColumns a *ColumnErrors holding each failed
// column's error as MINRES returns it.
//
// A Jacobi preconditioner (inverse diagonal) is built by Jacobi.
package krylov
