package eval

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// ROCAUC returns the area under the ROC curve of scores for the positive
// class over the items in idx (nil = all) whose label is known: the
// probability that a random positive scores above a random negative, ties
// counting one half (the Mann–Whitney statistic). labels are 0 and 1, or
// negative for unknown; positive names the class counted as positive.
// Items with a NaN score are an error. It costs one sort of the scored
// items.
func ROCAUC(scores []float64, labels []int, idx []int, positive int) (float64, error) {
	if len(scores) != len(labels) {
		return 0, fmt.Errorf("eval: ROC AUC: %d scores for %d labels", len(scores), len(labels))
	}
	type item struct {
		s   float64
		pos bool
	}
	var items []item
	add := func(i int) error {
		if i < 0 || i >= len(labels) {
			return fmt.Errorf("eval: ROC AUC: index %d out of range [0, %d)", i, len(labels))
		}
		if labels[i] < 0 {
			return nil
		}
		if math.IsNaN(scores[i]) {
			return fmt.Errorf("eval: ROC AUC: the score of item %d is NaN", i)
		}
		items = append(items, item{scores[i], labels[i] == positive})
		return nil
	}
	if idx == nil {
		for i := range labels {
			if err := add(i); err != nil {
				return 0, err
			}
		}
	} else {
		for _, i := range idx {
			if err := add(i); err != nil {
				return 0, err
			}
		}
	}
	slices.SortFunc(items, func(a, b item) int {
		switch {
		case a.s < b.s:
			return -1
		case a.s > b.s:
			return 1
		}
		return 0
	})
	// Rank sum of the positives, ties given their mean rank.
	var rankSum float64
	var npos, nneg int
	for lo := 0; lo < len(items); {
		hi := lo
		for hi < len(items) && items[hi].s == items[lo].s {
			hi++
		}
		mean := float64(lo+hi+1) / 2 // ranks lo+1 … hi
		for k := lo; k < hi; k++ {
			if items[k].pos {
				rankSum += mean
				npos++
			} else {
				nneg++
			}
		}
		lo = hi
	}
	if npos == 0 || nneg == 0 {
		return 0, fmt.Errorf("eval: ROC AUC needs both classes among the scored items: %d positive, %d negative", npos, nneg)
	}
	return (rankSum - float64(npos)*float64(npos+1)/2) / (float64(npos) * float64(nneg)), nil
}

// MacroROCAUC returns the mean over classes of the one-vs-rest ROC AUC of
// each class's column of scores (scikit-learn's roc_auc_score with
// multi_class="ovr", average="macro"), over the items in idx (nil = all)
// with a known label. A class absent from the scored items is an error, as
// its AUC is undefined. With two classes it is the AUC of column 1.
func MacroROCAUC(scores mat.Matrix, labels []int, idx []int) (float64, error) {
	n, c := scores.Dims()
	if n != len(labels) {
		return 0, fmt.Errorf("eval: ROC AUC: %d rows of scores for %d labels", n, len(labels))
	}
	col := make([]float64, n)
	column := func(k int) []float64 {
		for i := range col {
			col[i] = scores.At(i, k)
		}
		return col
	}
	if c == 2 {
		return ROCAUC(column(1), labels, idx, 1)
	}
	var sum float64
	for k := 0; k < c; k++ {
		a, err := ROCAUC(column(k), labels, idx, k)
		if err != nil {
			return 0, fmt.Errorf("class %d: %w", k, err)
		}
		sum += a
	}
	return sum / float64(c), nil
}
