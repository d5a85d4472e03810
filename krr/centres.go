package krr

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/dense"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/kernel"
)

// Sampler chooses the Nyström centres: m distinct row indices of x, sorted.
type Sampler interface {
	Centres(ctx context.Context, k kernel.Kernel, x *mat.Dense, m int, lambda float64, rng *rand.Rand) ([]int, error)
}

// Uniform draws m rows uniformly without replacement.
type Uniform struct{}

// Centres implements Sampler.
func (Uniform) Centres(_ context.Context, _ kernel.Kernel, x *mat.Dense, m int, _ float64, rng *rand.Rand) ([]int, error) {
	n, _ := x.Dims()
	if m < 1 || m > n {
		return nil, fmt.Errorf("krr: M=%d is invalid: it must be in [1, n=%d]", m, n)
	}
	idx := rng.Perm(n)[:m]
	sort.Ints(idx)
	return idx, nil
}

// Fixed is a given list of centre indices (for instance read from a file
// written by another tool). They must be distinct and inside [0, n).
type Fixed []int

// Centres returns a sorted copy of f after checking it.
func (f Fixed) Centres(_ context.Context, _ kernel.Kernel, x *mat.Dense, m int, _ float64, _ *rand.Rand) ([]int, error) {
	n, _ := x.Dims()
	if m != len(f) {
		return nil, fmt.Errorf("krr: M=%d but %d fixed centres were given", m, len(f))
	}
	idx := append([]int(nil), f...)
	sort.Ints(idx)
	for i, v := range idx {
		if v < 0 || v >= n {
			return nil, fmt.Errorf("krr: fixed centre index %d is outside [0, n=%d)", v, n)
		}
		if i > 0 && idx[i-1] == v {
			return nil, fmt.Errorf("krr: fixed centre index %d appears twice", v)
		}
	}
	return idx, nil
}

// Leverage draws m rows without replacement with probabilities proportional
// to approximate ridge leverage scores
//
//	ℓ_i(λ) ≈ (k(x_i, x_i) − k_iJ (K_JJ + nλI)^{−1} k_Ji) / (nλ)
//
// computed from a uniform pilot set J (Rudi, Calandriello, Carratino &
// Rosasco 2018, eq. 4). Cost: O(n·|J|·d + |J|³) time, O(nd + |J|²) memory.
// The preconditioner is the one of uniform sampling (no reweighting), as in
// the FALKON library's practical variant; at convergence the estimator is
// the Nyström solution on the chosen centres.
type Leverage struct {
	// Pilot is the size of the pilot set J; 0 means min(n, max(2M, 100)).
	Pilot int
	// Precision of the kernel evaluations; the zero value is Float64.
	Precision kernel.Precision
}

// Centres implements Sampler.
func (l Leverage) Centres(ctx context.Context, k kernel.Kernel, x *mat.Dense, m int, lambda float64, rng *rand.Rand) ([]int, error) {
	n, _ := x.Dims()
	if m < 1 || m > n {
		return nil, fmt.Errorf("krr: M=%d is invalid: it must be in [1, n=%d]", m, n)
	}
	p := l.Pilot
	if p < 0 || p > n {
		return nil, fmt.Errorf("krr: Leverage Pilot=%d is invalid: it must be in [0, n=%d] (0 means min(n, max(2M, 100)))", p, n)
	}
	if p == 0 {
		p = min(n, max(2*m, 100))
	}
	scores, err := LeverageScores(ctx, k, x, rng.Perm(n)[:p], lambda, l.Precision)
	if err != nil {
		return nil, err
	}
	// Efraimidis–Spirakis weighted sampling without replacement: the m
	// largest keys log(u)/w.
	type kv struct {
		key float64
		i   int
	}
	keys := make([]kv, n)
	for i, s := range scores {
		u := rng.Float64()
		for u == 0 {
			u = rng.Float64()
		}
		keys[i] = kv{math.Log(u) / s, i}
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a].key != keys[b].key {
			return keys[a].key > keys[b].key
		}
		return keys[a].i < keys[b].i
	})
	idx := make([]int, m)
	for j := range idx {
		idx[j] = keys[j].i
	}
	sort.Ints(idx)
	return idx, nil
}

// minScore keeps every approximate leverage score positive so that every
// point can be drawn (rounding can make k_ii − k_iJ(…)k_Ji slightly negative).
const minScore = 1e-12

// LeverageScores returns the approximate ridge leverage scores of the rows
// of x from the pilot rows J (see Leverage), each at least 1e-12.
func LeverageScores(ctx context.Context, k kernel.Kernel, x *mat.Dense, pilot []int, lambda float64, prec kernel.Precision) ([]float64, error) {
	if err := checkLambda(lambda); err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	xj := rowsOf(x, pilot)
	p := len(pilot)
	kjj, err := kernel.NewMatrix(k, xj, xj, kernel.Float64, 0)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	kd := mat.NewDense(p, p, nil)
	kjj.RowsTo(kd, 0, p)
	nl := float64(n) * lambda
	sym := mat.NewSymDense(p, nil)
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			sym.SetSym(i, j, (kd.At(i, j)+kd.At(j, i))/2)
		}
		sym.SetSym(i, i, sym.At(i, i)+nl)
	}
	u, ok := dense.Cholesky(sym)
	if !ok {
		return nil, fmt.Errorf("krr: leverage scores: K_JJ + nλI is not numerically positive definite (nλ=%v)", nl)
	}
	km, err := kernel.NewMatrix(k, x, xj, prec, 0)
	if err != nil {
		return nil, fmt.Errorf("krr: %w", err)
	}
	scores := make([]float64, n)
	br := km.BlockRows()
	nb := (n + br - 1) / br
	var cerr error
	parallel.For(nb, 1, func(lo, hi int) {
		buf := mat.NewDense(br, p, nil)
		for b := lo; b < hi; b++ {
			if ctx.Err() != nil {
				return
			}
			r0, r1 := b*br, min((b+1)*br, n)
			kb := buf.Slice(0, r1-r0, 0, p).(*mat.Dense)
			km.RowsTo(kb, r0, r1)
			// rows of kb U^{-1}: ‖U^{-T} k_Ji‖²
			blas64.Trsm(blas.Right, blas.NoTrans, 1, u.RawTriangular(), kb.RawMatrix())
			for i := r0; i < r1; i++ {
				xi := x.RawRowView(i)
				row := kb.RawRowView(i - r0)
				var s float64
				for _, v := range row {
					s += v * v
				}
				scores[i] = math.Max((k.Eval(xi, xi)-s)/nl, minScore)
			}
		}
	})
	if cerr = ctx.Err(); cerr != nil {
		return nil, fmt.Errorf("krr: leverage scores: %w", cerr)
	}
	return scores, nil
}
