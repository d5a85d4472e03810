// Package laplacian provides the graph Laplacians and the normalised
// adjacency as operators on a graph.CSR, without forming new matrices.
//
// With W the weight matrix and D = diag(d), d_i = Σ_j W_ij:
//
//	L_un  = D − W
//	L_sym = I − D^{-1/2} W D^{-1/2} = I − S,  S := D^{-1/2} W D^{-1/2}
//	L_rw  = I − D^{-1} W
//
// (von Luxburg, "A tutorial on spectral clustering", Statistics and Computing
// 17, 2007, §3; gssl ALGORITHMS.md §1). L_un and L_sym are symmetric positive
// semi-definite and the spectrum of L_sym lies in [0, 2]; S has its spectrum in
// [−1, 1]. L_rw is not symmetric but is self-adjoint in ⟨u, v⟩_D = uᵀDv: if
// L_sym u = λu then f = D^{-1/2}u satisfies L_rw f = λf and fᵀDf = uᵀu, so
// D-orthonormal eigenvectors of L_rw come from a symmetric eigensolver on L_sym
// (Degrees.ToRandomWalk) and back (Degrees.FromRandomWalk).
//
// A node of degree zero makes D^{-1} undefined. By default
// (IsolatedComponent) it is a connected component of its own, the convention
// of F. Chung ("Spectral Graph Theory", 1997), scipy.sparse.csgraph.laplacian
// (normed=True) and networkx: D^{-1/2}_ii := 0 and its rows of L_sym and L_rw
// are zero, so each isolated node adds one eigenvalue 0, as every other
// component does. IsolatedError makes constructors return an error naming the
// node instead, and IsolatedZero keeps the unit row of I − S (eigenvalue 1,
// PyG's get_laplacian). S has a zero row and column under every policy that
// accepts the node, so in label propagation the node keeps its own label and
// receives none.
package laplacian
