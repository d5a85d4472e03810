package mlp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// TestGradientFiniteDifferences checks ∂L of the package doc against
// central differences of L, with and without a dropout mask and weight
// decay.
func TestGradientFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, d, h, c := 7, 4, 5, 3
	x := mat.NewDense(n, d, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.NormFloat64()
	}
	y := []int{0, 1, 2, 1, 0, 2, 2}
	for _, tc := range []struct {
		drop, lambda float64
	}{{0, 0}, {0.3, 0}, {0, 0.1}, {0.5, 0.05}} {
		p := newParams(d, h, c, rng)
		for _, s := range p.slices()[1:] { // non-zero biases too
			for i := range s {
				s[i] = 0.1 * rng.NormFloat64()
			}
		}
		w := newWork(n, h, c)
		w.drawMask(rng, tc.drop)
		g := p.zeroLike()
		lossGrad(p, x, y, w, tc.lambda, g)
		const eps = 1e-6
		for k, s := range p.slices() {
			for i := range s {
				old := s[i]
				s[i] = old + eps
				up := lossGrad(p, x, y, w, tc.lambda, nil)
				s[i] = old - eps
				down := lossGrad(p, x, y, w, tc.lambda, nil)
				s[i] = old
				fd := (up - down) / (2 * eps)
				if got := g.slices()[k][i]; math.Abs(got-fd) > 1e-6*(1+math.Abs(fd)) {
					t.Errorf("dropout %v λ %v: parameter block %d entry %d: gradient %v, finite difference %v", tc.drop, tc.lambda, k, i, got, fd)
				}
			}
		}
	}
}

// rings is two concentric rings, a problem no linear classifier solves.
func rings(n int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	x := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := range y {
		y[i] = i % 2
		r := 1 + 2*float64(y[i]) + 0.2*rng.NormFloat64()
		a := 2 * math.Pi * rng.Float64()
		x.Set(i, 0, r*math.Cos(a))
		x.Set(i, 1, r*math.Sin(a))
	}
	return x, y
}

func TestLearnsNonlinearBoundary(t *testing.T) {
	x, y := rings(300, 1)
	xt, yt := rings(200, 2)
	m := &Classifier{Hidden: 16, Dropout: Off, LearningRate: 0.05, Seed: 3}
	if err := m.Fit(context.Background(), x, y); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(context.Background(), xt)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i, k := range estimator.Argmax(p) {
		if k == yt[i] {
			right++
		}
	}
	// A linear boundary gets at most about half of the rings right.
	if acc := float64(right) / float64(len(yt)); acc < 0.95 {
		t.Errorf("test accuracy on two rings %v, want ≥ 0.95 (info %+v)", acc, m.Info())
	}
	for i := 0; i < 5; i++ {
		s := 0.0
		for j := 0; j < 2; j++ {
			s += p.At(i, j)
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("row %d probabilities sum to %v", i, s)
		}
	}
}

func TestDeterministicAndClone(t *testing.T) {
	x, y := rings(120, 4)
	m := &Classifier{Hidden: 8, Epochs: 50, Seed: 7}
	ctx := context.Background()
	if err := m.Fit(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	a, _ := m.Predict(ctx, x)
	c := m.Clone()
	if _, err := c.Predict(ctx, x); !errors.Is(err, estimator.ErrNotFitted) {
		t.Fatalf("clone predicts before fit: %v", err)
	}
	if err := c.Fit(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	b, _ := c.Predict(ctx, x)
	if !mat.Equal(a, b) {
		t.Error("two fits with one seed differ")
	}
	c.Seed = 8
	if err := c.Fit(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	if b, _ = c.Predict(ctx, x); mat.Equal(a, b) {
		t.Error("fits with different seeds are identical")
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	x, y := rings(20, 1)
	for field, m := range map[string]*Classifier{
		"Hidden": {Hidden: -1}, "Dropout": {Dropout: 1}, "WeightDecay": {WeightDecay: math.NaN()},
		"LearningRate": {LearningRate: -1}, "Epochs": {Epochs: -2}, "Patience": {Patience: -1}, "HoldOut": {HoldOut: 1},
	} {
		if err := m.Fit(ctx, x, y); err == nil || !strings.Contains(err.Error(), field+"=") {
			t.Errorf("%s: error %v does not name the field", field, err)
		}
	}
	bad := append([]int(nil), y...)
	bad[3] = -1
	if err := (&Classifier{}).Fit(ctx, x, bad); err == nil || !strings.Contains(err.Error(), "row 3") {
		t.Errorf("unknown label: %v", err)
	}
	x.Set(5, 1, math.Inf(1))
	if err := (&Classifier{}).Fit(ctx, x, y); err == nil || !strings.Contains(err.Error(), "row 5 column 1") {
		t.Errorf("infinite feature: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	x, _ = rings(20, 1)
	if err := (&Classifier{}).Fit(cctx, x, y); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fit: %v", err)
	}
}
