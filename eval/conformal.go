package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Split-conformal prediction sets with the adaptive prediction sets (APS)
// score of Romano, Sesia and Candès, "Classification with valid and
// adaptive coverage", NeurIPS 2020.
//
// For probabilities p_i and a uniform u_i, the randomised APS score of class
// y is the mass of the classes more probable than y plus a fraction u_i of
// y's own:
//
//	s(p_i, y, u_i) = Σ_{k: p_ik > p_iy} p_ik + u_i·p_iy.
//
// On n calibration items with scores s_j = s(p_j, y_j, u_j), q̂ is the
// ⌈(n+1)(1−α)⌉-th smallest score (+Inf when that rank exceeds n), and the
// set of a new item holds every class y with s(p, y, u) ≤ q̂. When the
// calibration and test items are exchangeable, the set holds the true class
// with probability at least 1 − α (and at most 1 − α + 1/(n+1) for
// continuous scores), whatever the model.

// Conformal is a calibrated split-conformal classifier of probabilities.
type Conformal struct {
	// Alpha is the miscoverage level in (0, 1): sets hold the true class
	// with probability ≥ 1 − Alpha.
	Alpha float64
	// Threshold is q̂, the calibrated bound on the APS score.
	Threshold float64
	// Calibration is the number of calibration items.
	Calibration int
}

// APSScore returns the randomised APS score s(p, y, u) of class y for one
// item's probabilities p.
func APSScore(p []float64, y int, u float64) float64 {
	var s float64
	for _, v := range p {
		if v > p[y] {
			s += v
		}
	}
	return s + u*p[y]
}

// ConformalThreshold returns q̂ of the calibration scores: their
// ⌈(n+1)(1−α)⌉-th smallest, +Inf when that rank exceeds n. It sorts scores.
func ConformalThreshold(scores []float64, alpha float64) float64 {
	slices.Sort(scores)
	n := len(scores)
	k := int(math.Ceil(float64(n+1) * (1 - alpha)))
	if k <= n {
		return scores[k-1]
	}
	return math.Inf(1)
}

// Set returns the prediction set, in decreasing probability (the first
// class on ties), of one item with probabilities p and uniform u.
func (c *Conformal) Set(p []float64, u float64) []int {
	order := make([]int, len(p))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch pa, pb := p[a], p[b]; {
		case pa > pb:
			return -1
		case pa < pb:
			return 1
		}
		return 0
	})
	var out []int
	for _, y := range order {
		if APSScore(p, y, u) <= c.Threshold {
			out = append(out, y)
		}
	}
	return out
}

// apsScore returns s(p_i, y, u).
func apsScore(p mat.Matrix, i, y int, u float64) float64 {
	_, c := p.Dims()
	py := p.At(i, y)
	var s float64
	for k := 0; k < c; k++ {
		if v := p.At(i, k); v > py {
			s += v
		}
	}
	return s + u*py
}

// Calibrate fits the threshold on the items in idx (nil = all) with a
// known label; seed draws the uniforms of the randomised score.
func Calibrate(p mat.Matrix, labels []int, idx []int, alpha float64, seed uint64) (*Conformal, error) {
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("eval: conformal: alpha=%v is invalid: it must be in the open interval (0, 1)", alpha)
	}
	rows, err := scoredRows(p, labels, idx)
	if err != nil {
		return nil, fmt.Errorf("eval: conformal: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f6e66))
	scores := make([]float64, len(rows))
	for j, i := range rows {
		scores[j] = apsScore(p, i, labels[i], rng.Float64())
	}
	return &Conformal{Alpha: alpha, Threshold: ConformalThreshold(scores, alpha), Calibration: len(rows)}, nil
}

// Sets returns the prediction set of every row of p (classes in
// decreasing probability), drawing the uniforms from seed.
func (c *Conformal) Sets(p mat.Matrix, seed uint64) [][]int {
	r, k := p.Dims()
	rng := rand.New(rand.NewPCG(seed, 0x73657473))
	out := make([][]int, r)
	order := make([]int, k)
	for i := 0; i < r; i++ {
		u := rng.Float64()
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch pa, pb := p.At(i, a), p.At(i, b); {
			case pa > pb:
				return -1
			case pa < pb:
				return 1
			}
			return 0
		})
		for _, y := range order {
			if apsScore(p, i, y, u) <= c.Threshold {
				out[i] = append(out[i], y)
			}
		}
	}
	return out
}

// Coverage returns the fraction of the items in idx with a known label
// whose set holds their class, and the mean set size over them.
func Coverage(sets [][]int, labels []int, idx []int) (coverage, size float64, err error) {
	var n, hit, total int
	visit := func(i int) {
		if labels[i] < 0 {
			return
		}
		n++
		total += len(sets[i])
		if slices.Contains(sets[i], labels[i]) {
			hit++
		}
	}
	if len(sets) != len(labels) {
		return 0, 0, fmt.Errorf("eval: coverage: %d sets for %d labels", len(sets), len(labels))
	}
	if idx == nil {
		for i := range labels {
			visit(i)
		}
	} else {
		for _, i := range idx {
			if i < 0 || i >= len(labels) {
				return 0, 0, fmt.Errorf("eval: coverage: index %d out of range [0, %d)", i, len(labels))
			}
			visit(i)
		}
	}
	if n == 0 {
		return 0, 0, fmt.Errorf("eval: coverage: no item with a known label")
	}
	return float64(hit) / float64(n), float64(total) / float64(n), nil
}
