package protocol

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graphkernels"
)

// TestGraphKernelReport: the summary of a hand-made result, against
// statistics worked out by hand (median of an odd and an even count,
// population standard deviation, NaN as null).
func TestGraphKernelReport(t *testing.T) {
	s := GraphKernelStudy{Kernel: GraphKernelSpec{Name: KernelWL, H: 3, Lambda: 0.1, Normalize: true}, SelectH: true,
		Evaluation: GramEvaluation{Grid: []float64{1, 10}, Machine: graphkernels.SVM, OuterFolds: 10, InnerFolds: 3, Seeds: 2, Seed: 7}}
	r := &GraphKernelStudyResult{GramSeconds: []float64{3, 1, 2}, Features: 42, Candidates: 6, CVSeconds: 1.5,
		Evaluation: &GramEvaluationResult{Accuracy: []float64{0.5, 1}, Folds: 4}, GridChosen: []int{5, 3}, HChosen: []int{1, 2, 5},
		Heights: []HeightAccuracy{{H: 0, Accuracy: []float64{0.25, math.NaN()}}},
		Model:   &graphkernels.WLClassifier{H: 2, C: 10, Normalize: true}}
	rep := s.Report(r, 24)
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	require.JSONEq(t, `{"kernel":"wl","h":3,"h_chosen":[1,2,5],"normalize":true,"classifier":"svm","features":42,
		"gram_seconds":2,"gram_seconds_runs":[3,1,2],"outer_folds":4,"inner_folds":3,"repeats":2,"seed":7,"grid":[1,10],
		"grid_chosen_counts":[5,3],"accuracy_mean":0.75,"accuracy_std":0.25,"accuracy_by_repeat":[0.5,1],"cv_seconds":1.5,
		"heights":[{"h":0,"accuracy_mean":null,"accuracy_std":null,"accuracy_by_repeat":[0.25,null]}],
		"saved_config":{"kind":"`+graphkernels.WLClassifierKind+`","h":2,"c":10,"normalize":true,"graphs":24,"chosen":"on 3 inner folds of all graphs (seed 7)"}}`, string(b))

	// The random walk keeps λ and no height; without an evaluation the
	// accuracy is null and the folds are the ones asked for.
	s.Kernel, s.Evaluation.Machine = GraphKernelSpec{Name: KernelRW, Lambda: 0.1}, graphkernels.Ridge
	r = &GraphKernelStudyResult{GramSeconds: []float64{4, 1}, Candidates: 1, Model: &graphkernels.WLClassifier{}}
	rep = s.Report(r, 3)
	require.Equal(t, 2.5, rep.GramSeconds)
	require.Equal(t, []any{0, 0.1, "ridge", 10, (*float64)(nil), "the only candidate"},
		[]any{rep.H, rep.Lambda, rep.Classifier, rep.OuterFolds, rep.AccuracyMean, rep.Refitted.Chosen})
}
