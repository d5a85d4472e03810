package labelprop

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/laplacian"
)

// TestSetScalingsMatchesDegrees checks the CG scalings, formed in
// parallel, bitwise against laplacian.Degrees, which they were formed from
// before: d, t = d^{-1/2} and u = d^{1/2} (1 and 1 on isolated nodes),
// and op's Left −a·d^{-1/2} (−0 on isolated nodes), on weighted and 0/1
// graphs with isolated nodes, large enough for several row chunks.
func TestSetScalingsMatchesDegrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for _, weighted := range []bool{false, true} {
		problem := unweightedProblem
		if weighted {
			problem = weightedProblem
		}
		g, _, _ := problem(rng, 3*spreadRowChunk+17, 2)
		const a = 0.7
		deg, err := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
		require.NoError(t, err)
		require.NotEmpty(t, deg.Isolated)
		cg := &spreadingCG{n: g.Nodes()}
		cg.setScalings(g, a)
		for i, d := range deg.D {
			wantT, wantU, wantLeft := deg.InvSqrtD[i], deg.SqrtD[i], -a*deg.InvSqrtD[i]
			if deg.SqrtD[i] == 0 {
				wantT, wantU = 1, 1
			}
			for _, c := range [][2]float64{{cg.deg[i], d}, {cg.t[i], wantT}, {cg.u[i], wantU}, {cg.op.Left[i], wantLeft}, {cg.op.Diag[i], wantU}} {
				require.Equal(t, math.Float64bits(c[1]), math.Float64bits(c[0]), "weighted %v node %d (degree %v): got %v, want %v", weighted, i, d, c[0], c[1])
			}
		}
	}
}

// TestLabelMatchesNormalisedArgmax checks the labels formed without the
// divisions (state.label) against the argmax of the normalised row
// (probabilityRow), node by node, on rows built to catch the shortcut:
// exact ties, scores one unit of roundoff below the largest (whose
// quotients by the sum round to the same value about as often as not),
// negative, zero, tiny, subnormal, NaN and infinite entries, unreached
// nodes, with and without class-mass factors.
func TestLabelMatchesNormalisedArgmax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	const n, c = 20000, 5
	f := mat.NewDense(n, c, nil)
	reached := make([]bool, n)
	special := []float64{0, math.Copysign(0, -1), -1, 1e-310, 5e-324, 0x1p-1000, 1e300, math.NaN(), math.Inf(1), math.Inf(-1)}
	for i := range n {
		row := f.RawRowView(i)
		for k := range row {
			row[k] = rng.Float64() * math.Pow(10, float64(rng.IntN(40)-20))
		}
		top := slices.Max(row)
		switch i % 6 {
		case 1: // an exact tie, or one just below, before the largest
			k := rng.IntN(c)
			row[k] = top
			if i%12 == 1 {
				row[k] = math.Nextafter(top, 0)
			}
		case 2: // several near ties
			for k := range row {
				row[k] = top * (1 - float64(rng.IntN(4))*0x1p-53)
			}
		case 3:
			row[rng.IntN(c)] = special[rng.IntN(len(special))]
		case 4: // every score tiny
			for k := range row {
				row[k] *= 0x1p-1030
			}
		}
		reached[i] = i%17 != 0
	}
	prior := []float64{0.1, 0.3, 0.3, 0.2, 0.1}
	for _, scale := range [][]float64{nil, {1, 0.5, 2, 1, 3}} {
		st := &state{scores: f, reached: reached, scale: scale, seeds: &seeds{prior: prior, classes: c}}
		st.setLabels()
		p := make([]float64, c)
		for i := range n {
			require.Equal(t, argmax(st.probabilityRow(p, i)), st.labels[i], "scale %v row %d: %v", scale, i, f.RawRowView(i))
		}
	}
}

// TestStartBlocks checks the blocks of a fit: F n×c and zero, and the CG
// work area of 3·n·c zeros when it is asked for (allocated on another
// goroutine), nil otherwise.
func TestStartBlocks(t *testing.T) {
	const n, c = 70000, 5 // blocks above one huge page: advised and faulted in
	for _, work := range []bool{false, true} {
		sb := startBlocks(n, c, work)
		f := sb.scores()
		r, cc := f.Dims()
		require.Equal(t, [2]int{n, c}, [2]int{r, cc})
		require.Equal(t, c, f.RawMatrix().Stride)
		require.Equal(t, sb.scores(), f)
		require.False(t, slices.ContainsFunc(f.RawMatrix().Data, nonzero))
		w := sb.workArea()
		if !work {
			require.Nil(t, w)
			continue
		}
		require.Equal(t, 3*n*c, len(w))
		require.False(t, slices.ContainsFunc(w, nonzero))
	}
}

// nonzero reports whether v is not zero.
func nonzero(v float64) bool { return v != 0 }
