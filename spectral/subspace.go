package spectral

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
)

// This file holds Chebyshev-filtered subspace iteration (Zhou & Saad, SIAM
// J. Matrix Anal. Appl. 29, 2007; Zhou, Saad, Tiago & Chelikowsky, J.
// Comput. Phys. 219, 2006) on the normalised adjacency S of one connected
// component, the Method Subspace path of LaplacianEigs (see the package
// documentation for when Auto takes it).

// Tuning of the subspace iteration.
const (
	// subspaceExtra is the least number of buffer vectors beyond the wanted
	// ones: the smallest Ritz value of the block is the filter's cut.
	subspaceExtra = 3
	// subspaceMaxWidth caps the block (the graph's unrolled kernels).
	subspaceMaxWidth = 16
	// subspaceRange caps T_d at the largest Ritz value of the block, so that
	// the filtered block stays well conditioned for SVQB.
	subspaceRange = 1e6
	// subspaceMinDegree and subspaceMaxDegree bound the degree of one pass.
	subspaceMinDegree, subspaceMaxDegree = 4, 30
	// subspaceBudget is the estimated number of block products left above
	// which the run hands over to the single-vector method (a clustered
	// spectrum at the wanted end), checked from the third pass.
	subspaceBudget = 150
	// subspaceMaxPasses caps the filter passes before handing over.
	subspaceMaxPasses = 40
	// subspaceRows is the row chunk of the reductions (fixed, so results do
	// not depend on the number of cores).
	subspaceRows = 1 << 13
)

// errSubspaceHandOver reports that the subspace iteration gave up early
// (slow convergence predicted, or a block that lost rank): the caller runs
// the Lanczos method instead.
var errSubspaceHandOver = errors.New("spectral: subspace iteration handed over")

// subspace is Chebyshev-filtered subspace iteration for the k largest
// eigenvalues below 1 of S = D^{-1/2} W D^{-1/2} on a connected graph: the
// eigenvalue 1 (eigenvector D^{1/2}1) is projected out of the block.
type subspace struct {
	ctx      context.Context
	g        *graph.CSR
	n, k, p  int
	tol      float64
	seed     uint64
	progress func(Status)
	invSqrtD []float64
	sqrtD    []float64
	invD     []float64
	null     []float64 // D^{1/2}1, normalised
	x, ax    *mat.Dense
	f32a     []float32 // the float32 recursion's blocks (subspace32.go)
	f32b     []float32
	f32r     []float32 // D^{-1/2}R/e of filterCorrected
	single   bool      // float64 filter passes (filter) instead of filterCorrected: the tests' reference
	matvecs  int
	passes   int
}

func newSubspace(ctx context.Context, g *graph.CSR, invSqrtD []float64, k int, c config) *subspace {
	n := g.Nodes()
	p := min(k+max(subspaceExtra, k/4), subspaceMaxWidth, n-1)
	s := &subspace{ctx: ctx, g: g, n: n, k: k, p: p, tol: c.tol, seed: c.seed, progress: c.progress, invSqrtD: invSqrtD}
	s.sqrtD, s.invD, s.null = make([]float64, n), make([]float64, n), make([]float64, n)
	var ss float64
	for i, v := range invSqrtD {
		s.sqrtD[i] = 1 / v
		s.invD[i] = v * v
		ss += 1 / (v * v)
	}
	nrm := math.Sqrt(ss)
	for i, v := range s.sqrtD {
		s.null[i] = v / nrm
	}
	s.x, s.ax = mat.NewDense(n, p, hugepage.Float64s(n*p)), mat.NewDense(n, p, hugepage.Float64s(n*p))
	return s
}

// release drops the blocks and, when they were large, returns the heap's
// free memory to the system (debug.FreeOSMemory, as stkr does after a
// solve): five blocks of about 200 bytes a node in all (two float64, three
// padded float32) would otherwise stay with the process, unreclaimed until
// the heap doubles, while the caller's residual products (or the Lanczos
// method it hands over to) allocate their own.
func (s *subspace) release() {
	large := 8*s.n*s.p >= hugepage.MinBytes
	s.x, s.ax, s.f32a, s.f32b, s.f32r = nil, nil, nil, nil, nil
	if large {
		debug.FreeOSMemory()
	}
}

// run returns the k largest eigenvalues of S below 1, descending, and the
// block whose first k columns are their unit eigenvectors;
// errSubspaceHandOver when it gives up.
func (s *subspace) run() ([]float64, *mat.Dense, error) {
	s.random(s.x, nil)
	if err := s.orthonormalize(); err != nil {
		return nil, nil, err
	}
	for {
		if err := s.ctx.Err(); err != nil {
			return nil, nil, err
		}
		theta, res := s.rayleighRitz()
		worst := 0.0
		for _, r := range res[:s.k] {
			worst = math.Max(worst, r)
		}
		if s.progress != nil {
			s.progress(Status{Restarts: s.passes, MatVecs: s.matvecs, Converged: countBelow(res[:s.k], s.tol) + 1, Wanted: s.k + 1, Residual: worst})
		}
		if worst <= s.tol {
			return theta[:s.k], s.x, nil
		}
		d, ok := s.degree(theta, worst)
		if !ok {
			return nil, nil, errSubspaceHandOver
		}
		cut := theta[s.p-1]
		if s.single {
			s.filter(d, (cut-1)/2, (cut+1)/2)
		} else {
			s.filterCorrected(d, theta, (cut-1)/2, (cut+1)/2)
		}
		s.passes++
		if err := s.orthonormalize(); err != nil {
			return nil, nil, err
		}
	}
}

func countBelow(x []float64, tol float64) int {
	c := 0
	for _, v := range x {
		if v <= tol {
			c++
		}
	}
	return c
}

// degree returns the degree of the next filter pass on [−1, cut], cut the
// smallest Ritz value: enough to bring the largest wanted residual worst to
// the tolerance at the rate 1/T_d((θ_k − γ)/e) of the k-th Ritz value,
// capped by subspaceRange at the largest; ok is false when the predicted
// work exceeds the budget (a clustered spectrum at the wanted end).
func (s *subspace) degree(theta []float64, worst float64) (int, bool) {
	cut := theta[s.p-1]
	gamma, e := (cut-1)/2, (cut+1)/2
	xk, x0 := (theta[s.k-1]-gamma)/e, (theta[0]-gamma)/e
	if s.passes >= subspaceMaxPasses || !(e > 0) {
		return 0, false
	}
	rate := 0.0
	if xk > 1 {
		rate = math.Acosh(xk)
	}
	if s.passes == 0 || rate == 0 {
		return subspaceMinDegree * 2, s.passes < 2
	}
	if s.passes >= 2 && math.Log(2*worst/s.tol)/rate > subspaceBudget {
		return 0, false
	}
	d := int(math.Ceil(math.Log(2*worst/s.tol)/rate)) + 1
	if x0 > 1 {
		d = min(d, int(math.Log(2*subspaceRange)/math.Acosh(x0)))
	}
	return max(subspaceMinDegree, min(d, subspaceMaxDegree)), true
}

// filter replaces the block X by T_d((S − γ)/e)·X, run on Z = D^{-1/2}Y:
//
//	Z_{i+1} = (2/e)(D^{-1}W − γ)Z_i − Z_{i−1},   Y_d = D^{1/2} Z_d,
//
// one gather per stored entry and no scaling of the gathered rows: each step
// is graph.ChebyshevStepTo with the diagonal −γ and the left scaling D^{-1}.
// Z_{i+1} overwrites Z_{i−1} (ChebyshevStepTo allows dst = prev), so the
// recursion needs the two blocks X and AX.
func (s *subspace) filter(d int, gamma, e float64) {
	shift := make([]float64, s.n)
	for i := range shift {
		shift[i] = -gamma
	}
	sc := graph.Scaling{Diag: shift, Left: s.invD}
	s.scaleRows(s.x, s.invSqrtD)
	s.g.ChebyshevStepTo(s.ax, s.x, nil, sc, 1/e)
	prev, cur := s.x, s.ax
	for i := 1; i < d; i++ {
		s.g.ChebyshevStepTo(prev, cur, prev, sc, 2/e)
		prev, cur = cur, prev
	}
	s.matvecs += d * s.p
	s.scaleRows(cur, s.sqrtD)
	s.x, s.ax = cur, prev
}

// scaleRows multiplies row i of b by f[i].
func (s *subspace) scaleRows(b *mat.Dense, f []float64) {
	m := b.RawMatrix()
	parallel.For(s.n, subspaceRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := m.Data[i*m.Stride : i*m.Stride+m.Cols]
			for j := range row {
				row[j] *= f[i]
			}
		}
	})
}

// rayleighRitz computes AX = S·X, rotates X and AX to the Ritz vectors of
// XᵀAX (Ritz values descending) and returns the Ritz values and the
// residual norms ‖Sx_j − θ_j x_j‖.
func (s *subspace) rayleighRitz() ([]float64, []float64) {
	s.scaleRows(s.x, s.invSqrtD)
	s.g.ScaledMulBlockTo(s.ax, s.x, graph.Scaling{Left: s.invSqrtD})
	s.scaleRows(s.x, s.sqrtD)
	s.matvecs += s.p
	h := s.gram(s.x, s.ax)
	var es mat.EigenSym
	sym := mat.NewSymDense(s.p, nil)
	for a := 0; a < s.p; a++ {
		for b := a; b < s.p; b++ {
			sym.SetSym(a, b, (h[a*s.p+b]+h[b*s.p+a])/2)
		}
	}
	es.Factorize(sym, true)
	asc := es.Values(nil)
	var q mat.Dense
	es.VectorsTo(&q)
	// descending order
	theta := make([]float64, s.p)
	rot := make([]float64, s.p*s.p)
	for j := 0; j < s.p; j++ {
		theta[j] = asc[s.p-1-j]
		for i := 0; i < s.p; i++ {
			rot[i*s.p+j] = q.At(i, s.p-1-j)
		}
	}
	s.rotate(s.x, rot)
	s.rotate(s.ax, rot)
	return theta, s.residuals(theta)
}

// residuals returns ‖AX_j − θ_j X_j‖ for every column.
func (s *subspace) residuals(theta []float64) []float64 {
	xm, am := s.x.RawMatrix(), s.ax.RawMatrix()
	p := s.p
	parts := make([]float64, parallel.NumChunks(s.n, subspaceRows)*p)
	parallel.Chunks(s.n, subspaceRows, func(c, lo, hi int) {
		part := parts[c*p : (c+1)*p]
		for i := lo; i < hi; i++ {
			xr, ar := xm.Data[i*xm.Stride:i*xm.Stride+p], am.Data[i*am.Stride:i*am.Stride+p]
			for j, v := range ar {
				r := v - theta[j]*xr[j]
				part[j] += r * r
			}
		}
	})
	res := make([]float64, p)
	for c := 0; c < len(parts)/p; c++ {
		for j := range res {
			res[j] += parts[c*p+j]
		}
	}
	for j := range res {
		res[j] = math.Sqrt(res[j])
	}
	return res
}

// gram returns AᵀB (p×p, row-major) summed over fixed row chunks in chunk
// order, each chunk's p×p product on the gemm micro-kernels (every entry a
// dot product over the chunk's rows in order).
func (s *subspace) gram(a, b *mat.Dense) []float64 {
	p := s.p
	am, bm := a.RawMatrix(), b.RawMatrix()
	parts := make([]float64, parallel.NumChunks(s.n, subspaceRows)*p*p)
	parallel.Chunks(s.n, subspaceRows, func(c, lo, hi int) {
		ac := blas64.General{Rows: hi - lo, Cols: p, Stride: am.Stride, Data: am.Data[lo*am.Stride:]}
		bc := blas64.General{Rows: hi - lo, Cols: p, Stride: bm.Stride, Data: bm.Data[lo*bm.Stride:]}
		buf := panelBuffers.Get().(*[2][]float64)
		pa := gemm.PackOp64(ac, true, gemm.MR, buf[0])
		pb := gemm.PackOp64(bc, true, gemm.NR64, buf[1])
		gemm.MulTTo(parts[c*p*p:(c+1)*p*p], p, pa, pb)
		buf[0], buf[1] = pa.Data, pb.Data
		panelBuffers.Put(buf)
	})
	g := make([]float64, p*p)
	for c := 0; c < len(parts)/(p*p); c++ {
		for t := range g {
			g[t] += parts[c*p*p+t]
		}
	}
	return g
}

// panelBuffers recycles the packed panels of gram and rotate.
var panelBuffers = sync.Pool{New: func() any { return new([2][]float64) }}

// rotate sets B ← B·R in place (R p×p row-major), subspaceRows rows at a
// time on the gemm micro-kernels (each entry a dot product over R's rows in
// order, whatever the rows' grouping).
func (s *subspace) rotate(b *mat.Dense, r []float64) {
	m := b.RawMatrix()
	p := s.p
	pr := gemm.PackOp64(blas64.General{Rows: p, Cols: p, Stride: p, Data: r}, true, gemm.NR64, nil)
	parallel.For(s.n, subspaceRows, func(lo, hi int) {
		tmp := make([]float64, subspaceRows*p)
		buf := panelBuffers.Get().(*[2][]float64)
		for r0 := lo; r0 < hi; r0 += subspaceRows {
			r1 := min(hi, r0+subspaceRows)
			xc := blas64.General{Rows: r1 - r0, Cols: p, Stride: m.Stride, Data: m.Data[r0*m.Stride:]}
			pa := gemm.PackOp64(xc, false, gemm.MR, buf[0])
			buf[0] = pa.Data
			gemm.MulTTo(tmp, p, pa, pr)
			for i := r0; i < r1; i++ {
				copy(m.Data[i*m.Stride:i*m.Stride+p], tmp[(i-r0)*p:(i-r0+1)*p])
			}
		}
		panelBuffers.Put(buf)
	})
}

// orthonormalize projects the null vector D^{1/2}1 out of X and makes its
// columns orthonormal by SVQB (Stathopoulos & Wu, SIAM J. Sci. Comput. 23,
// 2002), repeated until XᵀX = I to 1e-12 (twice after a filter pass whose
// block is conditioned up to subspaceRange); columns that lost their rank
// are replaced by random ones. A block still not orthonormal after six
// passes hands over to Lanczos.
func (s *subspace) orthonormalize() error {
	s.project()
	for pass := 0; pass < 6; pass++ {
		g := s.gram(s.x, s.x)
		if offIdentity(g, s.p) <= 1e-12 {
			return nil
		}
		rot, lost := svqb(g, s.p)
		s.rotate(s.x, rot)
		if len(lost) > 0 {
			s.random(s.x, lost)
			s.project()
		}
	}
	return errSubspaceHandOver
}

// offIdentity returns max |G − I| of a p×p row-major matrix.
func offIdentity(g []float64, p int) float64 {
	var w float64
	for a := 0; a < p; a++ {
		for b := 0; b < p; b++ {
			v := g[a*p+b]
			if a == b {
				v--
			}
			w = math.Max(w, math.Abs(v))
		}
	}
	return w
}

// svqb returns R = Δ·V·Λ^{-1/2} for the Gram matrix G = XᵀX, with
// Δ = diag(G)^{-1/2} and ΔGΔ = VΛVᵀ, so that X·R has orthonormal columns,
// and the columns whose λ is below 1e-13·λ_max (rank lost to rounding).
func svqb(g []float64, p int) ([]float64, []int) {
	dl := make([]float64, p)
	for a := range dl {
		dl[a] = 1 / math.Sqrt(math.Max(g[a*p+a], math.SmallestNonzeroFloat64))
	}
	sym := mat.NewSymDense(p, nil)
	for a := 0; a < p; a++ {
		for b := a; b < p; b++ {
			sym.SetSym(a, b, dl[a]*dl[b]*(g[a*p+b]+g[b*p+a])/2)
		}
	}
	var es mat.EigenSym
	es.Factorize(sym, true)
	lam := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	floor := 1e-13 * math.Max(lam[p-1], 0)
	var lost []int
	rot := make([]float64, p*p)
	for j := 0; j < p; j++ {
		l := lam[j]
		if !(l > floor) {
			lost = append(lost, j)
			l = math.Max(floor, math.SmallestNonzeroFloat64)
		}
		f := 1 / math.Sqrt(l)
		for a := 0; a < p; a++ {
			rot[a*p+j] = dl[a] * v.At(a, j) * f
		}
	}
	return rot, lost
}

// project sets X ← X − u(uᵀX) for the unit null vector u.
func (s *subspace) project() {
	u := blas64.General{Rows: s.n, Cols: 1, Stride: 1, Data: s.null}
	xm := s.x.RawMatrix()
	p := s.p
	parts := make([]float64, parallel.NumChunks(s.n, subspaceRows)*p)
	parallel.Chunks(s.n, subspaceRows, func(c, lo, hi int) {
		uc := blas64.General{Rows: hi - lo, Cols: 1, Stride: 1, Data: u.Data[lo:]}
		xc := blas64.General{Rows: hi - lo, Cols: p, Stride: xm.Stride, Data: xm.Data[lo*xm.Stride:]}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, uc, xc, 0, blas64.General{Rows: 1, Cols: p, Stride: p, Data: parts[c*p : (c+1)*p]})
	})
	coef := make([]float64, p)
	for c := 0; c < len(parts)/p; c++ {
		for j := range coef {
			coef[j] += parts[c*p+j]
		}
	}
	parallel.For(s.n, subspaceRows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := xm.Data[i*xm.Stride : i*xm.Stride+p]
			for j, c := range coef {
				row[j] -= c * s.null[i]
			}
		}
	})
}

// random fills the columns cols of b (nil: all) with uniform numbers in
// [−1, 1), each fixed chunk of rows from its own stream of the seed, so the
// block does not depend on the number of cores.
func (s *subspace) random(b *mat.Dense, cols []int) {
	m := b.RawMatrix()
	if cols == nil {
		cols = make([]int, s.p)
		for j := range cols {
			cols[j] = j
		}
	}
	parallel.Chunks(s.n, subspaceRows, func(c, lo, hi int) {
		rng := rand.New(rand.NewPCG(s.seed, uint64(c)<<16|uint64(s.passes)))
		for i := lo; i < hi; i++ {
			for _, j := range cols {
				m.Data[i*m.Stride+j] = 2*rng.Float64() - 1
			}
		}
	})
}
