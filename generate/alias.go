package generate

import "math/rand/v2"

// aliasTable samples index k with probability w_k/Σw in O(1) (A. J. Walker,
// "An efficient method for generating discrete random variables with
// general distributions", ACM TOMS 3(3), 1977, in M. D. Vose's O(n) build,
// IEEE TSE 17(9), 1991).
type aliasTable struct {
	prob  []float64
	alias []int32
}

// buildAlias fills prob and alias (len(w) each) for the weights w, all
// ≥ 0 with a positive sum. small and large are scratch of len(w) or more.
func buildAlias(prob []float64, alias []int32, w []float64, small, large []int32) {
	n := len(w)
	var sum float64
	for _, v := range w {
		sum += v
	}
	small, large = small[:0], large[:0]
	for k, v := range w {
		prob[k] = v * float64(n) / sum
		alias[k] = int32(k)
		if prob[k] < 1 {
			small = append(small, int32(k))
		} else {
			large = append(large, int32(k))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s := small[len(small)-1]
		small = small[:len(small)-1]
		l := large[len(large)-1]
		alias[s] = l
		prob[l] -= 1 - prob[s]
		if prob[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	// Rounding leaves entries whose probability should be exactly 1.
	for _, k := range large {
		prob[k] = 1
	}
	for _, k := range small {
		prob[k] = 1
	}
}

func newAlias(w []float64) *aliasTable {
	t := &aliasTable{prob: make([]float64, len(w)), alias: make([]int32, len(w))}
	buildAlias(t.prob, t.alias, w, make([]int32, 0, len(w)), make([]int32, 0, len(w)))
	return t
}

// sample draws one index.
func sampleAlias(prob []float64, alias []int32, rng *rand.Rand) int32 {
	k := int32(rng.IntN(len(prob)))
	if rng.Float64() < prob[k] {
		return k
	}
	return alias[k]
}

func (t *aliasTable) sample(rng *rand.Rand) int32 { return sampleAlias(t.prob, t.alias, rng) }
