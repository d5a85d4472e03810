package eval

import (
	"fmt"
	"math"
)

// Split is a partition of items into training, validation and test sets
// (indices into the data set). Items in none of them are "other" (unlabelled
// nodes that still take part in transductive learning).
type Split struct {
	Train, Val, Test []int
}

// TrainingLabels returns truth at s's training nodes and −1 elsewhere:
// what a model fitted on the split sees.
func (s Split) TrainingLabels(truth []int) []int {
	out := make([]int, len(truth))
	for i := range out {
		out[i] = -1
	}
	for _, i := range s.Train {
		out[i] = truth[i]
	}
	return out
}

// Accuracy returns the fraction of items in idx whose prediction equals
// their label, skipping items with a negative (unknown) label. A nil idx
// means every item. It returns an error when pred and truth differ in
// length, an index is out of range, or no item is scored.
func Accuracy(pred, truth []int, idx []int) (float64, error) {
	var right, total int
	err := each(pred, truth, idx, func(p, t int) {
		total++
		if p == t {
			right++
		}
	})
	if err != nil {
		return 0, err
	}
	if total == 0 {
		return 0, fmt.Errorf("eval: accuracy of an empty set: no item with a known label among %d", countIdx(idx, len(truth)))
	}
	return float64(right) / float64(total), nil
}

// freeClasses is the class count a metric accepts whatever the labels.
const freeClasses = 64

// checkClasses refuses a class count the labels cannot justify: above
// freeClasses, C ≤ len(truth), since a class without any label only costs
// memory (a label is not a count).
func checkClasses(who string, classes, n int) error {
	if classes < 1 || classes > max(n, freeClasses) {
		return fmt.Errorf("eval: %s: classes=%d is invalid: it must be in [1, %d] (the number of labels, or %d)", who, classes, max(n, freeClasses), freeClasses)
	}
	return nil
}

// Confusion returns the C×C confusion matrix m[true][predicted] over idx
// (nil = all), skipping unknown labels. Predictions outside [0, C) are an
// error, and so is C outside [1, max(len(truth), 64)].
func Confusion(pred, truth []int, idx []int, classes int) ([][]int, error) {
	if err := checkClasses("confusion", classes, len(truth)); err != nil {
		return nil, err
	}
	m := make([][]int, classes)
	for i := range m {
		m[i] = make([]int, classes)
	}
	var bad error
	err := each(pred, truth, idx, func(p, t int) {
		if t >= classes || p < 0 || p >= classes {
			if bad == nil {
				bad = fmt.Errorf("eval: label %d or prediction %d outside [0, %d)", t, p, classes)
			}
			return
		}
		m[t][p]++
	})
	if err != nil {
		return nil, err
	}
	return m, bad
}

// MacroF1 returns the unweighted mean over classes of the F1 score
// 2·precision·recall/(precision+recall); a class with no true and no
// predicted item is left out of the mean, one with no true positive scores 0.
//
// It counts per class (true positives, true and predicted items), O(C)
// memory; C must lie in [1, max(len(truth), 64)].
func MacroF1(pred, truth []int, idx []int, classes int) (float64, error) {
	if err := checkClasses("macro-F1", classes, len(truth)); err != nil {
		return 0, err
	}
	tps := make([]int, classes)
	rows := make([]int, classes)
	cols := make([]int, classes)
	var bad error
	err := each(pred, truth, idx, func(p, t int) {
		if t >= classes || p < 0 || p >= classes {
			if bad == nil {
				bad = fmt.Errorf("eval: label %d or prediction %d outside [0, %d)", t, p, classes)
			}
			return
		}
		rows[t]++
		cols[p]++
		if p == t {
			tps[t]++
		}
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return 0, err
	}
	var sum float64
	var used int
	for c := 0; c < classes; c++ {
		tp, row, col := tps[c], rows[c], cols[c]
		if row == 0 && col == 0 {
			continue
		}
		used++
		if tp == 0 {
			continue
		}
		prec := float64(tp) / float64(col)
		rec := float64(tp) / float64(row)
		sum += 2 * prec * rec / (prec + rec)
	}
	if used == 0 {
		return 0, fmt.Errorf("eval: macro-F1 of an empty set")
	}
	return sum / float64(used), nil
}

// AdjustedRandIndex compares two partitions of the same items given as
// cluster ids (any non-negative ints; items with a negative id in either are
// skipped). It is 1 for identical partitions, about 0 for independent ones.
func AdjustedRandIndex(a, b []int) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("eval: partitions have %d and %d items", len(a), len(b))
	}
	type pair struct{ x, y int }
	nij := map[pair]int{}
	ai := map[int]int{}
	bj := map[int]int{}
	n := 0
	for k := range a {
		if a[k] < 0 || b[k] < 0 {
			continue
		}
		nij[pair{a[k], b[k]}]++
		ai[a[k]]++
		bj[b[k]]++
		n++
	}
	if n < 2 {
		return 0, fmt.Errorf("eval: adjusted Rand index needs at least 2 items, got %d", n)
	}
	c2 := func(m int) float64 { return float64(m) * float64(m-1) / 2 }
	var sij, sa, sb float64
	for _, v := range nij {
		sij += c2(v)
	}
	for _, v := range ai {
		sa += c2(v)
	}
	for _, v := range bj {
		sb += c2(v)
	}
	expected := sa * sb / c2(n)
	maxIdx := (sa + sb) / 2
	if maxIdx == expected {
		// Both partitions trivial (one cluster each, or all singletons):
		// identical partitions agree perfectly.
		return 1, nil
	}
	return (sij - expected) / (maxIdx - expected), nil
}

// RMSE returns the root mean squared error of pred against truth.
func RMSE(pred, truth []float64) (float64, error) {
	if len(pred) != len(truth) || len(pred) == 0 {
		return 0, fmt.Errorf("eval: RMSE of %d predictions against %d targets", len(pred), len(truth))
	}
	var s float64
	for i := range pred {
		d := pred[i] - truth[i]
		s += d * d
	}
	return math.Sqrt(s / float64(len(pred))), nil
}

// GaussianNLL returns the mean negative log-likelihood of truth under
// independent Gaussians N(mean_i, variance_i). Variances must be positive.
func GaussianNLL(mean, variance, truth []float64) (float64, error) {
	if len(mean) != len(truth) || len(variance) != len(truth) || len(truth) == 0 {
		return 0, fmt.Errorf("eval: NLL of %d means and %d variances against %d targets", len(mean), len(variance), len(truth))
	}
	var s float64
	for i := range truth {
		v := variance[i]
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("eval: NLL: variance %d is %v; it must be finite and positive", i, v)
		}
		d := truth[i] - mean[i]
		s += 0.5 * (math.Log(2*math.Pi*v) + d*d/v)
	}
	return s / float64(len(truth)), nil
}

// MeanStd returns the mean and the population standard deviation (ddof 0,
// as numpy's default) of xs.
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}

// Argmax returns, for each row of a row-major n×c score matrix, the column
// with the largest score (the first on ties).
func Argmax(scores []float64, c int) []int {
	n := len(scores) / c
	out := make([]int, n)
	for i := 0; i < n; i++ {
		row := scores[i*c : (i+1)*c]
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		out[i] = best
	}
	return out
}

func countIdx(idx []int, n int) int {
	if idx == nil {
		return n
	}
	return len(idx)
}

// each calls fn(pred, truth) for every scored item.
func each(pred, truth []int, idx []int, fn func(p, t int)) error {
	if len(pred) != len(truth) {
		return fmt.Errorf("eval: %d predictions for %d labels", len(pred), len(truth))
	}
	if idx == nil {
		for i := range truth {
			if truth[i] >= 0 {
				fn(pred[i], truth[i])
			}
		}
		return nil
	}
	for _, i := range idx {
		if i < 0 || i >= len(truth) {
			return fmt.Errorf("eval: index %d out of range [0, %d)", i, len(truth))
		}
		if truth[i] >= 0 {
			fn(pred[i], truth[i])
		}
	}
	return nil
}

// Parts returns the part of each of n nodes in s: "train", "val", "test",
// or "" for a node in none of them. Nodes outside [0, n) are ignored.
func (s Split) Parts(n int) []string {
	part := make([]string, n)
	for _, p := range []struct {
		name  string
		nodes []int
	}{{"train", s.Train}, {"val", s.Val}, {"test", s.Test}} {
		for _, i := range p.nodes {
			if i >= 0 && i < n {
				part[i] = p.name
			}
		}
	}
	return part
}
