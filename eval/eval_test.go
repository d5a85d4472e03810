package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

const tol = 1e-12 // sums of a few dozen terms of order one

func TestAccuracyAndConfusion(t *testing.T) {
	truth := []int{0, 1, 2, -1, 1, 0}
	pred := []int{0, 2, 2, 1, 1, 1}
	acc, err := Accuracy(pred, truth, nil)
	require.NoError(t, err)
	assert.InDelta(t, 3.0/5, acc, tol) // the unknown label is not scored
	acc, err = Accuracy(pred, truth, []int{0, 1, 3})
	require.NoError(t, err)
	assert.InDelta(t, 0.5, acc, tol)
	m, err := Confusion(pred, truth, nil, 3)
	require.NoError(t, err)
	assert.Equal(t, [][]int{{1, 1, 0}, {0, 1, 1}, {0, 0, 1}}, m)
	_, err = Accuracy(pred, truth, []int{3})
	assert.ErrorContains(t, err, "empty set")
	_, err = Accuracy(pred, truth, []int{9})
	assert.ErrorContains(t, err, "index 9 out of range")
	_, err = Accuracy(pred[:2], truth, nil)
	assert.ErrorContains(t, err, "2 predictions for 6 labels")
	_, err = Confusion([]int{5}, []int{0}, nil, 3)
	assert.ErrorContains(t, err, "outside [0, 3)")
}

func TestMacroF1MatchesScikitLearnExample(t *testing.T) {
	// sklearn.metrics.f1_score documentation example: average='macro' gives 0.2666….
	f1, err := MacroF1([]int{0, 2, 1, 0, 0, 1}, []int{0, 1, 2, 0, 1, 2}, nil, 3)
	require.NoError(t, err)
	assert.InDelta(t, 0.26666666666666666, f1, tol)
}

// pairARI is the pair-counting form 2(ad − bc)/((a+b)(b+d) + (a+c)(c+d)),
// computed over all O(n²) pairs: an independent reference.
func pairARI(x, y []int) float64 {
	var a, b, c, d float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			sx, sy := x[i] == x[j], y[i] == y[j]
			switch {
			case sx && sy:
				a++
			case sx:
				b++
			case sy:
				c++
			default:
				d++
			}
		}
	}
	return 2 * (a*d - b*c) / ((a+b)*(b+d) + (a+c)*(c+d))
}

func TestAdjustedRandIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 2 + rng.IntN(60)
		x, y := make([]int, n), make([]int, n)
		kx, ky := 1+rng.IntN(5), 1+rng.IntN(5)
		for i := range x {
			x[i], y[i] = rng.IntN(kx), rng.IntN(ky)
			if rng.IntN(3) == 0 {
				y[i] = x[i]
			}
		}
		got, err := AdjustedRandIndex(x, y)
		require.NoError(t, err)
		want := pairARI(x, y)
		if math.IsNaN(want) { // both partitions trivial
			continue
		}
		assert.InDelta(t, want, got, 1e-10)
	}
	// Relabelling does not matter; sklearn's documented examples.
	v, _ := AdjustedRandIndex([]int{0, 0, 1, 1}, []int{1, 1, 0, 0})
	assert.InDelta(t, 1, v, tol)
	v, _ = AdjustedRandIndex([]int{0, 0, 0, 0}, []int{0, 1, 2, 3})
	assert.InDelta(t, 0, v, tol)
	v, _ = AdjustedRandIndex([]int{0, 0, 1, 2}, []int{0, 0, 1, 1})
	assert.InDelta(t, 0.5714285714285714, v, tol)
	_, err := AdjustedRandIndex([]int{0}, []int{0, 1})
	assert.ErrorContains(t, err, "1 and 2 items")
}

func TestRMSEAndNLL(t *testing.T) {
	r, err := RMSE([]float64{1, 2, 3}, []float64{1, 0, 3})
	require.NoError(t, err)
	assert.InDelta(t, math.Sqrt(4.0/3), r, tol)
	mean := []float64{0, 1, -2}
	vari := []float64{1, 0.25, 4}
	y := []float64{0.5, 1.5, 0}
	got, err := GaussianNLL(mean, vari, y)
	require.NoError(t, err)
	var want float64
	for i := range y {
		want -= distuv.Normal{Mu: mean[i], Sigma: math.Sqrt(vari[i])}.LogProb(y[i])
	}
	assert.InDelta(t, want/3, got, tol)
	_, err = GaussianNLL(mean, []float64{1, 0, 1}, y)
	assert.ErrorContains(t, err, "variance 1 is 0")
}

func TestMeanStdAndArgmax(t *testing.T) {
	m, s := MeanStd([]float64{1, 2, 3, 4})
	assert.InDelta(t, 2.5, m, tol)
	assert.InDelta(t, math.Sqrt(1.25), s, tol)
	assert.Equal(t, []int{1, 0}, Argmax([]float64{0, 3, 1, 5, 5, 2}, 3))
}

func TestRandomPerClass(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	labels := make([]int, 1000)
	for i := range labels {
		labels[i] = rng.IntN(5)
		if i%50 == 0 {
			labels[i] = -1
		}
	}
	s, err := RandomPerClass(labels, 20, 300, 400, 7)
	require.NoError(t, err)
	per := make([]int, 5)
	seen := map[int]bool{}
	for _, part := range [][]int{s.Train, s.Val, s.Test} {
		for _, i := range part {
			assert.False(t, seen[i], "item %d in two parts", i)
			seen[i] = true
			assert.GreaterOrEqual(t, labels[i], 0)
		}
	}
	for _, i := range s.Train {
		per[labels[i]]++
	}
	assert.Equal(t, []int{20, 20, 20, 20, 20}, per)
	assert.Len(t, s.Val, 300)
	assert.Len(t, s.Test, 400)
	again, _ := RandomPerClass(labels, 20, 300, 400, 7)
	assert.Equal(t, s, again)
	other, _ := RandomPerClass(labels, 20, 300, 400, 8)
	assert.NotEqual(t, s.Train, other.Train)
	_, err = RandomPerClass(labels, 500, 0, 0, 1)
	assert.ErrorContains(t, err, "fewer than perClass=500")
	_, err = RandomPerClass(labels, 20, 900, 100, 1)
	assert.ErrorContains(t, err, "exceed")
}

func TestStratifiedFolds(t *testing.T) {
	labels := make([]int, 103)
	for i := range labels {
		labels[i] = i % 3
		if i < 40 {
			labels[i] = 0
		}
	}
	labels[5] = -1
	fold, err := StratifiedFolds(labels, 10, 1)
	require.NoError(t, err)
	assert.Equal(t, -1, fold[5])
	count := make([][]int, 3)
	for c := range count {
		count[c] = make([]int, 10)
	}
	for i, f := range fold {
		if labels[i] >= 0 {
			count[labels[i]][f]++
		}
	}
	for c := range count {
		lo, hi := count[c][0], count[c][0]
		for _, v := range count[c] {
			lo, hi = min(lo, v), max(hi, v)
		}
		assert.LessOrEqual(t, hi-lo, 1, "class %d unevenly spread: %v", c, count[c])
	}
	train, test := FoldSplit(fold, 3)
	assert.Equal(t, 102, len(train)+len(test))
	_, err = StratifiedFolds(labels, 1, 1)
	assert.ErrorContains(t, err, "k=1 must be in [2, 102]")
}

func TestSeedRange(t *testing.T) {
	assert.Equal(t, []uint64{5, 6, 7}, SeedRange(uint64(5), 3))
	assert.Equal(t, []int{2, 3}, SeedRange(2, 2))
	assert.Empty(t, SeedRange(5, 0))
}

func TestSplitParts(t *testing.T) {
	s := Split{Train: []int{0, 3}, Val: []int{1}, Test: []int{4, 9}}
	assert.Equal(t, []string{"train", "val", "", "train", "test"}, s.Parts(5))
}

// TestSplitTrainingLabels: the labels of the training nodes kept, every
// other node (val, test, unlabelled) −1, truth untouched.
func TestSplitTrainingLabels(t *testing.T) {
	truth := []int{2, 0, 1, -1, 1, 0}
	sp := Split{Train: []int{4, 0}, Val: []int{1}, Test: []int{2, 5}}
	assert.Equal(t, []int{2, -1, -1, -1, 1, -1}, sp.TrainingLabels(truth))
	assert.Equal(t, []int{2, 0, 1, -1, 1, 0}, truth)
	assert.Equal(t, []int{-1, -1}, Split{}.TrainingLabels([]int{0, 1}))
}
