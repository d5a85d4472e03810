package stkr

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
)

// blockPathTol is the agreement of the fit through krylov.MINRESColumns
// with the fit column by column (krylov.MINRES per column), relative to the
// largest score. The two are bitwise equal when the graph's block product
// equals its vector product column by column (it does: the test checks), so
// the tolerance only guards against a platform where the two products round
// differently.
const blockPathTol = 1e-12

// TestMINRESBlockPathEqualsColumns: every fit that runs MINRES (the inverse
// Laplacian, KRR's indefinite polynomial system, an explicit MINRES stopped
// early, one stopped by the iteration cap) gives the same model through the
// shared block products as column by column: iterations and residual of
// every class, α, the stored vectors and the scores.
func TestMINRESBlockPathEqualsColumns(t *testing.T) {
	ds := loadCora(t)
	cora, coraTrain, coraY := coraPlanetoid(t, ds)
	small, smallTrain, smallY := smallProblem(t)
	smallK, err := NewGraphKernel(small)
	require.NoError(t, err)
	mid := randomGraph(t, 3000, 9000, true, 5)
	midK, err := NewGraphKernel(mid)
	require.NoError(t, err)
	midTrain := make([]int, 0, 300)
	for i := 0; i < 3000; i += 10 {
		midTrain = append(midTrain, i)
	}
	midY := mat.NewDense(len(midTrain), 4, nil)
	for p := range midTrain {
		midY.Set(p, (p*7)%4, 1)
	}
	graphs := []struct {
		name  string
		g     *graph.CSR
		k     *GraphKernel
		train []int
		y     *mat.Dense
	}{
		{"cora", ds.Graph, cora, coraTrain, coraY},
		{"random 60", small, smallK, smallTrain, smallY},
		{"random 3000", mid, midK, midTrain, midY},
	}
	fits := []struct {
		name    string
		r       Regressor
		failing bool
	}{
		{"inverse Laplacian", Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 1}, false},
		{"KRR", Regressor{Transform: KRR(), Beta: 0.05}, false},
		{"λ^8, 5 MINRES steps", Regressor{Transform: Power(8), Beta: 0.1, Solver: SolverMINRES, Iterations: 5}, false},
		{"inverse Laplacian, capped", Regressor{Transform: InverseLaplacian{Eta: 0.99}, Beta: 0.1, MaxIter: 6}, true},
	}
	ctx := context.Background()
	for _, gc := range graphs {
		blockEqualsVector(t, gc.name, gc.k, gc.g.Nodes(), gc.y)
		for _, fc := range fits {
			name := gc.name + "/" + fc.name
			ref, blk := fc.r, fc.r
			ref.columnByColumn = true
			errRef := ref.FitIndexed(ctx, gc.k, gc.train, gc.y)
			errBlk := blk.FitIndexed(ctx, gc.k, gc.train, gc.y)
			if fc.failing {
				var nc *krylov.NotConvergedError
				require.ErrorAs(t, errRef, &nc, name)
				require.ErrorAs(t, errBlk, &nc, name)
				assert.Contains(t, errBlk.Error(), "output column 0", name)
			} else {
				require.NoError(t, errRef, name)
				require.NoError(t, errBlk, name)
			}
			rs, bs := ref.Stats(), blk.Stats()
			assert.Equal(t, rs.Iterations, bs.Iterations, "%s: iterations per class", name)
			assert.Equal(t, rs.Solver, bs.Solver, name)
			assert.LessOrEqual(t, bs.MatVecs, rs.MatVecs, "%s: the block path makes no more products", name)
			for col := range rs.Residual {
				assert.InDelta(t, rs.Residual[col], bs.Residual[col], blockPathTol, "%s: residual of class %d", name, col)
			}
			fr, fb := mustPredict(t, &ref), mustPredict(t, &blk)
			assert.LessOrEqual(t, relDiff(fb, fr), blockPathTol, "%s: scores", name)
			assert.LessOrEqual(t, relDiff(mustAlpha(t, &blk), mustAlpha(t, &ref)), blockPathTol, "%s: α", name)
			bitwise := mat.Equal(fb, fr) && mat.Equal(mustVectors(t, &blk), mustVectors(t, &ref)) && mat.Equal(mustAlpha(t, &blk), mustAlpha(t, &ref))
			assert.True(t, bitwise, "%s: the fits are bitwise equal", name)
			t.Logf("%s: iterations %v, products %d (column by column %d), bitwise %v", name, bs.Iterations, bs.MatVecs, rs.MatVecs, bitwise)
		}
	}
}

// blockEqualsVector checks that the kernel's block product is, column by
// column, bitwise its vector product: what makes the block path's fit
// bitwise the column-by-column one.
func blockEqualsVector(t *testing.T, name string, k *GraphKernel, n int, y *mat.Dense) {
	t.Helper()
	_, c := y.Dims()
	x := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < c; j++ {
			x.Set(i, j, math.Sin(float64(3*i+7*j+1)))
		}
	}
	got := mat.NewDense(n, c, nil)
	k.MulBlockTo(got, x)
	col, out := make([]float64, n), make([]float64, n)
	for j := 0; j < c; j++ {
		k.MulVecTo(out, mat.Col(col, j, x))
		for i := 0; i < n; i++ {
			if math.Float64bits(out[i]) != math.Float64bits(got.At(i, j)) {
				t.Errorf("%s: block product (%d, %d) = %v, vector product %v", name, i, j, got.At(i, j), out[i])
				return
			}
		}
	}
}

// TestMINRESBlockPathCancel: a cancelled fit through the block path keeps
// the iterates and reports the cancellation.
func TestMINRESBlockPathCancel(t *testing.T) {
	g, train, y := smallProblem(t)
	k, err := NewGraphKernel(g)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	r := &Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 1, Progress: func(col, it int, _ float64) {
		assert.Equal(t, -1, col, "all columns at once")
		calls++
		if it == 3 {
			cancel()
		}
	}}
	err = r.FitIndexed(ctx, k, train, y)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	assert.Equal(t, 3, calls)
	assert.Equal(t, []int{3, 3, 3}, r.Stats().Iterations)
	_, err = r.Scores()
	assert.NoError(t, err, "the best iterate is kept")
}

// TestInverseLaplacianBatches: an inverse-Laplacian fit whose MaxMemory
// makes MINRES solve the classes in batches gives bitwise the model of the
// fit column by column (krylov.MINRES per class): iterations, residuals, θ,
// α and the scores; on Cora (a 0/1 graph: the product's input scaled by
// D^{-1/2}) and a weighted random graph, batches of 1, 2 and 3 of the 7 and 4 classes; and
// InverseLaplacianBytes, the bound MaxMemory is held to, counts the batch
// the fit ran.
func TestInverseLaplacianBatches(t *testing.T) {
	ds := loadCora(t)
	cora, coraTrain, coraY := coraPlanetoid(t, ds)
	mid := randomGraph(t, 3000, 9000, true, 5)
	require.False(t, mid.UnitWeights())
	midK, err := NewGraphKernel(mid)
	require.NoError(t, err)
	var midTrain []int
	for i := 0; i < 3000; i += 10 {
		midTrain = append(midTrain, i)
	}
	midY := mat.NewDense(len(midTrain), 4, nil)
	for p := range midTrain {
		midY.Set(p, (p*7)%4, 1)
	}
	ctx := context.Background()
	for _, gc := range []struct {
		name  string
		k     *GraphKernel
		train []int
		y     *mat.Dense
	}{{"cora", cora, coraTrain, coraY}, {"random 3000", midK, midTrain, midY}} {
		N, c := gc.k.Graph().Nodes(), gc.y.RawMatrix().Cols
		ref := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 1, columnByColumn: true}
		require.NoError(t, ref.FitIndexed(ctx, gc.k, gc.train, gc.y))
		for _, w := range []int{1, 2, 3} {
			// θ and w columns of the solver's blocks, and a little less
			// than one more column.
			per := int64(8 * N * int(minresBlocks(true))) // a graph kernel's system: lapColumns
			blk := Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 1, MaxMemory: int64(8*N*c) + int64(w)*per + per - 1}
			k := (c + w - 1) / w // batches; their widths even out
			require.Equal(t, (c+k-1)/k, blk.classBatch(N, c, true), "%s: batch width for %d columns", gc.name, w)
			require.NoError(t, blk.FitIndexed(ctx, gc.k, gc.train, gc.y))
			name := gc.name + ", batches of " + string(rune('0'+w))
			assert.Equal(t, ref.Stats().Iterations, blk.Stats().Iterations, name)
			for col, r := range ref.Stats().Residual {
				assert.Equal(t, math.Float64bits(r), math.Float64bits(blk.Stats().Residual[col]), "%s: residual of class %d", name, col)
			}
			assert.True(t, mat.Equal(mustVectors(t, &ref), mustVectors(t, &blk)), "%s: θ", name)
			assert.True(t, mat.Equal(mustAlpha(t, &ref), mustAlpha(t, &blk)), "%s: α", name)
			assert.True(t, mat.Equal(mustPredict(t, &ref), mustPredict(t, &blk)), "%s: scores", name)
			assert.LessOrEqual(t, blk.InverseLaplacianBytes(N, c), blk.MaxMemory, name)
		}
	}
	r := Regressor{MaxMemory: -1}
	r.Transform, r.Beta = InverseLaplacian{Eta: 0.9}, 1
	assert.ErrorContains(t, r.Validate(), "MaxMemory=-1 is invalid")
}

// TestInverseLaplacianWorkers: the inverse Laplacian's MINRES fit, whose
// product runs by row ranges on several goroutines (lapColumns), gives the
// same iterations and bitwise the same θ on 1, 2 and 8 workers, on Cora
// (0/1) and a weighted graph of 5000 nodes (3 row ranges).
func TestInverseLaplacianWorkers(t *testing.T) {
	ds := loadCora(t)
	cora, coraTrain, coraY := coraPlanetoid(t, ds)
	g := randomGraph(t, 5000, 15000, true, 7)
	gk, err := NewGraphKernel(g)
	require.NoError(t, err)
	var train []int
	for i := 0; i < 5000; i += 25 {
		train = append(train, i)
	}
	y := mat.NewDense(len(train), 3, nil)
	for p := range train {
		y.Set(p, p%3, 1)
	}
	defer func(cfg parallel.Config) { require.NoError(t, parallel.Configure(cfg)) }(parallel.Current())
	for _, gc := range []struct {
		name  string
		k     *GraphKernel
		train []int
		y     *mat.Dense
	}{{"cora", cora, coraTrain, coraY}, {"weighted 5000", gk, train, y}} {
		var first *Regressor
		for _, w := range []int{1, 2, 8} {
			require.NoError(t, parallel.Configure(parallel.Config{Workers: w}))
			r := &Regressor{Transform: InverseLaplacian{Eta: 0.9}, Beta: 1}
			require.NoError(t, r.FitIndexed(context.Background(), gc.k, gc.train, gc.y))
			if first == nil {
				first = r
				continue
			}
			assert.Equal(t, first.Stats().Iterations, r.Stats().Iterations, "%s, %d workers", gc.name, w)
			assert.True(t, mat.Equal(mustVectors(t, first), mustVectors(t, r)), "%s, %d workers: θ", gc.name, w)
		}
	}
}
