package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func nll(z mat.Matrix, labels []int, t float64) float64 {
	p := Softmax(z, t)
	var s float64
	for i, l := range labels {
		s -= math.Log(p.At(i, l))
	}
	return s
}

// overconfident draws logits whose labels agree with the argmax less
// often than their softmax claims.
func overconfident(seed uint64, n, c int, scale float64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	z := mat.NewDense(n, c, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = rng.IntN(c)
		for k := 0; k < c; k++ {
			z.Set(i, k, scale*rng.NormFloat64())
		}
		z.Set(i, labels[i], z.At(i, labels[i])+scale)
	}
	return z, labels
}

// TestFitTemperatureMinimisesNLL: the fitted T is a minimum of the
// negative log-likelihood: a central finite difference of NLL at T is 0 to
// the difference's own error, and the NLL on either side is higher.
func TestFitTemperatureMinimisesNLL(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		z, labels := overconfident(seed, 300, 4, 3)
		temp, err := FitTemperature(z, labels, nil)
		require.NoError(t, err)
		require.Greater(t, temp, 1.0, "overconfident scores need T > 1")
		h := 1e-4 * temp
		assert.InDelta(t, 0, (nll(z, labels, temp+h)-nll(z, labels, temp-h))/(2*h), 1e-4*float64(len(labels)))
		assert.Greater(t, nll(z, labels, temp*1.05), nll(z, labels, temp))
		assert.Greater(t, nll(z, labels, temp/1.05), nll(z, labels, temp))
	}
}

func TestReliabilityByHand(t *testing.T) {
	// Two bins: confidences 0.9 (right), 0.8 (wrong) in (0.5, 1];
	// 0.5 (right) in (0, 0.5]. ECE = 2/3·|0.5 − 0.85| + 1/3·|1 − 0.5|.
	p := mat.NewDense(3, 2, []float64{0.9, 0.1, 0.2, 0.8, 0.5, 0.5})
	bins, ece, err := Reliability(p, []int{0, 0, 0}, nil, 2)
	require.NoError(t, err)
	assert.Equal(t, 1, bins[0].Count)
	assert.Equal(t, 2, bins[1].Count)
	assert.InDelta(t, 0.85, bins[1].Confidence, 1e-15)
	assert.InDelta(t, 2.0/3*0.35+1.0/3*0.5, ece, 1e-15)
}

// TestTemperatureLowersECE: on overconfident scores, scaling by the
// temperature fitted on one half lowers the ECE on the other.
func TestTemperatureLowersECE(t *testing.T) {
	z, labels := overconfident(11, 4000, 5, 3)
	val, test := make([]int, 0, 2000), make([]int, 0, 2000)
	for i := range labels {
		if i%2 == 0 {
			val = append(val, i)
		} else {
			test = append(test, i)
		}
	}
	temp, err := FitTemperature(z, labels, val)
	require.NoError(t, err)
	_, before, err := Reliability(Softmax(z, 1), labels, test, 0)
	require.NoError(t, err)
	_, after, err := Reliability(Softmax(z, temp), labels, test, 0)
	require.NoError(t, err)
	assert.Less(t, after, before/2)
	assert.Less(t, after, 0.03)
}

func TestCalibrationErrors(t *testing.T) {
	z := mat.NewDense(2, 2, []float64{math.NaN(), 0, 1, 0})
	_, err := FitTemperature(z, []int{0, 1}, nil)
	assert.ErrorContains(t, err, "is NaN")
	_, err = FitTemperature(mat.NewDense(2, 2, nil), []int{-1, -1}, nil)
	assert.ErrorContains(t, err, "no item with a known label")
	_, err = FitTemperature(mat.NewDense(2, 2, nil), []int{0, 1}, nil)
	assert.ErrorContains(t, err, "no information")
}
