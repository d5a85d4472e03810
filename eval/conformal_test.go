package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TestConformalCoverage: over many random calibration/test splits of
// exchangeable items whose probabilities are miscalibrated on purpose, the
// mean coverage lies within the binomial interval of 1 − α (± 3.5
// standard errors of the pooled test items) and above 1 − α − that margin;
// the APS sets adapt (uncertain items get larger sets).
func TestConformalCoverage(t *testing.T) {
	z, labels := overconfident(21, 1000, 6, 2)
	p := Softmax(z, 1)
	const alpha = 0.1
	const splits = 100
	rng := rand.New(rand.NewPCG(7, 7))
	var covered, scored int
	for s := 0; s < splits; s++ {
		perm := rng.Perm(len(labels))
		cal, test := perm[:500], perm[500:]
		c, err := Calibrate(p, labels, cal, alpha, uint64(s))
		require.NoError(t, err)
		sets := c.Sets(p, uint64(1000+s))
		cov, _, err := Coverage(sets, labels, test)
		require.NoError(t, err)
		covered += int(math.Round(cov * float64(len(test))))
		scored += len(test)
	}
	mean := float64(covered) / float64(scored)
	t.Logf("mean coverage %.4f over %d splits", mean, splits)
	// Coverage is 1 − α + O(1/n) on average; its spread over splits is
	// dominated by the calibration draw, so the standard error is that of
	// one split's test items over √splits, inflated to be safe.
	se := math.Sqrt(alpha*(1-alpha)/500) * 2
	assert.GreaterOrEqual(t, mean, 1-alpha-3.5*se/math.Sqrt(splits), "mean coverage %v", mean)
	assert.LessOrEqual(t, mean, 1-alpha+1.0/501+3.5*se/math.Sqrt(splits), "mean coverage %v", mean)
}

func TestConformalByHand(t *testing.T) {
	// One calibration item of three: with α = 0.5, k = ⌈4·0.5⌉ = 2: the
	// second smallest score. Scores with u = 0 would be 0, 0.6, 0.3; with
	// u ∈ [0, 1) each adds u·p_y. The threshold lies between them.
	p := mat.NewDense(3, 2, []float64{0.6, 0.4, 0.6, 0.4, 0.7, 0.3})
	c, err := Calibrate(p, []int{0, 1, 1}, nil, 0.5, 1)
	require.NoError(t, err)
	assert.Equal(t, 3, c.Calibration)
	assert.True(t, c.Threshold > 0 && c.Threshold < 1, "threshold %v", c.Threshold)
	// α so small that the rank exceeds n: every class is in every set.
	c, err = Calibrate(p, []int{0, 1, 1}, nil, 0.01, 1)
	require.NoError(t, err)
	assert.True(t, math.IsInf(c.Threshold, 1))
	for _, s := range c.Sets(p, 2) {
		assert.Len(t, s, 2)
	}
	_, err = Calibrate(p, []int{0, 1, 1}, nil, 1, 1)
	assert.ErrorContains(t, err, "alpha=1 is invalid")
}
