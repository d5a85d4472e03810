// Package pipeline runs gssl's label spreading and feature propagation as
// Apache Beam pipelines, so that a graph too large for one machine runs on
// a Flink, Spark or Dataflow cluster (and, unchanged, in-process on the
// Prism runner).
//
// # Label spreading
//
// Label spreading (Zhou, Bousquet, Lal, Weston & Schölkopf, "Learning with
// local and global consistency", NIPS 2003) computes
//
//	F = (1 − a)(I − aS)^{-1} Y,   S = D^{-1/2} W D^{-1/2},   d_i = Σ_j W_ij,
//
// Y the one-hot labels of the labelled nodes. The eigenvalues of I − aS lie
// in [1 − a, 1 + a] for every graph, so the Chebyshev semi-iteration
// (Golub & Varga, "Chebyshev semi-iterative methods, successive
// overrelaxation iterative methods, and second order Richardson iterative
// methods", Numer. Math. 3, 1961; Saad, "Iterative Methods for Sparse
// Linear Systems", 2nd ed., §12.1, Alg. 12.1) runs with fixed coefficients
// and no inner product. With θ = 1, δ = a, ρ_0 = a, ρ_k = 1/(2/a − ρ_{k−1})
// and the iterates stored scaled, z = t∘x, t = d^{-1/2}
// (1 for an isolated node), u = 1/t:
//
//	r_k     = b − u∘z_k + a t∘(W z_k)
//	z_{k+1} = z_k + ω_k (z_k − z_{k−1}) + γ_k t∘r_k,   ω_0 = 0, γ_0 = 1,
//	ω_k = ρ_k ρ_{k−1},  γ_k = 2ρ_k/a,   x_K = u∘z_K,
//
// the recurrence and coefficients of labelprop's Chebyshev solver (same K,
// same scores to rounding). The residual obeys ‖r_K‖ ≤ ‖b‖/T_K(1/a) ≤
// 2ρ^K ‖b‖ with ρ = (√κ − 1)/(√κ + 1), κ = (1 + a)/(1 − a), so K is fixed
// before the run as the smallest K with 2ρ^K ≤ tol (Rounds): no global
// reduction decides when to stop.
//
// # One shuffle per round, by bucket
//
// The nodes are split into B buckets by a hash of their id (FNV-1a mod B,
// Spreading.Buckets). Iteration 0 needs no product (z_1 = t∘b). Each
// further iteration is one CoGroupByKey keyed by bucket of (a) the
// bucket's state — for each of its nodes, in ascending order of id, the
// adjacency list, t, u, the class and z_k, z_{k−1} — and (b) the blocks of
// contributions w_ij z_{k,j} the other buckets sent to its nodes, one block
// per sending bucket. The DoFn gathers each node's contributions, sums
// them (sorted first, so the sum depends neither on the delivery order nor
// on B), applies the recurrence, and emits the new state and one block of
// its own contributions per receiving bucket: the inputs of the next
// round's CoGroupByKey. A node whose z is zero sends nothing, so the first
// rounds move only the frontier of the labels. Per round the shuffle
// carries the same bytes as one element per node and per directed entry
// would (the adjacency, id and weight per entry, 2c floats per node; an id
// and c floats per contribution: see beam/README.md), but in at most
// B + B² elements with B keys, since a runner's cost per element and per
// key (Prism keeps about 150 bytes of bookkeeping per element and more per
// key) is many times the 8c bytes of a contribution. The graph is built
// the same way (ReadBucketGraph): each reader emits blocks of half edges
// per bucket, and one CoGroupByKey by bucket merges them with the label
// rows into the nodes, with BuildGraph's rules.
//
// # Several jobs
//
// A runner keeps a job's data until it ends (Prism keeps every round's
// state resident), so LabelProp.RoundsPerJob = R splits the K iterations
// into ⌈K/R⌉ jobs run one after the other (LabelProp.Run): job 1 reads the
// inputs and runs iterations 0 … R−1, each later job reads the checkpoint
// of the one before, under LabelProp.Work, and runs the next R, the last
// one writes the predictions. A checkpoint after r iterations is
// Work/state-RRRRR: one file per bucket with its stateBlock (z_r and
// z_{r−1} as the bits of each float64) and an info file (settings,
// classes, output order, the buckets) written after them; each file is
// framed by its length and a CRC-32C, so a cut or altered file is an error
// naming it. The last round of a job sends no contributions; the next job
// sends from the checkpoint's z_r exactly what that round would have sent,
// so the scores are bitwise those of one job. The cost is one write and
// one read of the whole state per job boundary.
//
// # Feature propagation
//
// Propagate computes S̃^K X, S̃ = D̃^{-1/2}(A + I)D̃^{-1/2} (Wu et al.,
// "Simplifying Graph Convolutional Networks", ICML 2019), with the same
// round shape: (S̃x)_i = t_i(Σ_j A_ij t_j x_j + t_i x_i), t = d̃^{-1/2}.
//
// # Inputs and outputs
//
// Edge and label tables follow the core's rules (package loaders: CSV, TSV
// or white space, gzip, header by column names, string or integer ids,
// optional weight; an edge given twice keeps the larger weight; self loops
// kept), read one file per DoFn call so that errors are the core's
// *loaders.ParseError naming the file and line; a glob names many files.
// Parquet edge tables (columns src, dst, weight) are read by Beam's
// parquetio. Predictions are the CSV of gssl labelprop --out
// (id,predicted,p_<class>…, the unlabelled nodes in the core's node order:
// ascending integer ids, else first appearance), in one file or in shards.
package pipeline
