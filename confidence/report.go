package confidence

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
)

// Report is what calibrating a fitted classifier's scores on validation
// nodes gives on its test nodes.
type Report struct {
	// Calibration is the fitted map, to save beside the model.
	Calibration *Calibration `json:"-"`
	// Probabilities are the calibrated probabilities of every node, Sets
	// their prediction sets.
	Probabilities *mat.Dense `json:"-"`
	Sets          [][]int    `json:"-"`

	Alpha       float64 `json:"alpha"`
	Temperature float64 `json:"temperature"`
	Smoothing   float64 `json:"smoothing"`
	Calibrated  int     `json:"calibration_nodes"`
	// ECEBefore and ECEAfter are the expected calibration errors on the
	// test nodes of the scores as probabilities (row-normalised, or the
	// softmax of logits) and of the calibrated probabilities; Bins are the
	// latter's reliability diagram.
	ECEBefore float64               `json:"ece_before"`
	ECEAfter  float64               `json:"ece_after"`
	Bins      []eval.ReliabilityBin `json:"reliability"`
	// Coverage is the fraction of test nodes whose set holds their class,
	// SetSize the mean size of their sets.
	Coverage float64 `json:"coverage"`
	SetSize  float64 `json:"mean_set_size"`
	Tested   int     `json:"test_nodes"`
}

// Evaluate fits a Calibration of scores (a classifier fitted without the
// labels of val and test) on the val nodes at miscoverage alpha, and
// measures it on the test nodes (none: only the calibration is fitted).
func Evaluate(scores mat.Matrix, truth []int, val, test []int, alpha float64, seed uint64) (*Report, error) {
	cal, err := Fit(scores, truth, val, alpha, seed)
	if err != nil {
		return nil, err
	}
	p, err := cal.Probabilities(scores)
	if err != nil {
		return nil, err
	}
	r := &Report{Calibration: cal, Probabilities: p, Sets: cal.Sets(p), Alpha: alpha, Temperature: cal.Temperature,
		Smoothing: cal.Smoothing, Calibrated: cal.Conformal.Calibration}
	var tested []int
	for _, i := range test {
		if i >= 0 && i < len(truth) && truth[i] >= 0 {
			tested = append(tested, i)
		}
	}
	if len(tested) == 0 {
		return r, nil
	}
	r.Tested = len(tested)
	raw := &Calibration{Temperature: 1, Logits: cal.Logits}
	before, err := raw.Probabilities(scores)
	if err != nil {
		return nil, err
	}
	if _, r.ECEBefore, err = eval.Reliability(before, truth, tested, eval.DefaultCalibrationBins); err != nil {
		return nil, fmt.Errorf("confidence: %w", err)
	}
	if r.Bins, r.ECEAfter, err = eval.Reliability(p, truth, tested, eval.DefaultCalibrationBins); err != nil {
		return nil, fmt.Errorf("confidence: %w", err)
	}
	if r.Coverage, r.SetSize, err = eval.Coverage(r.Sets, truth, tested); err != nil {
		return nil, fmt.Errorf("confidence: %w", err)
	}
	return r, nil
}
