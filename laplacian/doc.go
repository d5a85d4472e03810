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
// A node of degree zero makes D^{-1} undefined. By default constructors
// return an error naming the node. IsolatedZero sets D^{-1/2}_ii := 0 (and
// D^{-1}_ii := 0): the node's row and column of S are zero, its row of L_sym and
// L_rw is the unit row (eigenvalue 1), and in label propagation it keeps its
// own label and receives none — the convention of PyG and scipy users.
package laplacian
