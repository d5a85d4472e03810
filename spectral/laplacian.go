package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
)

// denseComponentMax is the size up to which a connected component's
// eigenproblem is solved densely (O(size²) memory, O(size³) time): below it a
// dense solve is cheaper than starting a Krylov basis.
const denseComponentMax = 160

// DenseEigsMaxNodes is the largest connected component LaplacianEigs solves
// densely when many of its eigenpairs are wanted (more than a quarter of its
// nodes, see krylovPairFraction). The dense path holds the component's
// matrix, its eigenvectors and the solver's workspace, about
// denseEigsBytesPerEntry·s² bytes for s nodes (100 MB at 2048 nodes), and
// takes O(s³) time; above this size such a request is refused with an error
// that names the largest k the Krylov path accepts.
const DenseEigsMaxNodes = 2048

// denseEigsBytesPerEntry is the memory of the dense path per entry of the
// s×s matrix: the matrix, the eigenvector matrix and the tridiagonal
// reduction's copy, 8 bytes each.
const denseEigsBytesPerEntry = 24

// krylovPairFraction bounds the pairs a Krylov solve is asked for: at most
// 1/krylovPairFraction of the component's nodes. Beyond that the basis
// (about twice the pairs) is as large as the matrix and the projected
// eigenproblem as costly as the dense one, so the dense path is taken, or
// refused above DenseEigsMaxNodes.
const krylovPairFraction = 4

// LaplacianEigs returns the k smallest eigenpairs of the Laplacian of g of
// the given kind (laplacian.Unnormalized, Symmetric or RandomWalk), without
// inverting anything.
//
// The graph is split into its connected components, and each component is
// solved on its own: a graph with c components has eigenvalue 0 (c times for
// L_un, and for L_sym and L_rw once per component that is not an isolated
// node), which a single Krylov space cannot resolve. The eigenvalue 0 of a
// component is set exactly, with its known eigenvector (1_C/√|C| for L_un,
// D^{1/2}1_C normalised for L_sym, its D^{-1/2} image for L_rw). Components of
// up to 160 nodes are solved densely; larger ones by Eigs: for L_sym and L_rw
// as the largest eigenvalues μ of S = D^{-1/2} W D^{-1/2} (λ = 1 − μ; the same
// Krylov space as the smallest of L_sym), for L_un as its smallest. A
// component of size s contributes at most min(s, k − c₀ + 1) pairs, c₀ being
// the number of components with eigenvalue 0, which is always enough.
//
// For L_sym and L_un the vectors are orthonormal. For L_rw = I − D^{-1}W they
// are f = D^{-1/2}u for the L_sym vectors u, so they are D-orthonormal
// (fᵀDf = 1) and Residuals are D-norm residuals ‖L_rw f − λf‖_D, which equal
// the L_sym residuals ‖L_sym u − λu‖₂. An isolated node (degree 0) is its
// own component with eigenvector e_i: by default (laplacian.IsolatedComponent,
// the convention of scipy and networkx) its eigenvalue is 0 for every kind,
// under laplacian.IsolatedZero it is 1 for L_sym and L_rw (0 for L_un), and
// laplacian.IsolatedError refuses it. For L_rw that vector has D-norm 0 and is
// returned with unit 2-norm.
//
// A component of more than 160 nodes from which more than a quarter of its
// nodes' pairs are needed is solved densely too, up to DenseEigsMaxNodes
// nodes (its memory is stated there); a larger one is refused with an error
// naming the largest k the Krylov path accepts.
//
// s.Tol applies to each component's solve; Restarts and MatVecs add up over
// components.
func LaplacianEigs(ctx context.Context, g *graph.CSR, kind laplacian.Kind, opt laplacian.Options, k int, s Settings) (*Result, error) {
	if err := checkLaplacianEigs(g, kind, k, s); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	n := g.Nodes()
	degOpt := opt
	if kind == laplacian.Unnormalized {
		degOpt.Isolated = laplacian.IsolatedZero
	}
	dg, err := laplacian.NewDegrees(g, degOpt)
	if err != nil {
		return nil, fmt.Errorf("spectral: LaplacianEigs: %w", err)
	}
	members := componentMembers(g)
	total := &Result{}
	pairs, err := smallestComponentPairs(ctx, g, dg, kind, opt, members, k, s, total)
	if err != nil {
		return nil, err
	}
	res := &Result{Values: make([]float64, k), Vectors: mat.NewDense(n, k, nil), Restarts: total.Restarts, MatVecs: total.MatVecs}
	for t, p := range pairs {
		res.Values[t] = p.value
		for l, i := range members[p.comp] {
			res.Vectors.Set(i, t, p.vec[l])
		}
	}
	// True residuals on the whole graph, in the symmetric form.
	solveKind := kind
	if kind == laplacian.RandomWalk {
		solveKind = laplacian.Symmetric
	}
	full, err := laplacian.New(g, solveKind, degOpt)
	if err != nil {
		return nil, fmt.Errorf("spectral: LaplacianEigs: %w", err)
	}
	res.Residuals = residuals(full, res.Values, res.Vectors)
	res.MatVecs += k
	if kind == laplacian.RandomWalk {
		toRandomWalk(dg, res.Vectors)
	}
	fixSigns(res.Vectors)
	return res, nil
}

// checkLaplacianEigs validates the arguments of LaplacianEigs.
func checkLaplacianEigs(g *graph.CSR, kind laplacian.Kind, k int, s Settings) error {
	if g == nil {
		return errors.New("spectral: LaplacianEigs: graph is nil")
	}
	n := g.Nodes()
	if n == 0 {
		return errors.New("spectral: LaplacianEigs: graph has no nodes")
	}
	if k < 1 || k > n {
		return fmt.Errorf("spectral: LaplacianEigs: k = %d is invalid: it must lie in [1, %d] (the number of nodes)", k, n)
	}
	if kind != laplacian.Unnormalized && kind != laplacian.Symmetric && kind != laplacian.RandomWalk {
		return fmt.Errorf("spectral: LaplacianEigs: kind %v is invalid: use Unnormalized, Symmetric or RandomWalk (the eigenvalues of S are 1 − those of Symmetric)", kind)
	}
	_, err := s.resolve(n, k)
	return err
}

// componentMembers returns the nodes of each connected component of g, in
// increasing order.
func componentMembers(g *graph.CSR) [][]int {
	comp, count := g.Components()
	members := make([][]int, count)
	for i, c := range comp {
		members[c] = append(members[c], i)
	}
	return members
}

// componentPair is an eigenpair of the Laplacian on one connected component.
type componentPair struct {
	value float64
	comp  int
	vec   []float64 // on the component's nodes, unit 2-norm (an L_sym / L_un vector)
}

// smallestComponentPairs solves every component for the pairs it may
// contribute to the k smallest and returns the k smallest of all, ascending
// (ties by component), adding the solves' restarts and products to total.
func smallestComponentPairs(ctx context.Context, g *graph.CSR, dg *laplacian.Degrees, kind laplacian.Kind, opt laplacian.Options, members [][]int, k int, s Settings, total *Result) ([]componentPair, error) {
	hasZero := func(nodes []int) bool { return componentHasZero(kind, opt, dg, nodes) }
	c0 := 0
	for _, nodes := range members {
		if hasZero(nodes) {
			c0++
		}
	}
	var pairs []componentPair
	for ci, nodes := range members {
		need := k - c0
		if hasZero(nodes) {
			need++
		}
		need = max(1, min(need, len(nodes)))
		vals, vecs, err := componentEigs(ctx, g, dg, kind, opt, nodes, need, s, total)
		if err != nil {
			var big *tooManyPairsError
			if errors.As(err, &big) {
				return nil, fmt.Errorf("spectral: LaplacianEigs: k = %d asks for %d eigenpairs of the connected component of %d nodes containing node %d, more than 1/%d of it: the Krylov basis would be as large as the matrix, and the dense path (%d MB) is limited to DenseEigsMaxNodes = %d nodes; ask for k ≤ %d", k, need, len(nodes), nodes[0], krylovPairFraction, denseEigsBytesPerEntry*len(nodes)*len(nodes)>>20, DenseEigsMaxNodes, k-need+len(nodes)/krylovPairFraction)
			}
			return nil, err
		}
		for t := range vals {
			pairs = append(pairs, componentPair{value: vals[t], comp: ci, vec: vecs[t]})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		if pairs[a].value != pairs[b].value {
			return pairs[a].value < pairs[b].value
		}
		return pairs[a].comp < pairs[b].comp
	})
	return pairs[:k], nil
}

// componentHasZero reports whether the Laplacian of the given kind has the
// eigenvalue 0 on a connected component: always for L_un and for a
// component with edges, and for an isolated node unless IsolatedZero gives
// it a unit row.
func componentHasZero(kind laplacian.Kind, opt laplacian.Options, dg *laplacian.Degrees, nodes []int) bool {
	return kind == laplacian.Unnormalized || dg.D[nodes[0]] > 0 || opt.Isolated == laplacian.IsolatedComponent
}

// tooManyPairsError reports a component too large for the dense path from
// which too many pairs are wanted for the Krylov path.
type tooManyPairsError struct{}

func (*tooManyPairsError) Error() string {
	return "spectral: too many eigenpairs for a large component"
}

// checkIsolated validates an isolated-node policy for the estimator who.
func checkIsolated(who string, p laplacian.IsolatedPolicy) error {
	if !p.Valid() {
		return fmt.Errorf("spectral: %s: Isolated = %d is invalid: use laplacian.IsolatedComponent (the default), IsolatedError or IsolatedZero", who, p)
	}
	return nil
}

// toRandomWalk maps the columns u of v to f = D^{-1/2}u in place; an isolated
// node's unit vector e_i is kept as it is.
func toRandomWalk(dg *laplacian.Degrees, v *mat.Dense) {
	raw := v.RawMatrix()
	iso := make(map[int]bool, len(dg.Isolated))
	for _, i := range dg.Isolated {
		iso[i] = true
	}
	for i := 0; i < raw.Rows; i++ {
		if iso[i] {
			continue
		}
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for t := range row {
			row[t] *= dg.InvSqrtD[i]
		}
	}
}

// componentEigs returns the need smallest eigenpairs of the Laplacian (L_sym
// for RandomWalk) restricted to one connected component, as values and
// vectors on the component's nodes. Counters are added to total.
func componentEigs(ctx context.Context, g *graph.CSR, dg *laplacian.Degrees, kind laplacian.Kind, opt laplacian.Options, nodes []int, need int, s Settings, total *Result) ([]float64, [][]float64, error) {
	size := len(nodes)
	var vals []float64
	var vecs [][]float64
	hasZero := componentHasZero(kind, opt, dg, nodes)
	dense := size <= denseComponentMax || need > size/krylovPairFraction
	if dense && size > DenseEigsMaxNodes {
		return nil, nil, &tooManyPairsError{}
	}
	if need == 1 && hasZero {
		// Only the null vector, which is known.
		vals, vecs = []float64{0}, [][]float64{nil}
	} else if dense {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		var err error
		vals, vecs, err = denseComponent(g, dg, kind, opt, nodes, need)
		if err != nil {
			return nil, nil, err
		}
	} else {
		var err error
		vals, vecs, err = krylovComponent(ctx, g, dg, kind, nodes, need, hasZero, s, total)
		if err != nil {
			return nil, nil, err
		}
	}
	// The null vector of a connected component is known exactly.
	if hasZero {
		setNull(kind, dg, nodes, vals, vecs)
	}
	return vals, vecs, nil
}

// krylovComponent solves one component of more than denseComponentMax
// nodes iteratively: Chebyshev-filtered subspace iteration when useSubspace
// says so (handing over to Lanczos when it gives up), else Eigs on S or L_un.
// The first pair is left for the caller when hasZero.
func krylovComponent(ctx context.Context, g *graph.CSR, dg *laplacian.Degrees, kind laplacian.Kind, nodes []int, need int, hasZero bool, s Settings, total *Result) ([]float64, [][]float64, error) {
	size := len(nodes)
	var vals []float64
	var vecs [][]float64
	sub := g
	if size < g.Nodes() {
		sg, err := g.Induced(nodes)
		if err != nil {
			return nil, nil, fmt.Errorf("spectral: LaplacianEigs: %w", err)
		}
		sub = sg.CSR
	}
	opKind, which := laplacian.NormalizedAdjacency, Largest
	if kind == laplacian.Unnormalized {
		opKind, which = laplacian.Unnormalized, Smallest
	}
	sdg := dg // the degrees do not depend on the policy, which refused no node of g
	if sub != g {
		var err error
		sdg, err = laplacian.NewDegrees(sub, laplacian.Options{Isolated: laplacian.IsolatedZero})
		if err != nil {
			return nil, nil, fmt.Errorf("spectral: LaplacianEigs: %w", err)
		}
	}
	op, err := newSparseOperator(sub, opKind, sdg)
	if err != nil {
		return nil, nil, fmt.Errorf("spectral: LaplacianEigs: %w", err)
	}
	cs := lanczosSettings(s, kind, sub, dg, nodes, need, total)
	if useSubspace(s.Method, kind, size, need, hasZero) {
		var err error
		vals, vecs, err = subspaceComponent(ctx, sub, sdg, need, cs, total)
		if err != nil && !errors.Is(err, errSubspaceHandOver) {
			return nil, nil, err
		}
	}
	if vals != nil {
		return vals, vecs, nil
	}
	r, err := Eigs(ctx, op, need, which, cs)
	if r != nil {
		total.Restarts += r.Restarts
		total.MatVecs += r.MatVecs
	}
	if err != nil {
		var nc *NotConvergedError
		if errors.As(err, &nc) {
			return nil, nil, fmt.Errorf("spectral: LaplacianEigs: component of %d nodes (node %d): %w", size, nodes[0], err)
		}
		return nil, nil, err
	}
	vals = make([]float64, need)
	vecs = make([][]float64, need)
	for t := 0; t < need; t++ {
		// Largest of S ascending means smallest of L_sym descending.
		src := t
		if which == Largest {
			src = need - 1 - t
			vals[t] = 1 - r.Values[src]
		} else {
			vals[t] = r.Values[src]
		}
		vecs[t] = mat.Col(nil, src, r.Vectors)
	}
	return vals, vecs, nil
}

// lanczosSettings returns the Settings of Eigs on a component sub (nodes
// of the whole graph) of size nodes: Method Auto (and Subspace, when it hands
// over or does not apply) resolved by autoMethod, the filter degree from
// the cost models, the spectrum bounds, and progress counted on from total.
func lanczosSettings(s Settings, kind laplacian.Kind, sub *graph.CSR, dg *laplacian.Degrees, nodes []int, need int, total *Result) Settings {
	size := len(nodes)
	cs := s
	if cs.Method == Auto || cs.Method == Subspace {
		cs.Method = autoMethod(size)
	}
	if cs.FilterDegree == 0 {
		cs.FilterDegree = graphFilterDegree(sub.NNZ(), size)
		if cs.Method == SingleVector {
			cs.FilterDegree = singleFilterDegree(sub.NNZ(), size, singleVectorBasis(size, need, cs.BasisSize))
		}
	}
	// Spectrum bounds for the Chebyshev filter: S has its spectrum in
	// [−1, 1], L_un in [0, 2·max degree] (Gershgorin).
	cs.Bounds = Interval{Lo: -1, Hi: 1}
	if kind == laplacian.Unnormalized {
		var dmax float64
		for _, i := range nodes {
			dmax = math.Max(dmax, dg.D[i])
		}
		cs.Bounds = Interval{Lo: 0, Hi: 2 * dmax}
	}
	if s.Progress != nil {
		done := total.MatVecs
		cs.Progress = func(st Status) { st.MatVecs += done; s.Progress(st) }
	}
	return cs
}

// setNull sets the first pair to the eigenvalue 0 and the exact null vector
// of the component's Laplacian.
func setNull(kind laplacian.Kind, dg *laplacian.Degrees, nodes []int, vals []float64, vecs [][]float64) {
	null := make([]float64, len(nodes))
	var ss float64
	for l, i := range nodes {
		x := 1.0
		if kind != laplacian.Unnormalized && dg.D[i] > 0 {
			x = dg.SqrtD[i] // an isolated node's null vector is e_i
		}
		null[l] = x
		ss += x * x
	}
	for l := range null {
		null[l] /= math.Sqrt(ss)
	}
	vals[0], vecs[0] = 0, null
}

// useSubspace reports whether componentEigs runs Chebyshev-filtered
// subspace iteration on a component: a normalised Laplacian whose null
// vector is known, more than that pair wanted (at most subspaceMaxWidth −
// subspaceExtra + 1), and Method Subspace, or Method Auto on a component of
// at least SubspaceMinNodes nodes.
func useSubspace(m Method, kind laplacian.Kind, size, need int, hasZero bool) bool {
	if kind == laplacian.Unnormalized || !hasZero || need < 2 || need-1+subspaceExtra > subspaceMaxWidth {
		return false
	}
	return size > 0 && (m == Subspace || (m == Auto && size >= SubspaceMinNodes))
}

// SubspaceMinNodes is the component size from which LaplacianEigs with
// Method Auto runs the subspace iteration (when it applies, see
// useSubspace) instead of the single-vector method. A product gathers one
// row of its operand per stored entry; once a vector (8 bytes a node) no
// longer fits in the caches every gather is a miss to memory whether it
// fetches one float64 or a 64-byte row of a padded float32 block, so a block
// product costs about what a single-vector product does (2.5 s against 2.7 s
// on the 100 M-edge graph of 10 M nodes), and the subspace iteration's ~50
// block products beat Lanczos's ~137 single ones with its
// orthogonalisation against a basis of 30 long vectors (165 s against 396 s
// back to back on a loaded machine). On smaller graphs the vector stays in
// cache and the single-vector method wins (10 s against 18–20 s on 1 M
// nodes, 10 M edges). Between them, on the same generator's 10-class graphs
// (10 pairs, tolerance 1e-10, two interleaved rounds at load 7–16, 3 Dec):
// at 2 M nodes the two take the same time (subspace 25.0 / 29.1 s, Lanczos
// 27.7 / 25.5 s) in 1.28 GB of peak RSS against 2.22 GB, at 3 M nodes the
// subspace iteration is 0.75× (35.8 / 35.1 s against 49.4 / 43.6 s; 1.91
// against 3.08–3.32 GB). The threshold is that crossing.
const SubspaceMinNodes = 2_000_000

// subspaceComponent runs the subspace iteration for the need−1 largest
// eigenvalues of S below 1 on a connected graph and returns the need
// smallest pairs of L_sym, the first (the null pair) left for the caller to
// set. Counters are added to total, also when it hands over.
func subspaceComponent(ctx context.Context, g *graph.CSR, dg *laplacian.Degrees, need int, s Settings, total *Result) ([]float64, [][]float64, error) {
	c, err := s.resolve(g.Nodes(), need)
	if err != nil {
		return nil, nil, err
	}
	sp := newSubspace(ctx, g, dg.InvSqrtD, need-1, c)
	theta, v, err := sp.run()
	total.Restarts += sp.passes
	total.MatVecs += sp.matvecs
	if err != nil {
		sp.release()
		return nil, nil, err
	}
	vals := make([]float64, need)
	vecs := make([][]float64, need)
	for t := 1; t < need; t++ {
		vals[t] = 1 - theta[t-1]
		vecs[t] = mat.Col(nil, t-1, v)
	}
	sp.release()
	return vals, vecs, nil
}

// denseComponent solves a small component densely: the matrix of L_un or
// L_sym on its nodes, smallest need pairs.
func denseComponent(g *graph.CSR, dg *laplacian.Degrees, kind laplacian.Kind, opt laplacian.Options, nodes []int, need int) ([]float64, [][]float64, error) {
	size := len(nodes)
	local := make(map[int32]int, size)
	for l, i := range nodes {
		local[int32(i)] = l
	}
	m := mat.NewSymDense(size, nil)
	for l, i := range nodes {
		cols, ws := g.Row(i)
		for q, c := range cols {
			lc := local[c]
			if lc < l {
				continue
			}
			var x float64
			if kind == laplacian.Unnormalized {
				x = -ws[q]
			} else {
				x = -dg.InvSqrtD[i] * ws[q] * dg.InvSqrtD[c]
			}
			m.SetSym(l, lc, m.At(l, lc)+x)
		}
		d := 1.0
		if kind == laplacian.Unnormalized {
			d = dg.D[i]
		} else if dg.D[i] == 0 && opt.Isolated == laplacian.IsolatedComponent {
			d = 0 // an isolated node is a component: a zero row of L_sym
		}
		m.SetSym(l, l, m.At(l, l)+d)
	}
	var es mat.EigenSym
	if !es.Factorize(m, true) {
		return nil, nil, fmt.Errorf("spectral: LaplacianEigs: dense eigensolver failed on the component of node %d", nodes[0])
	}
	all := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	vals := append([]float64(nil), all[:need]...)
	vecs := make([][]float64, need)
	for t := range vecs {
		vecs[t] = mat.Col(nil, t, &v)
	}
	return vals, vecs, nil
}

// SingleVectorMinNodes is the component size from which LaplacianEigs with
// Method Auto may use the single-vector method instead of filtered block
// Lanczos (see autoMethod). Small components are cheap either way (a few
// milliseconds below it) and keep the block method, which finds repeated
// eigenvalues from its start block (symmetric graphs: cycles, grids). Above
// it the single-vector method is the cheaper one: for the 7 smallest pairs
// of L_sym it takes 27 ms of CPU and 453 products on Cora's largest
// component (2 485 nodes) where the block method takes 84 ms and 2 100, and
// 1.6–4× less time on random graphs of 1 000–3 000 nodes (average degree 6,
// 7 or 10 pairs).
const SingleVectorMinNodes = 1000

// autoMethod is the Lanczos variant LaplacianEigs uses with Method Auto for
// a component of n nodes: the Chebyshev-filtered single-vector method on
// large components, where it needs several times less orthogonalisation
// than the block method for fewer products (BENCHMARKS.md, spectral), and
// the block method on small ones.
func autoMethod(n int) Method {
	if n < SingleVectorMinNodes {
		return Block
	}
	return SingleVector
}

// filterWork is the constant of the cost model behind graphFilterDegree: a
// filtered block product costs about deg·(nnz/n + 1) row operations per
// basis vector, while the orthogonalisation it saves does not depend on the
// density of the graph, so the degree at which a higher degree stops paying
// for itself falls as 1/(nnz/n + 1). The constant was fitted on PubMed
// (nnz/n = 4.5: degree 36) and the MNIST KNN graph (nnz/n = 14.8: degree
// 12) in the side-by-side benchmark (BENCHMARKS.md, spectral).
const filterWork = 200

// minGraphFilterDegree is the smallest degree graphFilterDegree returns.
const minGraphFilterDegree = 8

// graphFilterDegree returns the cap on the automatic Chebyshev filter degree
// for a graph component with nnz stored entries on n nodes.
func graphFilterDegree(nnz, n int) int {
	d := int(filterWork / (float64(nnz)/float64(n) + 1))
	return max(minGraphFilterDegree, min(d, maxFilterDegree))
}

// singleFilterWork and singleStepPasses are the constants of the cost model
// behind singleFilterDegree: a filtered single-vector step costs
// d·(nnz/n + 1) row operations per node for its products, while the
// orthogonalisation that the filter saves costs about m + singleStepPasses
// per node and step whatever the density (m basis vectors, and the step's
// own passes over its new vectors), so the degree at which more stops
// paying grows as (m + singleStepPasses)/(nnz/n + 1). Fitted on PubMed
// (nnz/n = 4.5) and the MNIST KNN graph (nnz/n = 14.8) for 10, 50 and 100
// pairs (m = 30, 101, 201) in the side-by-side benchmark (BENCHMARKS.md,
// spectral): degrees 4, 11, 12 on PubMed, none, 4, 8 on MNIST; and on
// Cora's largest component (nnz/n = 4.1, 7 pairs, m = 27:
// BenchmarkSpectralClustering/cora/eigs), degree 4.
const (
	singleFilterWork = 0.565
	singleStepPasses = 10
)

// Bounds of singleFilterDegree: below 3 the filter saves too little
// orthogonalisation for its extra products (none is used); above 12 the
// extra products outweigh it on the benchmark graphs.
const (
	minSingleFilterDegree = 3
	maxSingleFilterDegree = 12
)

// singleFilterDegree returns the Chebyshev filter degree of the
// single-vector method with a basis of m vectors for a graph component with
// nnz stored entries on n nodes; 1 means no filter.
func singleFilterDegree(nnz, n, m int) int {
	d := int(math.Round(singleFilterWork * float64(m+singleStepPasses) / (float64(nnz)/float64(n) + 1)))
	if d < minSingleFilterDegree {
		return 1
	}
	return min(d, maxSingleFilterDegree)
}
