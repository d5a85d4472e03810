package graphkernels

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/spectral"
)

// sbm draws a stochastic block model with the given block sizes and
// within/between edge probabilities.
func sbm(t testing.TB, rng *rand.Rand, sizes []int, pin, pout float64) (*graph.CSR, []int) {
	var block []int
	for b, s := range sizes {
		for i := 0; i < s; i++ {
			block = append(block, b)
		}
	}
	n := len(block)
	var e []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := pout
			if block[i] == block[j] {
				p = pin
			}
			if rng.Float64() < p {
				e = append(e, graph.Edge{U: i, V: j, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, e, graph.Options{})
	require.NoError(t, err)
	return g, block
}

// nodeTol: Chebyshev truncation is at 1e-17 and CG at 1e-12 relative
// residual; entries of these kernels are O(1), so 1e-9 leaves room for the
// eigensolver's rounding on the dense side.
const nodeTol = 1e-9

func TestNodeOperatorsMatchDenseKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	g, _ := sbm(t, rng, []int{20, 20}, 0.4, 0.05)
	for _, kind := range []laplacian.Kind{laplacian.Unnormalized, laplacian.Symmetric} {
		l, err := laplacian.New(g, kind, laplacian.Options{Isolated: laplacian.IsolatedZero})
		require.NoError(t, err)
		kernels := []NodeKernel{Diffusion{T: 0.3}, Diffusion{T: 5}, RegularizedLaplacian{T: 2}}
		if kind == laplacian.Symmetric {
			kernels = append(kernels, PStepRandomWalk{A: 2, P: 3}, PStepRandomWalk{A: 3.5, P: 1})
		}
		for _, k := range kernels {
			dense, err := DenseNodeKernel(k, l)
			require.NoError(t, err)
			op, err := k.Operator(l)
			require.NoError(t, err)
			got := linop.ToDense(op)
			require.NoError(t, op.Err())
			scale := mat.Norm(dense, math.Inf(1))
			assert.True(t, mat.EqualApprox(dense, got, nodeTol*scale), "%v %#v: max diff %g", kind, k, maxAbsDiff(dense, got))
			assert.GreaterOrEqual(t, minEigen(t, dense), -psdTol*scale, "%v %#v PSD", kind, k)
		}
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

func TestDenseNodeKernelsAgainstDirectFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	g, _ := sbm(t, rng, []int{8, 7}, 0.6, 0.1)
	n := g.Nodes()
	lsym, err := laplacian.New(g, laplacian.Symmetric, laplacian.Options{Isolated: laplacian.IsolatedZero})
	require.NoError(t, err)
	lun, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	require.NoError(t, err)
	eye := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		eye.SetDiag(i, 1)
	}

	// (I + tL)^{-1} by an LU inverse.
	var sys, inv mat.Dense
	sys.Scale(2, lun.Dense())
	sys.Add(&sys, eye)
	require.NoError(t, inv.Inverse(&sys))
	reg, err := DenseNodeKernel(RegularizedLaplacian{T: 2}, lun)
	require.NoError(t, err)
	assert.Less(t, maxAbsDiff(&inv, reg), nodeTol)

	// (aI − L_sym)^p by repeated products.
	var step, pow mat.Dense
	step.Scale(-1, lsym.Dense())
	step.Add(&step, scaledEye(n, 2.5))
	pow.CloneFrom(&step)
	for p := 1; p < 4; p++ {
		pow.Mul(&pow, &step)
	}
	ps, err := DenseNodeKernel(PStepRandomWalk{A: 2.5, P: 4}, lsym)
	require.NoError(t, err)
	assert.Less(t, maxAbsDiff(&pow, ps), nodeTol*mat.Norm(&pow, math.Inf(1)))

	// exp(−tL) by a Taylor series of exp(−tL/2^s) squared s times.
	const t0, s = 0.7, 10
	var term, sum mat.Dense
	term.CloneFrom(eye)
	sum.CloneFrom(eye)
	for k := 1; k < 30; k++ {
		term.Mul(&term, lun.Dense())
		term.Scale(-t0/math.Exp2(s)/float64(k), &term)
		sum.Add(&sum, &term)
	}
	for i := 0; i < s; i++ {
		sum.Mul(&sum, &sum)
	}
	diff, err := DenseNodeKernel(Diffusion{T: t0}, lun)
	require.NoError(t, err)
	assert.Less(t, maxAbsDiff(&sum, diff), nodeTol)
}

func scaledEye(n int, v float64) *mat.DiagDense {
	d := mat.NewDiagDense(n, nil)
	for i := 0; i < n; i++ {
		d.SetDiag(i, v)
	}
	return d
}

// sbmMedianAccuracy: the course reports 99 % on one networkx draw. Over
// draws the accuracy varies (70–100 % on our first 20 seeds, the four known
// nodes being sometimes poorly connected), so we check the median of ten
// draws, which is 98.5 % for seeds 0..9.
const sbmMedianAccuracy = 0.97

func TestCourseExampleDiffusionOnSBM(t *testing.T) {
	// Course ch. 7: SBM with blocks of 50, p = 0.2 inside and 0.02 across,
	// diffusion kernel exp(−0.5 L), kernel ridge on four labels (ridge 0.01).
	var accs []float64
	for seed := uint64(0); seed < 10; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		g, block := sbm(t, rng, []int{50, 50}, 0.2, 0.02)
		l, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{Isolated: laplacian.IsolatedZero})
		require.NoError(t, err)
		op, err := Diffusion{T: 0.5}.Operator(l)
		require.NoError(t, err)
		accs = append(accs, diffusionRidgeAccuracy(t, op, block, []int{0, 1, 50, 51}))
		if seed == 0 {
			dense, err := DenseNodeKernel(Diffusion{T: 0.5}, l)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, minEigen(t, dense), -psdTol)
		}
	}
	slices.Sort(accs)
	median := 0.5 * (accs[4] + accs[5])
	t.Logf("diffusion kernel on 10 SBM draws: accuracies %v, median %.3f", accs, median)
	assert.GreaterOrEqual(t, median, sbmMedianAccuracy)
}

// diffusionRidgeAccuracy fits kernel ridge regression (ridge 0.01) on the
// known nodes, first block +1 and second −1, with the kernel columns
// K[:, known] from the operator, and returns the accuracy on all nodes.
func diffusionRidgeAccuracy(t *testing.T, op *NodeOperator, block, known []int) float64 {
	n := op.Dim()
	cols := make([][]float64, len(known))
	e := make([]float64, n)
	y := make([]float64, len(known))
	for c, i := range known {
		e[i] = 1
		cols[c] = make([]float64, n)
		require.NoError(t, op.Apply(context.Background(), cols[c], e))
		e[i] = 0
		y[c] = 1 - 2*float64(block[i])
	}
	m := len(known)
	kk := mat.NewDense(m, m, nil)
	for a := range known {
		for b := range known {
			kk.Set(a, b, cols[b][known[a]]+0.01*b2f(a == b))
		}
	}
	var alpha mat.VecDense
	require.NoError(t, alpha.SolveVec(kk, mat.NewVecDense(m, y)))
	right := 0
	for i := 0; i < n; i++ {
		var f float64
		for c := range known {
			f += cols[c][i] * alpha.AtVec(c)
		}
		if (f > 0) == (block[i] == 0) {
			right++
		}
	}
	return float64(right) / float64(n)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func TestNodeKernelBadInput(t *testing.T) {
	g := cycle(t, 5)
	lsym, err := laplacian.New(g, laplacian.Symmetric, laplacian.Options{})
	require.NoError(t, err)
	lun, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	require.NoError(t, err)
	adj, err := laplacian.New(g, laplacian.NormalizedAdjacency, laplacian.Options{})
	require.NoError(t, err)
	for _, c := range []struct {
		k   NodeKernel
		l   *laplacian.Operator
		msg string
	}{
		{Diffusion{T: 0}, lun, "Diffusion T=0 is invalid"},
		{Diffusion{T: math.Inf(1)}, lun, "Diffusion T=+Inf is invalid"},
		{RegularizedLaplacian{T: -1}, lun, "RegularizedLaplacian T=-1 is invalid"},
		{RegularizedLaplacian{T: 1, Tol: 1}, lun, "Tol=1 is invalid"},
		{PStepRandomWalk{A: 1.5, P: 2}, lsym, "A=1.5 is invalid"},
		{PStepRandomWalk{A: 2, P: 0}, lsym, "P=0 is invalid"},
		{PStepRandomWalk{A: 2, P: 1}, lun, "needs the symmetric Laplacian"},
		{Diffusion{T: 1}, adj, "needs the unnormalized or symmetric Laplacian"},
	} {
		_, err := c.k.Operator(c.l)
		require.ErrorContains(t, err, c.msg)
		_, err = DenseNodeKernel(c.k, c.l)
		require.ErrorContains(t, err, c.msg)
	}
	op, err := Diffusion{T: 1}.Operator(lun)
	require.NoError(t, err)
	require.ErrorContains(t, op.Apply(context.Background(), make([]float64, 4), make([]float64, 5)), "dst has length 4")
}

// TestDiffusionAgreesWithSpectralMatFunc: the diffusion kernel's Chebyshev
// expansion (a-priori truncation, three vectors of memory) and package
// spectral's Lanczos matrix function (a posteriori, a full Krylov basis) are
// two independent ways to compute exp(−tL)x; on a graph of 400 nodes, too
// large for the dense check to be cheap, they must agree.
func TestDiffusionAgreesWithSpectralMatFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	g, _ := sbm(t, rng, []int{150, 150, 100}, 0.05, 0.005)
	x := make([]float64, g.Nodes())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for _, kind := range []laplacian.Kind{laplacian.Unnormalized, laplacian.Symmetric} {
		l, err := laplacian.New(g, kind, laplacian.Options{Isolated: laplacian.IsolatedZero})
		require.NoError(t, err)
		for _, tt := range []float64{0.1, 2, 10} {
			op, err := Diffusion{T: tt}.Operator(l)
			require.NoError(t, err)
			got := make([]float64, len(x))
			require.NoError(t, op.Apply(context.Background(), got, x))
			want := make([]float64, len(x))
			_, err = spectral.MatFunc(context.Background(), l, spectral.Exp(tt), want, x, spectral.FuncSettings{Tol: 1e-14})
			require.NoError(t, err)
			var diff, norm float64
			for i := range x {
				diff = math.Max(diff, math.Abs(got[i]-want[i]))
				norm = math.Max(norm, math.Abs(want[i]))
			}
			assert.Less(t, diff, nodeTol*math.Max(norm, 1), "%v Laplacian, t=%g: max |Chebyshev − Lanczos| = %g", kind, tt, diff)
		}
	}
}
