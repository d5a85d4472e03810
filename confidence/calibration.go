package confidence

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/modelfile"
)

// DefaultAlpha is the miscoverage level of prediction sets: sets hold the
// true class with probability at least 0.9.
const DefaultAlpha = 0.1

// smoothings are the weights ε of the uniform distribution mixed into
// non-negative scores, among which Fit chooses by likelihood.
var smoothings = []float64{0, 1e-6, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.2, 0.3, 0.5}

// Calibration maps a classifier's scores to calibrated probabilities and
// prediction sets.
type Calibration struct {
	// Temperature is T > 0 of softmax(z/T).
	Temperature float64
	// Smoothing is ε in [0, 1) of z = log((1−ε)p + ε/C) for non-negative
	// scores.
	Smoothing float64
	// Logits is true when the scores are the log-scores z as they are (some
	// score was negative at fit time).
	Logits bool
	// Conformal is the prediction sets' miscoverage and threshold.
	Conformal eval.Conformal
	// Seed draws the uniforms of the randomised score: node key k has
	// Uniform(Seed, k).
	Seed uint64
}

// Uniform returns the uniform in [0, 1) of the randomised score of the
// item with key k (a node's index) under seed: the output of SplitMix64,
// so that an item's draw depends on its key only, not on the order items
// are visited in.
func Uniform(seed, key uint64) float64 {
	z := seed + (key+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// Fit fits the smoothing and temperature by the likelihood of the rows in
// idx of a classifier's scores, and the prediction sets' threshold at
// miscoverage alpha in (0, 1) on the same rows (their labels[i] ≥ 0; a
// row's key is its index). idx must not hold a node whose label the
// classifier saw.
func Fit(scores mat.Matrix, labels []int, idx []int, alpha float64, seed uint64) (*Calibration, error) {
	r, _ := scores.Dims()
	if len(labels) != r {
		return nil, fmt.Errorf("confidence: %d labels for %d rows of scores", len(labels), r)
	}
	if !(alpha > 0 && alpha < 1) {
		return nil, fmt.Errorf("confidence: alpha=%v is invalid: it must be in the open interval (0, 1)", alpha)
	}
	var rows []int
	for _, i := range idx {
		if i < 0 || i >= r {
			return nil, fmt.Errorf("confidence: calibration node %d is out of range [0, %d)", i, r)
		}
		if labels[i] >= 0 {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("confidence: none of the %d calibration nodes has a label", len(idx))
	}
	c := &Calibration{Logits: hasNegative(scores), Seed: seed}
	grid := smoothings
	if c.Logits {
		grid = []float64{0}
	}
	best := math.Inf(1)
	var z *mat.Dense
	for _, eps := range grid {
		try := &Calibration{Logits: c.Logits, Smoothing: eps}
		zt, err := try.logScores(scores)
		if err != nil {
			return nil, err
		}
		t, err := eval.FitTemperature(zt, labels, rows)
		if err != nil {
			continue // a true class of probability 0: more smoothing
		}
		if v := nll(zt, labels, rows, t); v < best {
			best, c.Smoothing, c.Temperature, z = v, eps, t, zt
		}
	}
	if z == nil {
		return nil, fmt.Errorf("confidence: no temperature fits the %d calibration nodes", len(rows))
	}
	p := eval.Softmax(z, c.Temperature)
	s := make([]float64, len(rows))
	for j, i := range rows {
		s[j] = eval.APSScore(p.RawRowView(i), labels[i], Uniform(seed, uint64(i)))
	}
	c.Conformal = eval.Conformal{Alpha: alpha, Threshold: eval.ConformalThreshold(s, alpha), Calibration: len(rows)}
	return c, nil
}

// nll is the negative log-likelihood of softmax(z/t) on rows.
func nll(z *mat.Dense, labels, rows []int, t float64) float64 {
	var s float64
	for _, i := range rows {
		row := z.RawRowView(i)
		m := math.Inf(-1)
		for _, v := range row {
			m = math.Max(m, v/t)
		}
		var e float64
		for _, v := range row {
			e += math.Exp(v/t - m)
		}
		s += m + math.Log(e) - row[labels[i]]/t
	}
	return s
}

func hasNegative(m mat.Matrix) bool {
	r, k := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < k; j++ {
			if m.At(i, j) < 0 {
				return true
			}
		}
	}
	return false
}

// logScores returns z of every row of scores.
func (c *Calibration) logScores(scores mat.Matrix) (*mat.Dense, error) {
	r, k := scores.Dims()
	z := mat.NewDense(r, k, nil)
	row := make([]float64, k)
	for i := 0; i < r; i++ {
		mat.Row(row, i, scores)
		if err := c.logRow(row, row); err != nil {
			return nil, fmt.Errorf("confidence: row %d: %w", i, err)
		}
		z.SetRow(i, row)
	}
	return z, nil
}

// logRow writes the log-scores of s into dst (which may be s): s itself
// for logits, log((1−ε)p + ε/C) of the row-normalised p otherwise (a row
// of zeros is uniform).
func (c *Calibration) logRow(dst, s []float64) error {
	var sum float64
	for j, v := range s {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("score %v of class %d is not finite", v, j)
		case v < 0 && !c.Logits:
			return fmt.Errorf("score %v of class %d is negative, but the calibration was fitted on non-negative scores", v, j)
		}
		sum += v
	}
	if c.Logits {
		copy(dst, s)
		return nil
	}
	if sum == 0 || math.IsInf(sum, 0) {
		for j := range dst {
			dst[j] = 0
		}
		return nil
	}
	u := c.Smoothing / float64(len(s))
	for j, v := range s {
		dst[j] = math.Log((1-c.Smoothing)*(v/sum) + u)
	}
	return nil
}

// Probabilities returns the calibrated class probabilities of every row of
// a classifier's scores.
func (c *Calibration) Probabilities(scores mat.Matrix) (*mat.Dense, error) {
	z, err := c.logScores(scores)
	if err != nil {
		return nil, err
	}
	return eval.Softmax(z, c.Temperature), nil
}

// Row returns the calibrated probabilities of one row of scores and the
// prediction set (classes in decreasing probability) of the node with that
// key.
func (c *Calibration) Row(scores []float64, key uint64) (p []float64, set []int, err error) {
	z := make([]float64, len(scores))
	if err := c.logRow(z, scores); err != nil {
		return nil, nil, fmt.Errorf("confidence: %w", err)
	}
	p = eval.Softmax(mat.NewDense(1, len(z), z), c.Temperature).RawRowView(0)
	return p, c.Conformal.Set(p, Uniform(c.Seed, key)), nil
}

// Sets returns the prediction set of every row of calibrated probabilities
// p (Probabilities' result), row i having key i.
func (c *Calibration) Sets(p mat.Matrix) [][]int {
	r, k := p.Dims()
	out := make([][]int, r)
	row := make([]float64, k)
	for i := range out {
		mat.Row(row, i, p)
		out[i] = c.Conformal.Set(row, Uniform(c.Seed, uint64(i)))
	}
	return out
}

// Validate checks c's values, as read from a file or set by hand.
func (c *Calibration) Validate() error {
	switch {
	case !(c.Temperature > 0) || math.IsInf(c.Temperature, 1):
		return fmt.Errorf("confidence: temperature %v is invalid: it must be positive and finite", c.Temperature)
	case !(c.Smoothing >= 0 && c.Smoothing < 1):
		return fmt.Errorf("confidence: smoothing %v is invalid: it must be in [0, 1)", c.Smoothing)
	case !(c.Conformal.Alpha > 0 && c.Conformal.Alpha < 1):
		return fmt.Errorf("confidence: alpha %v is invalid: it must be in the open interval (0, 1)", c.Conformal.Alpha)
	case math.IsNaN(c.Conformal.Threshold) || c.Conformal.Threshold < 0:
		return fmt.Errorf("confidence: set threshold %v is invalid: it must be ≥ 0", c.Conformal.Threshold)
	case c.Conformal.Calibration < 1:
		return fmt.Errorf("confidence: %d calibration nodes is invalid: there must be at least one", c.Conformal.Calibration)
	}
	return nil
}

// sectionValues holds temperature, smoothing, alpha, threshold,
// calibration nodes, logits (0/1) and the seed's two 32-bit halves.
const sectionValues = "calibration.values"

// Put stores c in f, beside the model f holds.
func (c *Calibration) Put(f *modelfile.File) error {
	if err := c.Validate(); err != nil {
		return err
	}
	logits := 0.0
	if c.Logits {
		logits = 1
	}
	f.PutFloat64s(sectionValues, []float64{c.Temperature, c.Smoothing, c.Conformal.Alpha, c.Conformal.Threshold,
		float64(c.Conformal.Calibration), logits, float64(c.Seed >> 32), float64(c.Seed & math.MaxUint32)})
	return nil
}

// Read returns the Calibration stored in f, nil when f holds none.
func Read(f *modelfile.File) (*Calibration, error) {
	if !f.Has(sectionValues) {
		return nil, nil
	}
	v, err := f.Float64sNonFinite(sectionValues)
	if err != nil {
		return nil, err
	}
	if len(v) != 8 {
		return nil, fmt.Errorf("confidence: section %s holds %d values, want 8", sectionValues, len(v))
	}
	n := v[4]
	if n != math.Trunc(n) || n < 1 || n > math.MaxInt32 {
		return nil, fmt.Errorf("confidence: section %s: calibration node count %v is not a positive integer", sectionValues, n)
	}
	if v[5] != 0 && v[5] != 1 {
		return nil, fmt.Errorf("confidence: section %s: logits flag %v is not 0 or 1", sectionValues, v[5])
	}
	for _, h := range v[6:] {
		if h != math.Trunc(h) || h < 0 || h > math.MaxUint32 {
			return nil, fmt.Errorf("confidence: section %s: seed half %v is not a 32-bit integer", sectionValues, h)
		}
	}
	c := &Calibration{Temperature: v[0], Smoothing: v[1], Logits: v[5] == 1, Seed: uint64(v[6])<<32 | uint64(v[7]),
		Conformal: eval.Conformal{Alpha: v[2], Threshold: v[3], Calibration: int(n)}}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("section %s: %w", sectionValues, err)
	}
	return c, nil
}
