package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// gramTol: the blocked ‖x‖²+‖y‖²−2xᵀy form loses a few ulps of the norms
// (order 10 here) relative to the direct difference.
const gramTol = 1e-11

func randomPoints(rng *rand.Rand, n, d int) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	x.Apply(func(int, int, float64) float64 { return rng.NormFloat64() }, x)
	return x
}

// naive evaluates the formulas of doc.go directly.
func naive(name string, x, y []float64) float64 {
	var d2, xy float64
	for i := range x {
		d2 += (x[i] - y[i]) * (x[i] - y[i])
		xy += x[i] * y[i]
	}
	r := math.Sqrt(d2)
	switch name {
	case "gauss":
		return math.Exp(-d2 / (2 * 1.3 * 1.3))
	case "laplace":
		return math.Exp(-r / 0.7)
	case "m12":
		return math.Exp(-r / 2)
	case "m32":
		return (1 + math.Sqrt(3)*r/2) * math.Exp(-math.Sqrt(3)*r/2)
	case "m52":
		return (1 + math.Sqrt(5)*r/2 + 5*r*r/12) * math.Exp(-math.Sqrt(5)*r/2)
	case "linear":
		return xy + 0.5
	case "poly":
		return math.Pow(0.3*xy+1, 3)
	}
	panic(name)
}

func TestGramAgainstNaive(t *testing.T) {
	kernels := map[string]Kernel{
		"gauss": Gaussian{Sigma: 1.3}, "laplace": Laplacian{Sigma: 0.7},
		"m12": Matern{Nu: 0.5, Length: 2}, "m32": Matern{Nu: 1.5, Length: 2}, "m52": Matern{Nu: 2.5, Length: 2},
		"linear": Linear{C: 0.5}, "poly": Polynomial{Degree: 3, Gamma: 0.3, Coef0: 1},
	}
	rng := rand.New(rand.NewPCG(1, 1))
	x := randomPoints(rng, 600, 5) // more than one row block
	y := randomPoints(rng, 40, 5)
	for name, k := range kernels {
		g, err := Gram(k, x, y)
		require.NoError(t, err, name)
		for i := 0; i < 600; i += 7 {
			for j := 0; j < 40; j++ {
				want := naive(name, x.RawRowView(i), y.RawRowView(j))
				assert.InDelta(t, want, g.At(i, j), gramTol*math.Max(1, math.Abs(want)), "%s (%d,%d)", name, i, j)
				assert.InDelta(t, want, k.Eval(x.RawRowView(i), y.RawRowView(j)), gramTol*math.Max(1, math.Abs(want)))
			}
		}
		// K(X, X) is symmetric PSD; radial kernels have a unit diagonal.
		xs := x.Slice(0, 80, 0, 5).(*mat.Dense)
		kk, err := Gram(k, xs, xs)
		require.NoError(t, err)
		var es mat.EigenSym
		require.True(t, es.Factorize(mat.NewSymDense(80, mat.DenseCopyOf(kk).RawMatrix().Data), false))
		assert.GreaterOrEqual(t, es.Values(nil)[0], -1e-9, name)
		if _, ok := k.(Radial); ok {
			for i := 0; i < 80; i++ {
				assert.InDelta(t, 1, kk.At(i, i), gramTol)
			}
		}
	}
}

func TestBadParameters(t *testing.T) {
	x := mat.NewDense(2, 2, []float64{0, 1, 2, 3})
	for k, msg := range map[Kernel]string{
		Gaussian{Sigma: 0}:                         "Gaussian sigma=0 is invalid",
		Gaussian{Sigma: -1}:                        "must be finite and > 0",
		Laplacian{Sigma: math.NaN()}:               "Laplacian sigma=NaN",
		Matern{Nu: 2, Length: 1}:                   "Matern nu=2 is invalid",
		Matern{Nu: 2.5}:                            "Matern length=0",
		Polynomial{Degree: 0, Gamma: 1}:            "degree=0",
		Linear{C: -1}:                              "Linear c=-1",
		Polynomial{Degree: 2, Gamma: 0}:            "Polynomial gamma=0",
		Polynomial{Degree: 2, Gamma: 1, Coef0: -2}: "coef0=-2",
	} {
		_, err := Gram(k, x, x)
		assert.ErrorContains(t, err, msg)
	}
	bad := mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 3})
	_, err := Gram(Gaussian{Sigma: 1}, x, bad)
	assert.ErrorContains(t, err, "Y row 1 column 0 is NaN")
	_, err = Gram(Gaussian{Sigma: 1}, x, mat.NewDense(2, 3, nil))
	assert.ErrorContains(t, err, "2 and 3 dimensions")
}

// CheckPoints finds every non-finite value, wherever it lies in a row
// (the four partial sums and the tail), and names its row and column.
func TestCheckPointsNonFinite(t *testing.T) {
	for _, cols := range []int{1, 3, 4, 7, 9} {
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			for j := range cols {
				x := mat.NewDense(3, cols, nil)
				for i := range 3 {
					for c := range cols {
						x.Set(i, c, float64(i*cols+c)-4.5)
					}
				}
				require.NoError(t, CheckPoints("X", x, cols))
				x.Set(1, j, bad)
				err := CheckPoints("X", x, cols)
				require.Error(t, err)
				assert.Contains(t, err.Error(), fmt.Sprintf("row 1 column %d is %v", j, bad))
			}
		}
	}
}

// CheckPoints names the first non-finite row of a long X, read in parallel
// chunks, whatever the number of goroutines.
func TestCheckPointsFirstOfSeveralChunks(t *testing.T) {
	cfg := parallel.Current()
	defer func() { require.NoError(t, parallel.Configure(cfg)) }()
	x := mat.NewDense(5*checkGrain+3, 2, nil)
	x.Set(4*checkGrain+1, 0, math.NaN())
	x.Set(checkGrain+7, 1, math.Inf(-1))
	x.Set(checkGrain+9, 0, math.Inf(1))
	for _, w := range []int{1, 2, 3} {
		require.NoError(t, parallel.Configure(parallel.Config{Workers: w}))
		err := CheckPoints("X", x, 2)
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("row %d column 1 is -Inf", checkGrain+7), "%d workers", w)
	}
	x.Set(4*checkGrain+1, 0, 0)
	x.Set(checkGrain+7, 1, 0)
	x.Set(checkGrain+9, 0, 0)
	require.NoError(t, CheckPoints("X", x, 2))
}
