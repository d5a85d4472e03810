package protocol

import (
	"fmt"

	"github.com/gssl/gssl/stkr"
)

// STKRReport is an STKR protocol's outcome summed up for a reader (gssl
// stkr prints it, and its JSON is the command's): the hyperparameters
// chosen at each fit, the solver's mean work at the chosen setting, and the
// accuracies. A figure that does not exist (no validation nodes; test
// accuracy without a split) is nil, null in JSON.
type STKRReport struct {
	Protocol         string    `json:"protocol"` // "split" or "all-labelled"
	Seeds            []uint64  `json:"seeds"`
	SplitSource      string    `json:"split_source"`
	DroppedSplit     int       `json:"dropped_split_nodes"` // split nodes outside the graph used, summed over seeds
	VisibleNodes     int       `json:"visible_nodes"`
	TestNodes        int       `json:"test_nodes"` // per seed (summed over chunks)
	Refit            bool      `json:"refit"`      // the fit that predicted test was a refit with val visible (Inductive)
	Fits             int       `json:"fits"`       // hyperparameter selections: seeds × chunks
	Folds            int       `json:"folds,omitempty"`
	CVAccuracy       any       `json:"cv_accuracy,omitempty"`
	Predicted        int       `json:"predicted"`
	TestAccuracyMean any       `json:"test_accuracy_mean"`
	TestAccuracyStd  any       `json:"test_accuracy_std"`
	TestReason       string    `json:"test_accuracy_reason,omitempty"`
	ValAccuracyMean  any       `json:"val_accuracy_mean"`
	ValReason        string    `json:"val_accuracy_reason,omitempty"`
	TestAccuracies   []any     `json:"test_accuracies"`
	Eta              []float64 `json:"eta"`               // per fit (inverse Laplacian only)
	Beta             []float64 `json:"beta"`              // per fit
	ChosenIterations []int     `json:"chosen_iterations"` // per fit; 0 = solved to the tolerance
	Iterations       float64   `json:"iterations"`
	MatVecs          float64   `json:"matvecs"`
	FitSeconds       float64   `json:"fit_seconds"`
	Candidates       int       `json:"candidates"`
	FailedCandidates int       `json:"failed_candidates"`
	NoEvidence       int       `json:"no_evidence"`
	SolverDetail     string    `json:"solver_detail"`
	Notes            []string  `json:"notes,omitempty"`
}

// Report sums up the runs of RunSTKRBenchmark in setting (SummarizeSTKR
// of runs over the inverse Laplacian's η when lap is set); notes come
// first among the notes.
func (s STKRSummary) Report(setting Setting, notes ...string) STKRReport {
	r := STKRReport{Protocol: "split", Refit: setting == Inductive, Notes: notes,
		DroppedSplit: s.Dropped, SplitSource: s.Source, Candidates: s.Candidates, FailedCandidates: s.Failed,
		VisibleNodes: s.VisibleNodes, Fits: s.Fits, NoEvidence: s.NoEvidence, SolverDetail: s.SolverDetail,
		Eta: s.Eta, Beta: s.Beta, ChosenIterations: s.ChosenIterations, Seeds: s.Seeds, TestNodes: s.TestNodes,
		TestAccuracies: numbers(s.Test), Iterations: s.Iterations, MatVecs: s.MatVecs, FitSeconds: s.FitSeconds}
	r.TestAccuracyMean, r.TestAccuracyStd = summary(s.Test)
	r.ValAccuracyMean, _ = summary(s.Val)
	if r.ValAccuracyMean == nil {
		r.ValReason = "the split has no labelled validation node"
	}
	return r
}

// Report sums up c, RunSTKRCV's outcome on task with the folds of seed;
// notes come first among the notes.
func (c STKRCVRun) Report(task Task, seed uint64, notes ...string) STKRReport {
	r := STKRReport{Protocol: "all-labelled", SplitSource: "none: every labelled node is trained on", Notes: notes,
		Candidates: len(c.Candidates), Folds: c.Folds, Fits: 1, Seeds: []uint64{seed}}
	for _, e := range c.Failed {
		if e != nil {
			r.FailedCandidates++
		}
	}
	if c.FellBack {
		r.Notes = append(r.Notes, fmt.Sprintf("no class has two labels, so nothing can be cross-validated: the middle of the grid, %s β=%g (--eta and --ridge set them)", c.Candidates[0].Transform, c.Candidates[0].Beta))
	}
	if c.Best == nil {
		return r
	}
	if lap, ok := c.Best.Transform.(stkr.InverseLaplacian); ok {
		r.Eta = append(r.Eta, lap.Eta)
	}
	r.Beta, r.ChosenIterations = []float64{c.Best.Beta}, []int{c.Best.Iterations}
	r.CVAccuracy = number(c.Accuracy[c.STKRCVChoice.Best])
	labelled := 0
	for _, l := range task.Labels {
		if l >= 0 {
			labelled++
		}
	}
	n := task.Graph.Nodes()
	r.VisibleNodes, r.NoEvidence, r.SolverDetail = n, c.NoEvidence, c.Stats.Solver
	r.Iterations, r.MatVecs = float64(c.Stats.TotalIterations()), float64(c.Stats.MatVecs)
	r.Predicted = n - labelled
	r.TestReason = "no test split: every labelled node is trained on; the unlabelled nodes are predicted"
	r.ValReason = "no validation split: hyperparameters are chosen by cross-validation"
	if c.Folds > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("hyperparameters chosen by %d-fold cross-validation over the %d labelled nodes (seed %d)", c.Folds, labelled, seed))
	}
	if r.Predicted == 0 {
		r.Notes = append(r.Notes, "every node is labelled, so there is nothing to predict; --split or --splits scores a benchmark split")
	}
	return r
}
