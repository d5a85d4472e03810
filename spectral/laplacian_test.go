package spectral

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
)

// pathOrCycle returns the unweighted path (cycle=false) or cycle on n nodes.
func pathOrCycle(n int, cycle bool) *graph.CSR {
	var e []graph.Edge
	for i := 1; i < n; i++ {
		e = append(e, graph.Edge{U: i - 1, V: i, W: 1})
	}
	if cycle {
		e = append(e, graph.Edge{U: n - 1, V: 0, W: 1})
	}
	g, err := graph.FromEdges(n, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

func TestLaplacianEigsClosedForms(t *testing.T) {
	// Closed forms (von Luxburg 2007; Chung, "Spectral Graph Theory", 1997):
	//   path P_n:  L_un 2 − 2cos(πj/n),      L_sym 1 − cos(πj/(n−1))
	//   cycle C_n: L_un 2 − 2cos(2πj/n),     L_sym 1 − cos(2πj/n)
	// j = 0, …, n−1; the cycle's nonzero eigenvalues come in pairs.
	const n = 400 // above denseComponentMax: solved by Lanczos
	const k = 12
	for _, cycle := range []bool{false, true} {
		g := pathOrCycle(n, cycle)
		for _, kind := range []laplacian.Kind{laplacian.Unnormalized, laplacian.Symmetric} {
			want := make([]float64, n)
			for j := range want {
				switch {
				case !cycle && kind == laplacian.Unnormalized:
					want[j] = 2 - 2*math.Cos(math.Pi*float64(j)/n)
				case !cycle:
					want[j] = 1 - math.Cos(math.Pi*float64(j)/(n-1))
				case kind == laplacian.Unnormalized:
					want[j] = 2 - 2*math.Cos(2*math.Pi*float64(j)/n)
				default:
					want[j] = 1 - math.Cos(2*math.Pi*float64(j)/n)
				}
			}
			sort.Float64s(want)
			r, err := LaplacianEigs(context.Background(), g, kind, laplacian.Options{}, k, Settings{Tol: solveTol})
			require.NoError(t, err, "cycle=%v %v", cycle, kind)
			require.InDeltaSlice(t, want[:k], r.Values, valueTol, "cycle=%v %v", cycle, kind)
			op, _ := laplacian.New(g, kind, laplacian.Options{})
			anorm := 1.0
			if kind == laplacian.Unnormalized {
				anorm = 4
			}
			checkResiduals(t, op, r, solveTol*anorm*1.01)
			checkOrthonormal(t, r.Vectors, nil, orthoTol)
			checkSigns(t, r.Vectors)
		}
	}
}

// disconnectedGraph returns a graph with two large random components, a
// copy of one of them (identical spectra: every eigenvalue doubled), a few
// small components and, when isolated is set, two isolated nodes.
func disconnectedGraph(rng *rand.Rand, isolated bool) *graph.CSR {
	var e []graph.Edge
	off := 0
	add := func(g *graph.CSR) {
		g.ForEachEdge(func(u, v int, w float64) { e = append(e, graph.Edge{U: off + u, V: off + v, W: w}) })
		off += g.Nodes()
	}
	big := randomGraph(rng, 220, 300)
	add(big)
	add(randomGraph(rng, 250, 400))
	add(big)
	for _, s := range []int{2, 3, 3, 7, 40} {
		add(randomGraph(rng, s, s))
	}
	if isolated {
		off += 2
	}
	g, err := graph.FromEdges(off, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

func TestLaplacianEigsDisconnectedAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		isolated bool
		policy   laplacian.IsolatedPolicy
	}{{false, laplacian.IsolatedComponent}, {true, laplacian.IsolatedZero}, {true, laplacian.IsolatedComponent}} {
		isolated := tc.isolated
		g := disconnectedGraph(rng, isolated)
		_, comps := g.Components()
		opt := laplacian.Options{Isolated: tc.policy}
		for _, kind := range []laplacian.Kind{laplacian.Unnormalized, laplacian.Symmetric, laplacian.RandomWalk} {
			symKind := kind
			if kind == laplacian.RandomWalk {
				symKind = laplacian.Symmetric
			}
			op, err := laplacian.New(g, symKind, opt)
			require.NoError(t, err)
			ref := denseSpectrum(t, op)
			zeros := 0
			for _, v := range ref {
				if math.Abs(v) < 1e-9 {
					zeros++
				}
			}
			if kind == laplacian.Unnormalized || !isolated || tc.policy == laplacian.IsolatedComponent {
				require.Equal(t, comps, zeros, "one eigenvalue 0 per component (%v, %v)", kind, tc.policy)
			}
			for _, k := range []int{5, comps, comps + 10} {
				r, err := LaplacianEigs(context.Background(), g, kind, opt, k, Settings{Tol: solveTol})
				require.NoError(t, err, "%v k=%d", kind, k)
				require.InDeltaSlice(t, ref[:k], r.Values, valueTol, "%v isolated=%v k=%d", kind, isolated, k)
				anorm := 1.0
				if kind == laplacian.Unnormalized {
					anorm = 2 * maxDegree(g)
				}
				for j, res := range r.Residuals {
					require.LessOrEqual(t, res, solveTol*anorm*1.01, "pair %d", j)
				}
				checkSigns(t, r.Vectors)
				if kind != laplacian.RandomWalk {
					checkResiduals(t, op, r, solveTol*anorm*1.01)
					checkOrthonormal(t, r.Vectors, nil, orthoTol)
					continue
				}
				// L_rw f = λ f and fᵀDf = 1, checked against the dense
				// matrix of L_rw; isolated nodes' vectors are unit e_i.
				rw, _ := laplacian.New(g, laplacian.RandomWalk, opt)
				d := linop2dense(rw)
				n, _ := r.Vectors.Dims()
				var lf mat.Dense
				lf.Mul(d, r.Vectors)
				for j := 0; j < k; j++ {
					for i := 0; i < n; i++ {
						require.InDelta(t, r.Values[j]*r.Vectors.At(i, j), lf.At(i, j), 1e-9)
					}
				}
				w := g.Degrees()
				var isoCols []int
				isoValue := 1.0
				if tc.policy == laplacian.IsolatedComponent {
					isoValue = 0
				}
				for j := 0; j < k; j++ {
					if math.Abs(r.Values[j]-isoValue) < 1e-12 && isolated && columnIsUnit(r.Vectors, j, g) {
						isoCols = append(isoCols, j)
					}
				}
				if len(isoCols) == 0 {
					checkOrthonormal(t, r.Vectors, w, orthoTol)
				}
			}
		}
	}
}

func columnIsUnit(v *mat.Dense, j int, g *graph.CSR) bool {
	for _, i := range g.Isolated() {
		if v.At(i, j) == 1 {
			return true
		}
	}
	return false
}

func maxDegree(g *graph.CSR) float64 {
	var m float64
	for _, d := range g.Degrees() {
		m = math.Max(m, d)
	}
	return m
}

func linop2dense(op *laplacian.Operator) *mat.Dense { return op.Dense() }

func TestLaplacianEigsZeroVectorsAreComponentIndicators(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	g := disconnectedGraph(rng, false)
	comp, c := g.Components()
	r, err := LaplacianEigs(context.Background(), g, laplacian.RandomWalk, laplacian.Options{}, c, Settings{})
	require.NoError(t, err)
	// Each L_rw null vector is constant on one component, zero elsewhere,
	// with D-norm 1.
	d := g.Degrees()
	seen := map[int]bool{}
	for j := 0; j < c; j++ {
		require.Equal(t, 0.0, r.Values[j])
		owner := -1
		var vol float64
		for i := range comp {
			if x := r.Vectors.At(i, j); x != 0 {
				if owner < 0 {
					owner = comp[i]
				}
				require.Equal(t, owner, comp[i])
				vol += d[i]
			}
		}
		require.False(t, seen[owner])
		seen[owner] = true
		for i := range comp {
			if comp[i] == owner {
				require.InDelta(t, 1/math.Sqrt(vol), r.Vectors.At(i, j), 1e-14)
			}
		}
	}
}

func TestLaplacianEigsErrors(t *testing.T) {
	g, _ := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 3, W: 1}}, graph.Options{})
	ctx := context.Background()
	_, err := LaplacianEigs(ctx, g, laplacian.Symmetric, laplacian.Options{Isolated: laplacian.IsolatedError}, 2, Settings{})
	require.ErrorContains(t, err, "node 2 has degree 0")
	_, err = LaplacianEigs(ctx, g, laplacian.Symmetric, laplacian.Options{Isolated: 5}, 2, Settings{})
	require.ErrorContains(t, err, "Isolated = 5 is invalid")
	_, err = LaplacianEigs(ctx, g, laplacian.NormalizedAdjacency, laplacian.Options{}, 2, Settings{})
	require.ErrorContains(t, err, "kind normalized-adjacency is invalid")
	_, err = LaplacianEigs(ctx, g, laplacian.Symmetric, laplacian.Options{}, 5, Settings{})
	require.ErrorContains(t, err, "k = 5 is invalid: it must lie in [1, 4]")
	_, err = LaplacianEigs(ctx, nil, laplacian.Symmetric, laplacian.Options{}, 1, Settings{})
	require.ErrorContains(t, err, "graph is nil")
	_, err = LaplacianEigs(ctx, g, laplacian.Symmetric, laplacian.Options{}, 1, Settings{Tol: -1})
	require.ErrorContains(t, err, "Tol = -1 is invalid")
	// L_un needs no inverse: the isolated node has eigenvalue 0.
	r, err := LaplacianEigs(ctx, g, laplacian.Unnormalized, laplacian.Options{}, 2, Settings{})
	require.NoError(t, err)
	require.Equal(t, []float64{0, 0}, r.Values)
}

// TestLaplacianEigsIsolatedDefault checks the default against a dense
// reference built the way scipy.sparse.csgraph.laplacian(normed=True) does:
// L_sym with zero rows for isolated nodes, whose eigenvalue is then 0.
func TestLaplacianEigsIsolatedDefault(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := disconnectedGraph(rng, true)
	n := g.Nodes()
	iso := g.Isolated()
	require.NotEmpty(t, iso)
	// Reference: D^{-1/2}(D − W)D^{-1/2} with 1/√0 := 0, entry by entry.
	ref := mat.NewSymDense(n, nil)
	inv := make([]float64, n)
	for i := 0; i < n; i++ {
		if d := g.Degree(i); d > 0 {
			inv[i] = 1 / math.Sqrt(d)
		}
	}
	for i := 0; i < n; i++ {
		ref.SetSym(i, i, g.Degree(i)*inv[i]*inv[i])
		cols, ws := g.Row(i)
		for k, j := range cols {
			if int(j) > i {
				ref.SetSym(i, int(j), -inv[i]*ws[k]*inv[j])
			}
		}
	}
	var es mat.EigenSym
	require.True(t, es.Factorize(ref, false))
	want := es.Values(nil)
	_, comps := g.Components()
	k := comps + 6
	for _, kind := range []laplacian.Kind{laplacian.Symmetric, laplacian.RandomWalk} {
		r, err := LaplacianEigs(context.Background(), g, kind, laplacian.Options{}, k, Settings{Tol: solveTol})
		require.NoError(t, err, "%v", kind)
		require.InDeltaSlice(t, want[:k], r.Values, valueTol, "%v", kind)
		for j := 0; j < comps; j++ {
			require.Zero(t, r.Values[j])
		}
		for j, v := range mat.Col(nil, 0, r.Vectors) {
			require.False(t, math.IsNaN(v), "vector entry %d", j)
		}
	}
}

// TestLaplacianEigsManyPairs asks for most of the spectrum of a component
// above the small dense size: the dense path answers, matching the dense
// reference; above DenseEigsMaxNodes the request is refused at once.
func TestLaplacianEigsManyPairs(t *testing.T) {
	g := gridGraph(15, 15) // 225 nodes, one component
	n := g.Nodes()
	op, err := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	require.NoError(t, err)
	ref := denseSpectrum(t, op)
	k := n - 5
	r, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, k, Settings{Tol: solveTol})
	require.NoError(t, err)
	require.InDeltaSlice(t, ref[:k], r.Values, valueTol)

	big := gridGraph(50, 50) // 2500 nodes
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = LaplacianEigs(ctx, big, laplacian.Symmetric, laplacian.Options{}, 1000, Settings{})
	require.ErrorContains(t, err, "DenseEigsMaxNodes = 2048")
	require.ErrorContains(t, err, "ask for k ≤ 625")
}
