// Package graph holds gssl's one graph type: a sparse, weighted, undirected
// graph in compressed sparse row (CSR) form.
//
// A graph on n nodes is its symmetric weight matrix W (W_ij = W_ji ≥ 0). Row i
// lists the neighbours of node i in ascending order with their weights; an
// undirected edge {i, j} is stored twice (in row i and in row j), a self loop
// once. Storage is an int row pointer and a float64 degree per node plus an
// int32 column index and a float64 weight per stored entry: about 12 bytes per
// non-zero, O(n + nnz) in all. A graph whose weights are all 1 (UnitWeights)
// stores no weights, 4 bytes per non-zero, and Row hands out views of one
// read-only slice of ones that all graphs share. The degree of node i is the row sum d_i = Σ_j W_ij (a self loop counts
// once), as in
//
//	L_un = D − W,   L_sym = I − D^{-1/2} W D^{-1/2},   L_rw = I − D^{-1} W
//
// (von Luxburg, "A tutorial on spectral clustering", 2007, §3; the Laplacians
// themselves live in package laplacian).
//
// A CSR is immutable after construction and safe for concurrent reads.
// Constructors take an explicit policy for what real edge lists contain:
// duplicate edges (sum, keep the maximum, or error), self loops (keep, drop or
// error) and directed input (symmetrise by max — the "or" rule —, by sum, by
// mean, or keep only mutual arcs — the "and" rule). Weights must be finite and
// non-negative; explicit zero weights are stored (a zero squared distance
// between duplicate points is still an edge of the pattern) but add nothing to
// a degree and connect nothing: Isolated lists the nodes of degree 0, and
// Components, LargestComponent and everything built on them follow the
// positive weights only, so a node whose edges all weigh 0 is isolated and its
// own component, as in the Laplacian. Reachable marks the nodes of the
// components of a few sources without labelling the others: a breadth-first
// search from all of them at once, each step top-down (the frontier's rows)
// or bottom-up (the unseen rows, each until it meets a seen node), whichever
// reads fewer entries (Beamer, Asanović and Patterson, SC 2012).
//
// Construction is by counting (Builder, which FromEdges and FromCOO use): one
// pass over the input counts the entries of every row, a second writes each
// entry into its row, and each row is then sorted in place by column and
// weight and merged. No triplet array or transpose is formed; the peak memory
// is that of the input's entries plus 12 bytes per node (see Builder), and the
// result does not depend on the order in which edges are given.
//
// Products with a vector and with an n×c block are parallel over rows, with
// chunks balanced by non-zeros. ScaledMulVecTo computes
//
//	dst = diag(c)·x + diag(l)·W·diag(r)·x
//
// in one pass, which is every Laplacian normalisation and the IMGP precision
// factor (1+c)D − A without forming a new matrix.
//
// On CPUs with AVX2 the products of graphs with at least 1024 stored entries
// run from a SELL-C-σ copy of the matrix (M. Kreutzer, G. Hager, G. Wellein,
// H. Fehske and A. R. Bishop, "A unified sparse matrix data format for
// efficient general sparse matrix-vector multiplication on modern processors
// with wide SIMD units", SIAM J. Sci. Comput. 36(5), C401–C423, 2014;
// C = 4, σ = 1024): rows sorted by length within windows of σ rows, packed in
// chunks of C rows stored column by column, so that four rows advance in
// lockstep with one accumulator each and no per-row loop exit. The copy is
// built on the first product and kept (4 bytes per stored entry for a 0/1
// graph, 12 for a weighted one, plus padding and 8 bytes per node; built in
// parallel, the same on any number of workers), unless it
// would exceed SetSlicedLimit (DefaultSlicedLimit, 512 MiB): larger graphs,
// or every graph after SetSlicedLimit(0), use the CSR kernels only, so that
// a graph's memory is Bytes plus at most the limit. Each row
// is still summed in its column order into one accumulator with separate
// multiplies and adds, so the results are bitwise those of the CSR kernels
// Row-range products (ScaledMulBlockRowsTo, ScaledMulBlockRowsInto) use the
// copy for ranges aligned to its windows (RowWindow = σ rows, see
// SlicedRows), since rows are reordered only within a window; other ranges
// use the CSR kernels, with the same results. The block kernels prefetch
// the block rows of the entries 32 ahead, and a block product over whole
// windows writes each window's rows in row order once all its sums are
// formed, so that the scaling reads x's rows and writes dst's in sequence.
//
// Two row-range products serve solvers whose block is larger than the
// caches, both bitwise ScaledMulBlockRowsTo (each row still summed in its
// column order from +0): ScaledMulBlockRowsSupportTo skips the rows of the
// block that the caller marks as zero (adding a zero to a sum that started
// at +0 changes nothing), one sequential pass over the indices while few
// rows are nonzero; ColumnSegments splits the entries into ranges of
// columns, and AddBlockRowsTo sums a row range by range, each continuing
// from the last, so that a pass's gathers read a part of the block that
// fits the last-level cache.
//
// MulBlock32RowsInto multiplies by a block stored in float32 (half the
// memory and gather traffic of a float64 block) with float64 products and
// accumulators: bitwise the float64 product of the rounded block. With
// AVX-512, eight or sixteen columns in rows aligned to their width and a
// power of two bytes apart are widened, weighted and summed in one or two
// 512-bit registers per row, with the same sums; only blocks of 16 MiB or
// more, which miss the caches, prefetch the rows of the entries ahead.
//
// Orderings. ReverseCuthillMcKee numbers the nodes so that neighbours get
// nearby numbers (E. Cuthill and J. McKee, "Reducing the bandwidth of sparse
// symmetric matrices", ACM national conference 1969; the reversal and the
// pseudo-peripheral starting node of A. George and J. W. H. Liu, "Computer
// Solution of Large Sparse Positive Definite Systems", Prentice-Hall 1981,
// §4.3 and §4.3.3), and Permute renames the nodes of a graph in O(n + nnz):
//
//	W' = P·W·Pᵀ,   P_{i, perm[i]} = 1,   W'_ij = W_{perm[i], perm[j]}
//
// Bandwidth, max |i − j| over the stored entries, measures the result.
package graph
