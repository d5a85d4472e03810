package labelprop

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
)

// TestSpreadingCGLiveRows checks that the passes over the live rows only
// (liverows.go) leave the solve bitwise the same (every bit of F, and
// every counter) as passes over every row on one goroutine, with and
// without deflation, from zero and from a guess (which fills every row),
// on 1, 2 and 3 workers; and that they ran on a large graph with few
// seeds.
func TestSpreadingCGLiveRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 23))
	p := randomProblem(rng, 5)
	g, nodes, classes := unweightedProblem(rng, 20000, 5)
	defer func(live, deflate bool) { spreadLiveRows, spreadDeflate = live, deflate }(spreadLiveRows, spreadDeflate)
	defer parallel.Configure(parallel.Current())
	for _, in := range []problem{p, {g: g, nodes: nodes[:6], classes: classes[:6], c: 5}, {g: g, nodes: nodes, classes: classes, c: 5}} {
		n := in.g.Nodes()
		b := denseRHS(oneHot(n, in.c, 0.5, in.nodes, in.classes))
		guess := mat.NewDense(n, in.c, nil)
		for i := 0; i < n; i += 7 {
			guess.Set(i, i%in.c, 0.01*float64(i%5))
		}
		for _, start := range []*mat.Dense{nil, guess} {
			for _, deflate := range []bool{false, true} {
				solve := func(live bool, workers int) (*mat.Dense, krylov.BlockResult, *spreadingCG) {
					spreadLiveRows, spreadDeflate = live, deflate
					require.NoError(t, parallel.Configure(parallel.Config{Workers: workers}))
					f := mat.NewDense(n, in.c, nil)
					if start != nil {
						f.Copy(start)
					}
					cg, err := newCGRHS(in.g, 0.5, b, f, krylov.Settings{Tol: 1e-10})
					require.NoError(t, err)
					res, err := cg.run(context.Background())
					require.NoError(t, err)
					return f, res, cg
				}
				want, wres, all := solve(false, 1)
				require.Zero(t, all.liveUpdates)
				what := fmt.Sprintf("n=%d, %d seeds, deflated %v, guess %v", n, len(in.nodes), deflate, start != nil)
				for _, workers := range []int{1, 2, 3} {
					f, res, cg := solve(true, workers)
					wd, fd := want.RawMatrix().Data, f.RawMatrix().Data
					for k := range wd {
						if math.Float64bits(wd[k]) != math.Float64bits(fd[k]) {
							t.Fatalf("%s, %d workers: F[%d] = %v, passes over every row %v", what, workers, k, fd[k], wd[k])
						}
					}
					require.Equal(t, wres, res, "%s, %d workers", what, workers)
					if start == nil && n == 20000 {
						require.Positive(t, cg.liveUpdates, "%s: few seeds on a large sparse graph: the first updates visit the live rows only", what)
					} else if start != nil {
						require.Zero(t, cg.liveUpdates, "%s: a guess fills every row", what)
					}
				}
			}
		}
	}
}

// TestEachLiveRun checks the runs of eachLiveRun against the live rows one
// by one (eachLive): every live row of [lo, hi) in exactly one run, runs
// maximal and in order, on bitmaps of scattered rows, long runs across
// words and full words, with hi inside a word or at its end.
func TestEachLiveRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(700)
		cg := &spreadingCG{live: make([]uint64, (n+63)/64)}
		for i := 0; i < n; {
			run := 1 + rng.IntN([]int{1, 4, 100}[trial%3])
			if rng.IntN(2) == 0 {
				for k := i; k < min(i+run, n); k++ {
					cg.live[k>>6] |= 1 << (k & 63)
				}
			}
			i += run
		}
		lo := 64 * rng.IntN((n+63)/64)
		hi := lo + 1 + rng.IntN(n-lo)
		var want, got []int
		cg.eachLive(lo, hi, func(i int) { want = append(want, i) })
		last := -1
		cg.eachLiveRun(lo, hi, func(a, b int) {
			require.Less(t, a, b, "trial %d: empty run", trial)
			require.Less(t, last, a, "trial %d: runs out of order or not maximal", trial)
			for i := a; i < b; i++ {
				got = append(got, i)
			}
			last = b
		})
		require.Equal(t, want, got, "trial %d: n %d, rows [%d, %d)", trial, n, lo, hi)
	}
}
