package eval

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Calibration of class probabilities (Guo et al., "On calibration of
// modern neural networks", ICML 2017).
//
// Temperature scaling divides a model's log-scores z_i (logits, or the
// logarithms of its probabilities) by one T > 0 fitted on validation items
// by the negative log-likelihood of softmax(z_i / T). With β = 1/T the
// objective
//
//	NLL(β) = Σ_i log Σ_k exp(β z_ik) − β z_{i y_i}
//
// is convex in β, with NLL′(β) = Σ_i (E_{p_i}[z_i] − z_{i y_i}) and
// NLL″(β) = Σ_i Var_{p_i}(z_i) ≥ 0 under p_i = softmax(β z_i), so a
// safeguarded Newton iteration finds it. The expected calibration error
// over B equal-width confidence bins is
//
//	ECE = Σ_b |B_b|/n · |accuracy(B_b) − confidence(B_b)|.

// DefaultCalibrationBins is the number of equal-width confidence bins of
// ECE and the reliability diagram (Guo et al.'s 15).
const DefaultCalibrationBins = 15

// maxBeta bounds 1/T: a temperature below 1/maxBeta makes the
// probabilities one-hot to float64 precision anyway.
const maxBeta = 1e6

// FitTemperature returns the temperature T > 0 that minimises the negative
// log-likelihood of softmax(z/T) on the items in idx with a known label.
// Rows of z with a non-finite entry other than −Inf (a log-probability of
// 0) are an error.
func FitTemperature(z mat.Matrix, labels []int, idx []int) (float64, error) {
	rows, err := scoredRows(z, labels, idx)
	if err != nil {
		return 0, fmt.Errorf("eval: temperature: %w", err)
	}
	_, c := z.Dims()
	zi := make([]float64, c)
	deriv := func(beta float64) (d1, d2 float64) {
		for _, i := range rows {
			mat.Row(zi, i, z)
			m := math.Inf(-1)
			for _, v := range zi {
				m = math.Max(m, beta*v)
			}
			var s, s1, s2 float64
			for _, v := range zi {
				if math.IsInf(v, -1) {
					continue
				}
				e := math.Exp(beta*v - m)
				s += e
				s1 += e * v
				s2 += e * v * v
			}
			mean := s1 / s
			d1 += mean - zi[labels[i]]
			d2 += math.Max(s2/s-mean*mean, 0)
		}
		return d1, d2
	}
	// NLL′ is increasing; bracket its root in [lo, hi] and take Newton steps
	// that stay inside the bracket, bisecting otherwise.
	lo, hi := 0.0, 1.0
	for {
		d1, _ := deriv(hi)
		if d1 >= 0 {
			break
		}
		lo, hi = hi, 2*hi
		if hi > maxBeta {
			return 1 / maxBeta, nil
		}
	}
	if d1, _ := deriv(0); d1 >= 0 {
		return 0, errors.New("eval: temperature: the scores carry no information on the validation items (the best temperature is infinite)")
	}
	beta := (lo + hi) / 2
	for it := 0; it < 100 && hi-lo > 1e-12*hi; it++ {
		d1, d2 := deriv(beta)
		if d1 > 0 {
			hi = beta
		} else {
			lo = beta
		}
		next := beta - d1/d2
		if d2 <= 0 || !(next > lo && next < hi) {
			next = (lo + hi) / 2
		}
		if math.Abs(next-beta) <= 1e-14*beta {
			beta = next
			break
		}
		beta = next
	}
	return 1 / beta, nil
}

// Softmax returns the row-wise softmax of z/t, the probabilities of a
// temperature-scaled model; −Inf entries get probability 0.
func Softmax(z mat.Matrix, t float64) *mat.Dense {
	r, c := z.Dims()
	out := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		m := math.Inf(-1)
		for k := 0; k < c; k++ {
			m = math.Max(m, z.At(i, k)/t)
		}
		var s float64
		for k := 0; k < c; k++ {
			e := math.Exp(z.At(i, k)/t - m)
			out.Set(i, k, e)
			s += e
		}
		for k := 0; k < c; k++ {
			out.Set(i, k, out.At(i, k)/s)
		}
	}
	return out
}

// LogProbabilities returns log p for a matrix of probabilities, the
// log-scores that temperature scaling of a probabilistic model starts from.
func LogProbabilities(p mat.Matrix) *mat.Dense {
	r, c := p.Dims()
	out := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for k := 0; k < c; k++ {
			out.Set(i, k, math.Log(p.At(i, k)))
		}
	}
	return out
}

// ReliabilityBin is one confidence bin of a reliability diagram: the items
// whose top probability falls in (Lo, Hi], their mean top probability and
// the fraction of them predicted right.
type ReliabilityBin struct {
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Count      int     `json:"count"`
	Confidence float64 `json:"confidence"`
	Accuracy   float64 `json:"accuracy"`
}

// Reliability returns the bins of a reliability diagram and the expected
// calibration error of probabilities p (rows summing to 1) on the items in
// idx with a known label; bins ≤ 0 means DefaultCalibrationBins.
func Reliability(p mat.Matrix, labels []int, idx []int, bins int) ([]ReliabilityBin, float64, error) {
	if bins <= 0 {
		bins = DefaultCalibrationBins
	}
	rows, err := scoredRows(p, labels, idx)
	if err != nil {
		return nil, 0, fmt.Errorf("eval: calibration: %w", err)
	}
	_, c := p.Dims()
	out := make([]ReliabilityBin, bins)
	for b := range out {
		out[b].Lo, out[b].Hi = float64(b)/float64(bins), float64(b+1)/float64(bins)
	}
	for _, i := range rows {
		best := 0
		for k := 1; k < c; k++ {
			if p.At(i, k) > p.At(i, best) {
				best = k
			}
		}
		conf := p.At(i, best)
		if !(conf >= 0 && conf <= 1) {
			return nil, 0, fmt.Errorf("eval: calibration: item %d's top probability is %v", i, conf)
		}
		b := min(max(int(math.Ceil(conf*float64(bins)))-1, 0), bins-1)
		out[b].Count++
		out[b].Confidence += conf
		if best == labels[i] {
			out[b].Accuracy++
		}
	}
	var ece float64
	for b := range out {
		if out[b].Count == 0 {
			continue
		}
		n := float64(out[b].Count)
		out[b].Confidence /= n
		out[b].Accuracy /= n
		ece += n / float64(len(rows)) * math.Abs(out[b].Accuracy-out[b].Confidence)
	}
	return out, ece, nil
}

// scoredRows returns the rows of idx (nil = all) with a known label, after
// checking the labels against the columns and the entries for NaN and +Inf.
func scoredRows(z mat.Matrix, labels []int, idx []int) ([]int, error) {
	r, c := z.Dims()
	if r != len(labels) {
		return nil, fmt.Errorf("%d rows of scores for %d labels", r, len(labels))
	}
	if idx == nil {
		idx = make([]int, r)
		for i := range idx {
			idx[i] = i
		}
	}
	var rows []int
	for _, i := range idx {
		if i < 0 || i >= r {
			return nil, fmt.Errorf("index %d out of range [0, %d)", i, r)
		}
		if labels[i] < 0 {
			continue
		}
		if labels[i] >= c {
			return nil, fmt.Errorf("item %d has label %d, the scores have %d classes", i, labels[i], c)
		}
		for k := 0; k < c; k++ {
			if v := z.At(i, k); math.IsNaN(v) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("item %d's score for class %d is %v", i, k, v)
			}
		}
		if math.IsInf(z.At(i, labels[i]), -1) {
			return nil, fmt.Errorf("item %d's score for its own class %d is −Inf (probability 0)", i, labels[i])
		}
		rows = append(rows, i)
	}
	if len(rows) == 0 {
		return nil, errors.New("no item with a known label")
	}
	return rows, nil
}
