package propagate

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// PPRRowsSeries returns, for each a of alphas, the rows at the listed
// nodes of the PPR of X, (1 − a)(I − aS)^{-1} X, from the Chebyshev series
// of the resolvent (doc.go, Chebyshev series) truncated where its error
// bound falls below tol: one sequence of products T_k(S)·E_R serves every
// a, so the cost is the products of the slowest a (the largest), not their
// sum. A result depends only on its own a, tol and the data, not on the
// other alphas, so one a alone gives bitwise the same rows. It also returns
// the number of block products.
func PPRRowsSeries(ctx context.Context, s *Adjacency, x Features, alphas []float64, rows []int, tol float64) ([]*mat.Dense, int, error) {
	if err := x.check(s.Dim()); err != nil {
		return nil, 0, err
	}
	if !(tol > 0 && tol < 1) {
		return nil, 0, fmt.Errorf("propagate: Tol = %v is invalid: it must be inside the open interval (0, 1)", tol)
	}
	terms := make([]int, len(alphas))
	coef := make([]float64, len(alphas)) // c₀ = (1 − a)/√(1 − a²)
	ratio := make([]float64, len(alphas))
	last := 0
	for j, a := range alphas {
		if !(a > 0 && a < 1) {
			return nil, 0, fmt.Errorf("propagate: a = %v is invalid: it must be inside the open interval (0, 1)", a)
		}
		terms[j], coef[j], ratio[j] = SeriesTerms(a, tol)
		last = max(last, terms[j])
	}
	e, err := unitColumns(s.Dim(), rows)
	if err != nil {
		return nil, 0, err
	}
	n, m := e.Dims()
	acc := make([]*mat.Dense, len(alphas))
	weight := make([]float64, len(alphas)) // 2c₀rᵏ of the current k
	for j := range alphas {
		acc[j] = mat.NewDense(n, m, nil)
		acc[j].Scale(coef[j], e) // c₀·T₀
		weight[j] = 2 * coef[j]
	}
	// T₀ = E, T₁ = S·E, T_{k+1} = 2S·T_k − T_{k−1}; acc += 2c₀rᵏ·T_k.
	prev, cur := e, mat.NewDense(n, m, nil)
	next := mat.NewDense(n, m, nil)
	products := 0
	for k := 1; k <= last; k++ {
		if err := ctx.Err(); err != nil {
			return nil, products, fmt.Errorf("propagate: PPR series stopped after %d products: %w", products, err)
		}
		if k == 1 {
			s.MulBlockTo(cur, e)
		} else {
			s.MulBlockTo(next, cur)
		}
		products++
		for j := range alphas {
			weight[j] *= ratio[j]
		}
		pd, cd, nd := prev.RawMatrix().Data, cur.RawMatrix().Data, next.RawMatrix().Data
		parallel.For(n, 64, func(lo, hi int) {
			t := cd[lo*m : hi*m]
			if k > 1 {
				t = nd[lo*m : hi*m]
				for i, q := range t {
					t[i] = 2*q - pd[lo*m+i]
				}
			}
			for j := range alphas {
				if k > terms[j] {
					continue
				}
				ad, w := acc[j].RawMatrix().Data[lo*m:hi*m], weight[j]
				for i, v := range t {
					ad[i] += w * v
				}
			}
		})
		if k > 1 {
			prev, cur, next = cur, next, prev
		}
	}
	out := make([]*mat.Dense, len(alphas))
	for j := range alphas {
		out[j] = x.TMul(acc[j])
	}
	return out, products, nil
}

// SeriesTerms returns the number of terms K of the Chebyshev series of the
// PPR operator with weight a that PPRRowsSeries keeps for tolerance tol,
// with the series' c₀ = (1 − a)/√(1 − a²) and ratio r = a/(1 + √(1 − a²)):
// the least K with 2c₀·r^{K+1}/(1 − r) ≤ tol, a bound on the 2-norm of
// the truncation error (the operator itself has norm 1).
func SeriesTerms(a, tol float64) (k int, c0, r float64) {
	q := math.Sqrt(1 - a*a)
	c0, r = (1-a)/q, a/(1+q)
	bound := 2 * c0 * r / (1 - r) // the error bound with no term past T₀
	for bound > tol {
		bound *= r
		k++
	}
	return k, c0, r
}
