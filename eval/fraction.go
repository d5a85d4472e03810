package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// RandomLabelled draws the labelled points of a transductive run: a seeded
// random subset of round(fraction·n) of the n points, fraction in (0, 1].
func RandomLabelled(n int, fraction float64, seed uint64) ([]int, error) {
	if !(fraction > 0 && fraction <= 1) {
		return nil, fmt.Errorf("eval: labelled fraction %v is invalid: it must be in (0, 1]", fraction)
	}
	m := int(math.Round(fraction * float64(n)))
	if m < 1 {
		return nil, fmt.Errorf("eval: labelled fraction %v of %d points labels no point; use at least %.3g", fraction, n, 1/float64(n))
	}
	rng := rand.New(rand.NewPCG(seed, 0x1abe1))
	return rng.Perm(n)[:m], nil
}
