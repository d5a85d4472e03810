package spectral

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// lloydRef is lloyd before Hamerly's bounds: plain Lloyd, every distance
// in every iteration (assignRef, the assignment step as it was), the
// reference of TestLloydBoundsBitwise. The seeding and the update are
// lloyd's own (unchanged by the bounds).
func lloydRef(ctx context.Context, x *mat.Dense, k, maxIter int, rng *rand.Rand) (*KMeansResult, error) {
	n, d := x.Dims()
	centers := mat.NewDense(k, d, nil)
	dist := make([]float64, n)
	seedCenters(x, centers, dist, rng)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	counts := make([]int, k)
	res := &KMeansResult{Labels: labels, Centers: centers}
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		changed := assignRef(x, centers, labels, dist)
		res.Iterations, res.Moved = it+1, changed
		if changed == 0 && it > 0 {
			res.Converged = true
			break
		}
		sumClusters(x, centers, labels, counts)
		meansOrReseed(x, centers, counts, dist)
	}
	if !res.Converged {
		assignRef(x, centers, labels, dist)
	}
	for _, v := range dist {
		res.Inertia += v
	}
	return res, nil
}

// assignRef sets each label to the nearest centre (the first on ties) and dist
// to the squared distance; it returns how many labels changed.
func assignRef(x, centers *mat.Dense, labels []int, dist []float64) int {
	n, d := x.Dims()
	k, _ := centers.Dims()
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	changes := make([]int, (n+rowGrain-1)/rowGrain)
	parallel.For(len(changes), 1, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			for i := ch * rowGrain; i < min(n, (ch+1)*rowGrain); i++ {
				xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
				best, bc := math.Inf(1), 0
				for c := 0; c < k; c++ {
					if dd := sqDist(xi, cr.Data[c*cr.Stride:c*cr.Stride+d]); dd < best {
						best, bc = dd, c
					}
				}
				if labels[i] != bc {
					changes[ch]++
				}
				labels[i], dist[i] = bc, best
			}
		}
	})
	total := 0
	for _, c := range changes {
		total += c
	}
	return total
}

// TestLloydBoundsBitwise: lloyd with Hamerly's bounds gives bitwise the
// labels, centres, inertia, iterations and moves of plain Lloyd (lloydRef,
// the code before the bounds) on blobs, unit rows (the spectral
// embedding's), integer points with ties and duplicates, data that empties
// clusters, and runs stopped at MaxIter, for several seeds.
func TestLloydBoundsBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	blobs := func(n, d, c int, spread float64) *mat.Dense {
		x := mat.NewDense(n, d, nil)
		centres := make([]float64, c*d)
		for i := range centres {
			centres[i] = 4 * rng.NormFloat64()
		}
		for i := 0; i < n; i++ {
			g := rng.IntN(c)
			for j := 0; j < d; j++ {
				x.Set(i, j, centres[g*d+j]+spread*rng.NormFloat64())
			}
		}
		return x
	}
	unit := blobs(800, 7, 7, 3)
	normalizeRows(unit)
	ties := mat.NewDense(300, 2, nil)
	for i := 0; i < 300; i++ {
		ties.Set(i, 0, float64(rng.IntN(4)))
		ties.Set(i, 1, float64(rng.IntN(3)))
	}
	dup := mat.NewDense(60, 3, nil) // 50 copies of one row and 10 others: clusters empty
	for i := 50; i < 60; i++ {
		for j := 0; j < 3; j++ {
			dup.Set(i, j, rng.NormFloat64())
		}
	}
	cases := []struct {
		name    string
		x       *mat.Dense
		k, iter int
	}{
		{"blobs", blobs(1000, 3, 5, 1), 5, 300}, {"overlapping", blobs(1000, 4, 6, 4), 8, 300},
		{"unit", unit, 7, 300}, {"many", blobs(600, 5, 10, 2), 20, 300}, {"ties", ties, 4, 300},
		{"dup", dup, 8, 300}, {"one", blobs(50, 2, 1, 1), 1, 300}, {"capped", blobs(1000, 4, 6, 4), 8, 2},
	}
	for r := 0; r < 20; r++ { // few rows for many centres: clusters empty in later iterations
		cases = append(cases, struct {
			name    string
			x       *mat.Dense
			k, iter int
		}{fmt.Sprintf("crowded %d", r), blobs(40, 2, 3, 1), 15, 300})
	}
	for _, c := range cases {
		for seed := uint64(0); seed < 6; seed++ {
			got, err := lloyd(context.Background(), c.x, c.k, c.iter, rand.New(rand.NewPCG(seed, 9)))
			require.NoError(t, err)
			want, err := lloydRef(context.Background(), c.x, c.k, c.iter, rand.New(rand.NewPCG(seed, 9)))
			require.NoError(t, err)
			require.Equal(t, want.Labels, got.Labels, "%s seed %d", c.name, seed)
			require.True(t, mat.Equal(want.Centers, got.Centers), "%s seed %d", c.name, seed)
			require.Equal(t, math.Float64bits(want.Inertia), math.Float64bits(got.Inertia), "%s seed %d", c.name, seed)
			require.Equal(t, [3]any{want.Iterations, want.Moved, want.Converged}, [3]any{got.Iterations, got.Moved, got.Converged}, "%s seed %d", c.name, seed)
		}
	}
}
