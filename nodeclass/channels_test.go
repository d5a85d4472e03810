package nodeclass

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
)

// randomGraph is a weighted graph with a self loop and an isolated node.
func randomGraph(t *testing.T, n int, rng *rand.Rand) *graph.CSR {
	var edges []graph.Edge
	for u := 0; u < n-1; u++ {
		for v := u; v < n-1; v++ {
			if rng.Float64() < 0.3 || v == u+1 {
				edges = append(edges, graph.Edge{U: u, V: v, W: 0.5 + rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestChannelsDense checks Channels against the dense formula: S = D⁻¹A
// from the dense adjacency with its diagonal removed, then the blocks
// [X, SX, S²X, SY, S²Y − diag(S²)Y, log(1 + d)] scaled channel by channel,
// and checks that no training node's own label reaches its row.
func TestChannelsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, d, c := 12, 3, 3
	g := randomGraph(t, n, rng)
	x := mat.NewDense(n, d, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	labels := []int{0, -1, 2, 1, -1, 0, 2, -1, 1, -1, 0, -1}
	got, err := Channels(context.Background(), g, Features{Dense: x}, labels, c)
	if err != nil {
		t.Fatal(err)
	}
	a := g.Dense()
	s := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		mass := 0.0
		for j := 0; j < n; j++ {
			if j != i {
				mass += a.At(i, j)
			}
		}
		for j := 0; j < n; j++ {
			if j != i && mass > 0 {
				s.Set(i, j, a.At(i, j)/mass)
			}
		}
	}
	y := mat.NewDense(n, c, nil)
	for i, k := range labels {
		if k >= 0 {
			y.Set(i, k, 1)
		}
	}
	var sx, ssx, sy, s2, s2y mat.Dense
	sx.Mul(s, x)
	ssx.Mul(s, &sx)
	sy.Mul(s, y)
	s2.Mul(s, s)
	s2y.Mul(&s2, y)
	width := 3*d + 2*c + 1
	want := mat.NewDense(n, width, nil)
	for i := 0; i < n; i++ {
		row := append(append(append(append([]float64(nil), x.RawRowView(i)...), sx.RawRowView(i)...), ssx.RawRowView(i)...), sy.RawRowView(i)...)
		for k := 0; k < c; k++ {
			row = append(row, s2y.At(i, k)-s2.At(i, i)*y.At(i, k))
		}
		deg := 0.0
		for j := 0; j < n; j++ {
			if j != i {
				deg += a.At(i, j)
			}
		}
		want.SetRow(i, append(row, math.Log1p(deg)))
	}
	// The two-hop label block is S²Y with S's diagonal-free square: a
	// node's own label reaches it only through S²'s diagonal, which the
	// channel leaves out. Flipping one training label must not move that
	// node's two-hop entries (before standardisation).
	raw := mat.DenseCopyOf(want)
	// The scaling, column statistics by hand: each feature channel centred
	// and divided by the root of its mean squared row norm; the label and
	// degree columns standardised, then divided by √(2c+1).
	labelScale := 1 / math.Sqrt(float64(2*c+1))
	for lo, w := range map[int]int{0: d, d: d, 2 * d: d, 3 * d: 2*c + 1} {
		total := 0.0
		for j := lo; j < lo+w; j++ {
			col := mat.Col(nil, j, want)
			mean, sd := 0.0, 0.0
			for _, v := range col {
				mean += v / float64(n)
			}
			for i, v := range col {
				want.Set(i, j, v-mean)
				sd += (v - mean) * (v - mean) / float64(n)
			}
			total += sd
			if lo == 3*d {
				for i := range col {
					if sd > 0 {
						want.Set(i, j, want.At(i, j)/math.Sqrt(sd)*labelScale)
					} else {
						want.Set(i, j, 0)
					}
				}
			}
		}
		if lo < 3*d {
			for j := lo; j < lo+w; j++ {
				for i := 0; i < n; i++ {
					want.Set(i, j, want.At(i, j)/math.Sqrt(total))
				}
			}
		}
	}
	if !mat.EqualApprox(got, want, 1e-12) {
		t.Errorf("channels\n%v\nwant\n%v", mat.Formatted(got), mat.Formatted(want))
	}
	flipped := append([]int(nil), labels...)
	flipped[0] = 1
	yf := mat.NewDense(n, c, nil)
	for i, k := range flipped {
		if k >= 0 {
			yf.Set(i, k, 1)
		}
	}
	var s2yf mat.Dense
	s2yf.Mul(&s2, yf)
	for k := 0; k < c; k++ {
		own := s2yf.At(0, k) - s2.At(0, 0)*yf.At(0, k)
		if math.Abs(own-raw.At(0, 3*d+c+k)) > 1e-12 {
			t.Errorf("node 0's two-hop label entry %d moves with its own label: %v → %v", k, raw.At(0, 3*d+c+k), own)
		}
	}
	if s2.At(0, 0) == 0 {
		t.Error("the test graph gives node 0 no returning two-step walk: the leak check checks nothing")
	}
	if _, err := Channels(context.Background(), g, Features{Dense: x}, append(labels[:n-1:n-1], 5), c); err == nil {
		t.Error("a label beyond the classes was accepted")
	}
}

// TestReduceMatchesSVD checks Reduce against gonum's full SVD on rows of
// exact rank k (where the randomized range finder is exact): Z Zᵀ = X Xᵀ
// and Z's column norms are the top singular values; sparse and dense rows
// give the same Z.
func TestReduceMatchesSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, d, k := 40, 30, 4
	l := mat.NewDense(n, k, nil)
	r := mat.NewDense(k, d, nil)
	for i := range l.RawMatrix().Data {
		l.RawMatrix().Data[i] = rng.NormFloat64()
	}
	for i := range r.RawMatrix().Data {
		r.RawMatrix().Data[i] = rng.NormFloat64()
	}
	var x mat.Dense
	x.Mul(l, r)
	z, err := Reduce(context.Background(), Features{Dense: &x}, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	var zz, xx mat.Dense
	zz.Mul(z, z.T())
	xx.Mul(&x, x.T())
	if !mat.EqualApprox(&zz, &xx, 1e-8*mat.Norm(&xx, 2)) {
		t.Error("Z Zᵀ differs from X Xᵀ")
	}
	var svd mat.SVD
	svd.Factorize(&x, mat.SVDNone)
	sv := svd.Values(nil)
	for j := 0; j < k; j++ {
		if got := mat.Norm(z.ColView(j), 2); math.Abs(got-sv[j]) > 1e-8*sv[0] {
			t.Errorf("column %d has norm %v, singular value %v", j, got, sv[j])
		}
	}
	sp := &loaders.Sparse{Rows: n, Cols: d, Indptr: make([]int, n+1)}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			sp.Indices = append(sp.Indices, int32(j))
			sp.Values = append(sp.Values, x.At(i, j))
		}
		sp.Indptr[i+1] = len(sp.Indices)
	}
	zs, err := Reduce(context.Background(), Features{Sparse: sp}, k, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.EqualApprox(zs, z, 1e-9*sv[0]) {
		t.Error("sparse and dense rows reduce differently")
	}
}
