package main

/*
#include <stdint.h>
*/
import "C"

import (
	"math"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
)

// The confidence tools of package eval (ROC AUC, temperature scaling and
// calibration error, split-conformal prediction sets) on a rows×cols
// C-order float64 matrix of scores or probabilities (viewed, not copied)
// and rows int64 labels (−1 for unknown: skipped).

// scoresAndLabels views a score matrix and copies its labels.
func scoresAndLabels(p unsafe.Pointer, rows, cols int64, labels *C.int64_t) (*mat.Dense, []int, error) {
	if p == nil {
		return nil, nil, errorf("the scores are NULL")
	}
	s, err := denseView(p, 8, rows, cols, "scores")
	if err != nil {
		return nil, nil, err
	}
	if labels == nil {
		return nil, nil, errorf("the labels are NULL")
	}
	y, _ := fitTargets(labels, nil, rows)
	return s, y, nil
}

// gssl_eval_roc_auc computes the ROC AUC of scores for labels: with one
// column, the AUC of the column for the positive class 1 (labels 0 and 1);
// with more, the macro one-vs-rest AUC over the columns (labels 0..cols−1).
//
//export gssl_eval_roc_auc
func gssl_eval_roc_auc(ch C.int64_t, scores unsafe.Pointer, rows, cols C.int64_t, labels *C.int64_t, out *C.double) C.int32_t {
	return guard(int64(ch), func(*call) error {
		s, y, err := scoresAndLabels(scores, int64(rows), int64(cols), labels)
		if err != nil {
			return err
		}
		var auc float64
		if cols == 1 {
			auc, err = eval.ROCAUC(s.RawMatrix().Data, y, nil, 1)
		} else {
			auc, err = eval.MacroROCAUC(s, y, nil)
		}
		if err != nil {
			return err
		}
		*out = C.double(auc)
		return nil
	})
}

// gssl_eval_fit_temperature fits the temperature T of log-scores z
// (logits or log-probabilities) by the negative log-likelihood of
// softmax(z/T) on the labelled rows.
//
//export gssl_eval_fit_temperature
func gssl_eval_fit_temperature(ch C.int64_t, z unsafe.Pointer, rows, cols C.int64_t, labels *C.int64_t, out *C.double) C.int32_t {
	return guard(int64(ch), func(*call) error {
		s, y, err := scoresAndLabels(z, int64(rows), int64(cols), labels)
		if err != nil {
			return err
		}
		t, err := eval.FitTemperature(s, y, nil)
		if err != nil {
			return err
		}
		*out = C.double(t)
		return nil
	})
}

// gssl_eval_reliability returns the reliability diagram of probabilities p
// on the labelled rows as a result of one row per bin (lo, hi, count, mean
// confidence, accuracy) and the expected calibration error in ece; bins ≤ 0
// means eval.DefaultCalibrationBins.
//
//export gssl_eval_reliability
func gssl_eval_reliability(ch C.int64_t, p unsafe.Pointer, rows, cols C.int64_t, labels *C.int64_t, bins C.int64_t, out *C.int64_t, ece *C.double) C.int32_t {
	return guard(int64(ch), func(*call) error {
		s, y, err := scoresAndLabels(p, int64(rows), int64(cols), labels)
		if err != nil {
			return err
		}
		bs, e, err := eval.Reliability(s, y, nil, int(bins))
		if err != nil {
			return err
		}
		r := &result{rows: len(bs), cols: 5, f64: make([]float64, 0, 5*len(bs))}
		for _, b := range bs {
			r.f64 = append(r.f64, b.Lo, b.Hi, float64(b.Count), b.Confidence, b.Accuracy)
		}
		*out, *ece = C.int64_t(handles.put(r)), C.double(e)
		return nil
	})
}

// gssl_eval_conformal_calibrate returns in threshold the split-conformal
// threshold q̂ of the APS score at miscoverage alpha on the labelled rows
// of probabilities p (their uniforms drawn from seed), +Inf when there are
// too few rows for 1 − alpha, and their number in n.
//
//export gssl_eval_conformal_calibrate
func gssl_eval_conformal_calibrate(ch C.int64_t, p unsafe.Pointer, rows, cols C.int64_t, labels *C.int64_t, alpha C.double, seed C.uint64_t, threshold *C.double, n *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		s, y, err := scoresAndLabels(p, int64(rows), int64(cols), labels)
		if err != nil {
			return err
		}
		c, err := eval.Calibrate(s, y, nil, float64(alpha), uint64(seed))
		if err != nil {
			return err
		}
		*threshold, *n = C.double(c.Threshold), C.int64_t(c.Calibration)
		return nil
	})
}

// gssl_eval_conformal_sets returns the prediction sets of the rows of
// probabilities p under threshold (gssl_eval_conformal_calibrate's), their
// uniforms drawn from seed, as a rows×cols int64 result: each row's
// classes in decreasing probability, then −1.
//
//export gssl_eval_conformal_sets
func gssl_eval_conformal_sets(ch C.int64_t, p unsafe.Pointer, rows, cols C.int64_t, threshold C.double, seed C.uint64_t, out *C.int64_t) C.int32_t {
	return guard(int64(ch), func(*call) error {
		if p == nil {
			return errorf("the probabilities are NULL")
		}
		s, err := denseView(p, 8, int64(rows), int64(cols), "probabilities")
		if err != nil {
			return err
		}
		if math.IsNaN(float64(threshold)) {
			return errorf("conformal sets: the threshold is NaN")
		}
		c := &eval.Conformal{Threshold: float64(threshold)}
		sets := c.Sets(s, uint64(seed))
		r := &result{rows: int(rows), cols: int(cols), i64: make([]int64, int(rows)*int(cols))}
		for i, set := range sets {
			row := r.i64[i*int(cols) : (i+1)*int(cols)]
			for j := range row {
				row[j] = -1
			}
			for j, k := range set {
				row[j] = int64(k)
			}
		}
		*out = C.int64_t(handles.put(r))
		return nil
	})
}
