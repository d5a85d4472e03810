package labelprop

import (
	"fmt"
	"sync/atomic"

	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
)

// StopRule selects when label spreading's Chebyshev solver stops.
type StopRule int

const (
	// StopResidual (the zero value) stops when every class's relative
	// residual ‖b − Ax‖/‖b‖ is at most Tol.
	StopResidual StopRule = iota
	// StopLabels also stops, earlier, when the predicted labels have
	// settled: the largest relative residual is at most LabelTol and the
	// argmax of every node's row of F has not changed for LabelPatience
	// consecutive iterations. The labels are those of the raw scores F
	// (before class mass normalisation). It is a heuristic: a node whose two
	// best scores differ by less than the remaining error can still change
	// class after the rule stops, and the scores are only as accurate as a
	// residual of LabelTol makes them. The residual rule still applies (the
	// first rule met stops).
	StopLabels
)

// DefaultLabelPatience is the default of Spreading.LabelPatience: the labels
// must hold for five consecutive iterations.
const DefaultLabelPatience = 5

// DefaultLabelTol is the default of Spreading.LabelTol: the labels rule
// applies once every class's relative residual is at most 1e-3.
const DefaultLabelTol = 1e-3

func (r StopRule) String() string {
	switch r {
	case StopResidual:
		return "residual"
	case StopLabels:
		return "labels"
	}
	return fmt.Sprintf("StopRule(%d)", int(r))
}

// ParseStopRule reads the names of String: "residual" or "labels".
func ParseStopRule(s string) (StopRule, error) {
	switch s {
	case "residual":
		return StopResidual, nil
	case "labels":
		return StopLabels, nil
	}
	return 0, fmt.Errorf("labelprop: unknown stopping rule %q: want residual or labels", s)
}

// checkStop validates the label-rule settings of a Spreading.
func checkStop(rule StopRule, patience int, tol float64, solver Solver) error {
	if rule != StopResidual && rule != StopLabels {
		return fmt.Errorf("labelprop: Stop = %d is invalid: use StopResidual or StopLabels", int(rule))
	}
	if patience < 0 {
		return fmt.Errorf("labelprop: LabelPatience = %d is invalid: it must be ≥ 0 (0 means %d)", patience, DefaultLabelPatience)
	}
	if !(tol >= 0 && tol < 1) {
		return fmt.Errorf("labelprop: LabelTol = %v is invalid: it must be in [0, 1) (0 means %g)", tol, DefaultLabelTol)
	}
	if rule == StopLabels && solver != Chebyshev && solver != Auto {
		return fmt.Errorf("labelprop: Stop = StopLabels needs Solver = Chebyshev or Auto (Solver is %v)", solver)
	}
	return nil
}

// labelWatch is the state of the StopLabels rule.
type labelWatch struct {
	patience int
	tol      float64
	labels   []int32 // argmax of every row at the last watched iteration; nil before the first
	same     int     // consecutive watched iterations without a change
}

// newLabelWatch returns the watch of the rule with patience and tol (0 means
// the defaults), or nil for StopResidual.
func newLabelWatch(rule StopRule, patience int, tol float64) *labelWatch {
	if rule != StopLabels {
		return nil
	}
	if patience == 0 {
		patience = DefaultLabelPatience
	}
	if tol == 0 {
		tol = DefaultLabelTol
	}
	return &labelWatch{patience: patience, tol: tol}
}

// steady reports whether the rule stops at an iteration whose largest
// relative residual is worst; argmax(labels) must write the current labels
// into labels and return how many changed. The labels are only computed
// once worst ≤ tol (an extra read of the block per iteration from then on).
func (w *labelWatch) steady(worst float64, argmax func(labels *[]int32) int) bool {
	if !(worst <= w.tol) {
		w.same = 0
		return false
	}
	if argmax(&w.labels) > 0 { // the first watched iteration changes all (from −1)
		w.same = 0
		return false
	}
	w.same++
	return w.same >= w.patience
}

// argmaxChanged writes into labels (grown to n = len(z)/c entries and filled
// with −1 on first use) the argmax of every row of the n×c row-major block z
// (the smallest column on ties, as argmax) and returns how many differ from
// what labels held. The rows of z are those of F scaled by a positive factor
// each, which keeps the argmax.
func argmaxChanged[T krylov.Float](z []T, c int, labels *[]int32) int {
	n := len(z) / c
	if len(*labels) != n {
		*labels = make([]int32, n)
		for i := range *labels {
			(*labels)[i] = -1
		}
	}
	lab := *labels
	var changed atomic.Int64
	parallel.For(n, spreadRowChunk, func(lo, hi int) {
		k := 0
		for i := lo; i < hi; i++ {
			row := z[i*c : i*c+c]
			best := 0
			for j := 1; j < c; j++ {
				if row[j] > row[best] {
					best = j
				}
			}
			if lab[i] != int32(best) {
				lab[i] = int32(best)
				k++
			}
		}
		changed.Add(int64(k))
	})
	return int(changed.Load())
}

// newBlock allocates an n×c block's storage, with huge pages requested from
// hugepage.GatherMinBytes: the solvers' products gather rows of their
// blocks at random, and F's storage also holds iterates.
func newBlock(size int) []float64 { return hugepage.GatherFloat64s(size) }
