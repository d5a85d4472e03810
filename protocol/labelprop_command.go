package protocol

import (
	"errors"
	"fmt"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
)

// Bound sets the model's number of classes and, for label spreading, the
// memory bound its block CG batches the classes within (limit bytes), and
// returns the bytes the run takes: the model's, the seed rows of its
// right-hand side (8·classes bytes per training node), and with conformal the n×classes probabilities
// formed once beside its scores to calibrate them (without it, Rows
// streams them row by row).
func (e *LabelPropExperiment) Bound(classes int, limit int64, conformal bool) int64 {
	var need int64
	switch m := e.Model.(type) {
	case *labelprop.Spreading:
		m.Classes, m.MaxMemory = classes, limit
		need = m.MemoryBytes(e.Graph)
	case *labelprop.Harmonic:
		m.Classes = classes
		need = m.MemoryBytes(e.Graph)
	}
	if conformal {
		need += 8 * int64(e.Graph.Nodes()) * int64(max(classes, 1))
	}
	return need + 8*int64(e.trainNodes())*int64(max(classes, 1))
}

// trainNodes returns the number of seeds a fit starts from, the training
// nodes of the first run's split (every labelled node without a split, or
// when the split cannot be built: the run reports why). Labelprop keeps a
// row of classes float64 values of its right-hand side for each.
func (e *LabelPropExperiment) trainNodes() int {
	if e.Splits != nil {
		seed := uint64(0)
		if len(e.Seeds) > 0 {
			seed = e.Seeds[0]
		}
		if sp, _, err := e.Splits.Split(seed); err == nil {
			return len(sp.Train)
		}
	}
	labelled := 0
	for _, l := range e.Labels {
		if l >= 0 {
			labelled++
		}
	}
	return labelled
}

// CheckSeeds refuses several seeds on a split that does not depend on
// the seed.
func CheckSeeds(spec eval.SplitSpec, seeds int) error {
	if seeds > 1 && !spec.Seeded() {
		return fmt.Errorf("--seeds %d needs --split random:K or per-class:T,V; the other protocols are deterministic", seeds)
	}
	return nil
}

// LabelPropError retells EvaluateLabelProp's errors with the settings to
// change (by their flags) and the node ids of ds.
func LabelPropError(err error, ds interface{ NodeID(int) string }) error {
	var iso *IsolatedError
	switch {
	case errors.As(err, &iso):
		return fmt.Errorf("labelprop: training node %s is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds to keep it", ds.NodeID(iso.Node))
	case errors.Is(err, eval.ErrNoValidation):
		return errors.New("labelprop: --alpha auto needs validation nodes to choose a, and the split has none; give --alpha, or --split none to choose it by cross-validation")
	case errors.Is(err, ErrNoLabels):
		return errors.New("labelprop: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	return err
}

// Rows returns the first run's rows for a prediction table: its split
// (without validation nodes when there was no split), its predictions and
// probabilities, calibrated on the split's validation nodes for alpha > 0
// (Conformal with labels and seed). Without calibration the probabilities
// are not formed: the table reads them row by row (ProbabilityRow).
func (o LabelPropOutcome) Rows(labels []int, alpha float64, seed uint64) (ClassRows, error) {
	run := o.Runs[0]
	if !run.WithSplit {
		run.Split.Val = nil
	}
	rows := ClassRows{Split: run.Split, WithSplit: run.WithSplit, Predicted: run.Model.Labels(), ProbabilityRow: run.Model.ProbabilityRow}
	if alpha == 0 {
		return rows, nil
	}
	var err error
	rows.Conformal, err = Conformal(run.Model.Probabilities(), run.Split, labels, alpha, seed)
	return rows, err
}
