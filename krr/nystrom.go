package krr

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/kernel"
)

// DefaultM is the number of Nyström centres when M is 0 (capped at n).
const DefaultM = 1000

// DefaultJitter is ε in T = chol(K_MM + εM I) when Jitter is 0.
const DefaultJitter = 1e-12

// maxJitter caps the tenfold increases of ε.
const maxJitter = 1e-4

// Centres holds what Nystrom and Falkon share: the centres and how to
// choose them. The zero value draws min(n, 1000) centres uniformly.
type Centres struct {
	// M is the number of centres, 1 ≤ M ≤ n; 0 means min(n, DefaultM), or
	// the number of indices when Sampler is Fixed.
	M int
	// Sampler chooses them; nil means Uniform{}.
	Sampler Sampler
	// Seed seeds the sampler's random choices.
	Seed uint64
}

func (c Centres) resolve(n int) (int, Sampler, error) {
	s := c.Sampler
	if s == nil {
		s = Uniform{}
	}
	m := c.M
	if m == 0 {
		if f, ok := s.(Fixed); ok {
			m = len(f)
		} else {
			m = min(n, DefaultM)
		}
	}
	if m < 1 || m > n {
		return 0, nil, fmt.Errorf("krr: M=%d is invalid: it must be in [1, n=%d] (0 means min(n, %d))", m, n, DefaultM)
	}
	return m, s, nil
}

// setup is the common part of a Nyström fit: centres, the blocked kernel
// matrices K_nM and K_MM, and T = chol(K_MM + εMI).
type setup struct {
	n, c, m int
	idx     []int // rows of X used as centres
	dropped []int // rows of X chosen as centres but equal to an earlier centre
	centres *mat.Dense
	km      *kernel.Matrix
	kmm     *kernel.Matrix // K(C, C) in float64
	t       *mat.TriDense
	lambda  float64
	jitter  float64
	raised  int // tenfold increases of the jitter
}

func prepare(ctx context.Context, k kernel.Kernel, lambda float64, cs Centres, jitter float64, prec kernel.Precision, blockRows int, x, y *mat.Dense) (*setup, error) {
	if err := checkKernel(k); err != nil {
		return nil, err
	}
	if err := checkLambda(lambda); err != nil {
		return nil, err
	}
	if jitter < 0 || math.IsNaN(jitter) || jitter > maxJitter {
		return nil, fmt.Errorf("krr: Jitter=%v is invalid: it must be in [0, %g] (0 means %g)", jitter, maxJitter, DefaultJitter)
	}
	if jitter == 0 {
		jitter = DefaultJitter
	}
	n, _, c, err := checkData(x, y)
	if err != nil {
		return nil, err
	}
	m, sampler, err := cs.resolve(n)
	if err != nil {
		return nil, err
	}
	idx, err := sampler.Centres(ctx, k, x, m, lambda, newRand(cs.Seed))
	if err != nil {
		return nil, err
	}
	idx, dropped := distinctRows(x, idx)
	m = len(idx)
	centres := rowsOf(x, idx)
	// X (and so its rows, the centres) passed checkData's CheckPoints
	km, err := kernel.NewCheckedMatrix(k, x, centres, prec, blockRows)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	kmm, err := kernel.NewCheckedMatrix(k, centres, centres, kernel.Float64, 0)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	st := &setup{n: n, c: c, m: m, idx: idx, dropped: dropped, centres: centres, km: km, kmm: kmm, lambda: lambda, jitter: jitter}
	if err := st.factor(); err != nil {
		return nil, err
	}
	return st, nil
}

// factor sets T = chol(K_MM + εMI), raising ε tenfold (up to maxJitter)
// while the factorisation fails. The upper triangle of K_MM, all that the
// factorisation reads, is evaluated into T's storage (its entries (i, j)
// and (j, i) are the same float64 operations, so it is exactly symmetric),
// so that one M×M matrix is held; its rows are evaluated in parallel (each
// entry alone, so the split changes no bit).
func (st *setup) factor() error {
	m := st.m
	for {
		d := make([]float64, m*m)
		st.kmmUpperTo(d)
		for i := 0; i < m; i++ {
			d[i*m+i] += st.jitter * float64(m)
		}
		var ok bool
		if st.t, ok = dense.CholeskyInPlace(d, m); ok {
			return nil
		}
		if err := st.raise("K_MM + εMI is not numerically positive definite"); err != nil {
			return err
		}
	}
}

// normal returns K_nMᵀK_nM and K_nMᵀY (kernel.Matrix.Normal), then runs a
// garbage collection. Normal's packed row blocks, 16·BlockRows·M bytes a
// block (64 MB for its 16 blocks at M = 1000), are garbage once it
// returns; collected at once, their memory holds the M×M matrices that
// follow (the packed normal matrix, T Tᵀ, the factors and their panels),
// which would otherwise take fresh pages from the system until the heap
// reached its next collection. A fresh page costs 2–8 µs on the benchmark
// machine, a virtual machine: in a gssl falkon run on MNIST at M = 1000
// the fit took 11 000 page faults fewer and T Tᵀ 15 ms instead of 65, for
// a collection of 2–3 ms (5 ms with Fashion-MNIST's 60 000 images live).
func (st *setup) normal(ctx context.Context, y *mat.Dense) (*mat.SymDense, *mat.Dense, error) {
	g, kty, err := st.km.Normal(ctx, y, nil)
	if err == nil {
		runtime.GC()
	}
	return g, kty, err
}

// kmmRows is the number of rows of K_MM evaluated at once by kmmUpperTo:
// each block evaluates its columns from its first row on.
const kmmRows = 8 * gemm.MR

// kmmUpperTo evaluates the upper triangle of K_MM into d (M×M, row-major;
// entries below the diagonal are left unspecified), in blocks of kmmRows
// rows on all cores, the chunks balanced by the entries they evaluate.
func (st *setup) kmmUpperTo(d []float64) {
	m := st.m
	prefix := make([]int, m+1)
	for i := range m {
		prefix[i+1] = prefix[i] + m - i
	}
	parallel.Balanced(prefix, 2*gemm.MR*m, func(lo, hi int) {
		for r0 := lo; r0 < hi; r0 += kmmRows {
			r1 := min(r0+kmmRows, hi)
			st.kmm.UpperRowsTo(mat.NewDense(r1-r0, m, d[r0*m:r1*m]), r0, r1)
		}
	})
}

// raise multiplies ε by ten after a numerical failure (described by why),
// or returns an error once ε would exceed maxJitter.
func (st *setup) raise(why string) error {
	next := st.jitter * 10
	if p := math.Pow10(int(math.Round(math.Log10(next)))); math.Abs(p-next) <= 1e-12*next {
		next = p // keep powers of ten exact
	}
	if next > maxJitter*(1+1e-12) {
		return fmt.Errorf("krr: %s even with jitter ε=%g in K_MM + εMI: the kernel matrix of the %d centres is numerically singular for λ=%g (centres too close for the kernel width?); increase Lambda or use fewer centres", why, st.jitter, st.m, st.lambda)
	}
	st.jitter = next
	st.raised++
	return nil
}

// refactor raises ε after a failure of the preconditioned system (why) and
// recomputes T.
func (st *setup) refactor(why string) error {
	if err := st.raise(why); err != nil {
		return err
	}
	return st.factor()
}

// distinctRows returns the indices of idx whose rows of x differ from the
// rows of all earlier indices, and the others: a duplicate centre adds
// nothing to the span of the k(·, c_j) and makes K_MM singular.
func distinctRows(x *mat.Dense, idx []int) (kept, dropped []int) {
	seen := make(map[uint64][]int, len(idx))
	kept = make([]int, 0, len(idx))
	for _, i := range idx {
		row := x.RawRowView(i)
		key := rowHash(row)
		dup := false
		for _, j := range seen[key] {
			if slices.Equal(row, x.RawRowView(j)) {
				dup = true
				break
			}
		}
		if dup {
			dropped = append(dropped, i)
			continue
		}
		seen[key] = append(seen[key], i)
		kept = append(kept, i)
	}
	return kept, dropped
}

// rowHash is FNV-1a over the 64-bit words of the row's values (−0 taken as
// +0, the same point), a word at a time: rows equal as floats hash equal.
// (hash/fnv byte by byte through its interface took 10 ms for FALKON's
// 1000 centres of 784 values, as long as its K_MM.)
func rowHash(row []float64) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for _, v := range row {
		if v == 0 {
			v = 0
		}
		h = (h ^ math.Float64bits(v)) * prime
	}
	return h
}

// Nystrom is Nyström kernel ridge regression solved directly, through the
// well-conditioned system of FALKON's preconditioner (see the package
// documentation). Memory O(nd + M²); time O(nMd + nM² + M³).
type Nystrom struct {
	// Kernel is required.
	Kernel kernel.Kernel
	// Lambda is the ridge parameter λ > 0.
	Lambda float64
	// Centres chooses the M centres; the zero value draws min(n, 1000)
	// uniformly with seed 0.
	Centres Centres
	// Jitter is ε in K_MM + εMI; 0 means DefaultJitter, raised tenfold (up
	// to 1e-4) while K_MM + εMI or the preconditioned system does not
	// factor (JitterUsed and JitterRaises report it).
	Jitter float64
	// Precision of the kernel inner products; the zero value is Float64.
	Precision kernel.Precision
	// BlockRows is the number of rows of K_nM evaluated at once; 0 means
	// kernel.DefaultBlockRows.
	BlockRows int

	fit     expansion
	idx     []int
	dropped []int
	jitter  float64
	raised  int
}

// Validate reports a hyperparameter outside its valid range (the data
// dependent ones, such as M ≤ n, are checked by Fit).
func (s *Nystrom) Validate() error {
	if err := checkKernel(s.Kernel); err != nil {
		return err
	}
	if err := checkLambda(s.Lambda); err != nil {
		return err
	}
	if s.Centres.M < 0 {
		return fmt.Errorf("krr: M=%d is invalid: it must be ≥ 1 (0 means min(n, %d))", s.Centres.M, DefaultM)
	}
	return nil
}

// FitTargets computes α = T^{−1} S^{−1} T^{−T} K_nMᵀY/n.
func (s *Nystrom) FitTargets(ctx context.Context, x, y *mat.Dense) error {
	if err := s.Validate(); err != nil {
		return err
	}
	st, err := prepare(ctx, s.Kernel, s.Lambda, s.Centres, s.Jitter, s.Precision, s.BlockRows, x, y)
	if err != nil {
		return err
	}
	g, kty, err := st.normal(ctx, y)
	if err != nil {
		return fmt.Errorf("krr: %w", err)
	}
	for {
		alpha, ok := s.solve(st, g, kty)
		if ok {
			s.fit = expansion{k: s.Kernel, centres: st.centres, alpha: alpha, prec: s.Precision, blockRows: s.BlockRows}
			s.idx, s.dropped, s.jitter, s.raised = st.idx, st.dropped, st.jitter, st.raised
			return nil
		}
		if err := st.refactor(fmt.Sprintf("Nystrom: the preconditioned system T^{-T}K_nMᵀK_nM T^{-1}/n + λI (λ=%v) is not numerically positive definite", s.Lambda)); err != nil {
			return err
		}
	}
}

// solve computes α = T^{-1} S^{-1} T^{-T} K_nMᵀY/n, or false when S is not
// numerically positive definite.
func (s *Nystrom) solve(st *setup, g *mat.SymDense, kty *mat.Dense) (*mat.Dense, bool) {
	m, nf := st.m, float64(st.n)
	// S = T^{-T} G T^{-1} / n + λI
	w := mat.DenseCopyOf(g)
	dense.TriSolve(st.t, true, w) // W = T^{-T} G
	// W T^{-1} = (T^{-T} Wᵀ)ᵀ; only its symmetric part is used below
	sd := mat.DenseCopyOf(w.T())
	dense.TriSolve(st.t, true, sd)
	raw := sd.RawMatrix()
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			raw.Data[i*raw.Stride+j] = (raw.Data[i*raw.Stride+j] + raw.Data[j*raw.Stride+i]) / (2 * nf)
		}
		raw.Data[i*raw.Stride+i] += s.Lambda
	}
	r, ok := dense.CholeskyInPlace(raw.Data, m)
	if !ok {
		return nil, false
	}
	alpha := mat.DenseCopyOf(kty)
	alpha.Scale(1/nf, alpha)
	dense.TriSolve(st.t, true, alpha)
	dense.TriSolve(r, true, alpha) // S^{-1} = R^{-1}R^{-T}
	dense.TriSolve(r, false, alpha)
	dense.TriSolve(st.t, false, alpha)
	return alpha, true
}

// PredictTargets returns f(x) for each row of x.
func (s *Nystrom) PredictTargets(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	return s.fit.predict(ctx, x)
}

// CentreIndices returns the rows of the training X used as centres.
func (s *Nystrom) CentreIndices() []int { return s.idx }

// Coefficients returns α (M×c), or nil before Fit.
func (s *Nystrom) Coefficients() *mat.Dense { return s.fit.alpha }

// JitterUsed returns the ε of the last fit.
func (s *Nystrom) JitterUsed() float64 { return s.jitter }

// JitterRaises returns how many times the last fit multiplied ε by ten
// because K_MM + εMI or the preconditioned system was numerically singular.
func (s *Nystrom) JitterRaises() int { return s.raised }

// DroppedCentres returns the rows of X that the sampler chose as centres
// but that equal an earlier centre (they were left out: a duplicate adds
// nothing to the model and makes K_MM singular).
func (s *Nystrom) DroppedCentres() []int { return s.dropped }
