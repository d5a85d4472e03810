package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// pairAUC is the AUC by its definition, over all positive–negative pairs.
func pairAUC(scores []float64, labels []int, positive int) float64 {
	var wins float64
	var pairs int
	for i := range labels {
		for j := range labels {
			if labels[i] < 0 || labels[j] < 0 || labels[i] != positive || labels[j] == positive {
				continue
			}
			pairs++
			switch {
			case scores[i] > scores[j]:
				wins++
			case scores[i] == scores[j]:
				wins += 0.5
			}
		}
	}
	return wins / float64(pairs)
}

func TestROCAUCAgainstPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(60)
		scores, labels := make([]float64, n), make([]int, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(8)) // many ties
			labels[i] = rng.IntN(3) - 1
		}
		labels[0], labels[1] = 0, 1
		got, err := ROCAUC(scores, labels, nil, 1)
		require.NoError(t, err)
		assert.InDelta(t, pairAUC(scores, labels, 1), got, 1e-12)
	}
}

func TestROCAUCByHand(t *testing.T) {
	// Positives 0.8, 0.4; negatives 0.5, 0.1: of four pairs, three won.
	got, err := ROCAUC([]float64{0.8, 0.5, 0.4, 0.1}, []int{1, 0, 1, 0}, nil, 1)
	require.NoError(t, err)
	assert.Equal(t, 0.75, got)
	_, err = ROCAUC([]float64{1, 2}, []int{1, 1}, nil, 1)
	assert.ErrorContains(t, err, "both classes")
	got, err = ROCAUC([]float64{0.8, 0.5, 0.4, 0.1}, []int{1, 0, 1, 0}, []int{0, 1}, 1)
	require.NoError(t, err)
	assert.Equal(t, 1.0, got)
}

func TestMacroROCAUC(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n, c := 40, 4
	s := mat.NewDense(n, c, nil)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % c
		for k := 0; k < c; k++ {
			s.Set(i, k, rng.Float64())
		}
	}
	want := 0.0
	for k := 0; k < c; k++ {
		want += pairAUC(mat.Col(nil, k, s), labels, k) / float64(c)
	}
	got, err := MacroROCAUC(s, labels, nil)
	require.NoError(t, err)
	assert.InDelta(t, want, got, 1e-12)
}
