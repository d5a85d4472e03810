package propagate

import (
	"context"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/linop"
)

// Power returns S^K X (n×d, dense), K ≥ 1 products of a with the features.
// For a sparse X the first product is taken from X's CSR arrays
// (MulSparseTo); X itself is never densified. K = 0 is refused for a sparse
// X (the result would be a dense copy of X: use Features.Rows for that
// explicitly) and returns a copy of a dense X.
func Power(ctx context.Context, a *Adjacency, x Features, k int) (*mat.Dense, error) {
	n := a.Dim()
	if err := x.check(n); err != nil {
		return nil, err
	}
	if k < 0 || (k == 0 && x.Sparse != nil) {
		return nil, fmt.Errorf("propagate: power K = %d is invalid: it must be ≥ 1 (≥ 0 for dense features)", k)
	}
	_, d := x.Dims()
	cur := mat.NewDense(n, d, nil)
	if x.Sparse != nil {
		a.MulSparseTo(cur, x.Sparse, 1)
		k--
	} else {
		cur.Copy(x.Dense)
	}
	return powerBlock(ctx, a, cur, k, nil)
}

// powerBlock applies k products of op to cur, in place when k is even,
// and hands each power to each (when not nil) as it is formed: the i-th
// product's result as each(i, power), i = 1..k.
func powerBlock(ctx context.Context, op linop.BlockOperator, cur *mat.Dense, k int, each func(i int, power *mat.Dense)) (*mat.Dense, error) {
	if k == 0 {
		return cur, nil
	}
	n, d := cur.Dims()
	next := mat.NewDense(n, d, nil)
	for i := 0; i < k; i++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("propagate: power stopped after %d products: %w", i, err)
		}
		op.MulBlockTo(next, cur)
		cur, next = next, cur
		if each != nil {
			each(i+1, cur)
		}
	}
	return cur, nil
}

// PowerBlock returns op^k B for an n×c block B (op^0 B is a copy), the
// propagation of class scores: S^K (X W) = (S^K X) W predicts SGC's
// logits with c columns instead of d.
func PowerBlock(ctx context.Context, op linop.BlockOperator, b *mat.Dense, k int) (*mat.Dense, error) {
	if k < 0 {
		return nil, fmt.Errorf("propagate: power K = %d is invalid: it must be ≥ 0", k)
	}
	if r, _ := b.Dims(); r != op.Dim() {
		return nil, fmt.Errorf("propagate: block has %d rows, the operator has dimension %d", r, op.Dim())
	}
	return powerBlock(ctx, op, mat.DenseCopyOf(b), k, nil)
}

// PowerRows returns the rows of S^K X at the listed nodes (len(rows)×d),
// by the cheapest of three routes (PowerRowsSeries): for a sparse X
// usually from walks of K sparse steps from each node (powerRowsSparse);
// else with more than half as many rows as features from K products of X's
// d columns, the last at the listed rows only; with fewer without forming
// S^K X, as (S^K X)_R = (S^K E_R)ᵀ X (S is symmetric), K products of
// len(rows) columns and one product with X.
func PowerRows(ctx context.Context, a *Adjacency, x Features, k int, rows []int) (*mat.Dense, error) {
	z, err := PowerRowsSeries(ctx, a, x, []int{k}, rows)
	if err != nil {
		return nil, err
	}
	return z[0], nil
}

// PowerRowsSeries returns the rows of S^k X at the listed nodes for each k
// of ks, from one sequence of products, j = 1..max(ks): the cost of the
// largest k, not of their sum (SGC's grid of K). For a sparse X whose
// walks cost less than the block products (sparseRowsCheaper, estimated
// at K = 2 whatever ks) each row comes from its own walk
// (powerRowsSparse). Otherwise the products are of X
// itself when d ≤ 2·len(rows) (powerRowsOfX: d columns, the last product
// at the listed rows only; the rows are then bitwise Power's), else of E_R
// (len(rows) columns), then (S^k X)_R = (S^k E_R)ᵀX. The rule holds no
// more n-row columns than E_R's two blocks for max(ks) ≤ 2 (twice as many
// for more) and takes fewer multiply-adds at K = 2: (d·len(rows)/n)
// products of S against 2·len(rows). On squirrel_filtered's 1 053
// training rows of 2 089 sparse features at K = 2 (loaded machine): 260 to
// 400 ms by E_R, 150 ms by X, 50 ms by the walks. Each result is bitwise
// PowerRows' for its k alone.
func PowerRowsSeries(ctx context.Context, a *Adjacency, x Features, ks []int, rows []int) ([]*mat.Dense, error) {
	n := a.Dim()
	if err := x.check(n); err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("propagate: no powers K requested")
	}
	for _, k := range ks {
		if k < 0 {
			return nil, fmt.Errorf("propagate: power K = %d is invalid: it must be ≥ 0", k)
		}
	}
	if x.Sparse != nil && sparseRowsCheaper(a, x.Sparse, len(rows)) {
		return powerRowsSparse(ctx, a, x.Sparse, ks, rows)
	}
	if _, d := x.Dims(); d <= 2*len(rows) {
		return powerRowsOfX(ctx, a, x, ks, rows)
	}
	cur, err := unitColumns(n, rows)
	if err != nil {
		return nil, err
	}
	out := make([]*mat.Dense, len(ks))
	take := func(j int) {
		for i, k := range ks {
			if k == j {
				out[i] = x.TMul(cur)
			}
		}
	}
	take(0)
	_, m := cur.Dims()
	var next *mat.Dense
	for j := 1; j <= slices.Max(ks); j++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("propagate: power stopped after %d products: %w", j-1, err)
		}
		if next == nil {
			next = mat.NewDense(n, m, nil)
		}
		a.MulBlockTo(next, cur)
		cur, next = next, cur
		take(j)
	}
	return out, nil
}

// powerRowsOfX is PowerRowsSeries by products of the features: S^j X (n×d,
// as Power computes it: the first product from a sparse X's CSR arrays),
// j = 1..max(ks), and the listed rows of each power asked for. The last
// product is taken at the listed rows only (Adjacency.mulRowsTo, bitwise
// the rows of the whole product). It holds up to two n×d blocks (one for
// max(ks) ≤ 2) where the products of E_R hold two n×len(rows).
func powerRowsOfX(ctx context.Context, a *Adjacency, x Features, ks, rows []int) ([]*mat.Dense, error) {
	n, d := x.Dims()
	for _, i := range rows {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("propagate: row %d is outside [0, %d)", i, n)
		}
	}
	out := make([]*mat.Dense, len(ks))
	take := func(j int, cur Features) {
		for i, k := range ks {
			if k == j {
				out[i] = cur.Rows(rows)
			}
		}
	}
	take(0, x)
	top := slices.Max(ks)
	if top == 0 {
		return out, nil
	}
	cur := mat.NewDense(n, d, nil)
	if x.Sparse != nil {
		a.MulSparseTo(cur, x.Sparse, 1)
	} else {
		a.MulBlockTo(cur, x.Dense)
	}
	take(1, Features{Dense: cur})
	if top == 1 {
		return out, nil
	}
	before, err := powerBlock(ctx, a, cur, top-2, func(i int, p *mat.Dense) { take(i+1, Features{Dense: p}) })
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("propagate: power stopped after %d products: %w", top-1, err)
	}
	last := mat.NewDense(len(rows), d, nil)
	a.mulRowsTo(last, before, rows)
	for i, k := range ks {
		if k == top {
			out[i] = last
		}
	}
	return out, nil
}
