package protocol

import (
	"fmt"
	"math"
	"slices"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graphkernels"
)

// GraphKernelReport is a GraphKernelStudy and what it found, summarised
// for a reader and a program (gssl graphkernel prints it and encodes it
// with --json): the accuracy's mean and population standard deviation over
// the seeds instead of the per-fold detail, and no Gram matrix. Undefined
// statistics (no evaluation, NaN) are nil.
type GraphKernelReport struct {
	Kernel           string         `json:"kernel"`
	H                int            `json:"h,omitempty"`        // WL only
	HChosen          []int          `json:"h_chosen,omitempty"` // with SelectH: how often each height 1..H was chosen
	Lambda           float64        `json:"lambda,omitempty"`   // random walk only
	Normalize        bool           `json:"normalize"`
	Classifier       string         `json:"classifier"` // svm or ridge
	Features         int            `json:"features,omitempty"`
	GramSeconds      float64        `json:"gram_seconds"` // median of GramSecondsRuns
	GramSecondsRuns  []float64      `json:"gram_seconds_runs"`
	OuterFolds       int            `json:"outer_folds"`
	InnerFolds       int            `json:"inner_folds"`
	Repeats          int            `json:"repeats"`
	Seed             uint64         `json:"seed"`
	Grid             []float64      `json:"grid"`
	GridChosen       []int          `json:"grid_chosen_counts,omitempty"`
	AccuracyMean     *float64       `json:"accuracy_mean"`
	AccuracyStd      *float64       `json:"accuracy_std"`
	AccuracyByRepeat []float64      `json:"accuracy_by_repeat"`
	CVSeconds        float64        `json:"cv_seconds"`
	Heights          []HeightReport `json:"heights,omitempty"`
	// Refitted is the configuration refitted on all graphs (Refit).
	Refitted *RefitReport `json:"saved_config,omitempty"`
}

// HeightReport is the accuracy of the WL kernel with its height fixed
// (GraphKernelStudy.Heights).
type HeightReport struct {
	H        int        `json:"h"`
	Mean     *float64   `json:"accuracy_mean"`
	Std      *float64   `json:"accuracy_std"`
	ByRepeat []*float64 `json:"accuracy_by_repeat"`
}

// RefitReport is the configuration of GraphKernelStudyResult.Model and how
// it was chosen.
type RefitReport struct {
	Kind      string  `json:"kind"`
	H         int     `json:"h"`
	C         float64 `json:"c"`
	Normalize bool    `json:"normalize"`
	Graphs    int     `json:"graphs"`
	// Chosen says how: "the only candidate", or the inner folds of all graphs.
	Chosen string `json:"chosen"`
}

// Report summarises r, the result of s on graphs graphs.
func (s GraphKernelStudy) Report(r *GraphKernelStudyResult, graphs int) GraphKernelReport {
	ev := s.Evaluation
	rep := GraphKernelReport{Kernel: s.Kernel.Name, Normalize: s.Kernel.Normalize, Classifier: "svm", Features: r.Features,
		GramSeconds: median(r.GramSeconds), GramSecondsRuns: r.GramSeconds, OuterFolds: ev.OuterFolds, InnerFolds: ev.InnerFolds,
		Repeats: ev.Seeds, Seed: ev.Seed, Grid: ev.Grid}
	switch s.Kernel.Name {
	case KernelWL:
		rep.H = s.Kernel.H
	case KernelRW:
		rep.Lambda = s.Kernel.Lambda
	}
	if ev.Machine == graphkernels.Ridge {
		rep.Classifier = "ridge"
	}
	if er := r.Evaluation; er != nil {
		rep.AccuracyMean, rep.AccuracyStd = meanStd(er.Accuracy)
		rep.OuterFolds, rep.CVSeconds, rep.AccuracyByRepeat = er.Folds, r.CVSeconds, er.Accuracy
		rep.GridChosen, rep.HChosen = r.GridChosen, r.HChosen
	}
	for _, h := range r.Heights {
		hr := HeightReport{H: h.H}
		hr.Mean, hr.Std = meanStd(h.Accuracy)
		for _, a := range h.Accuracy {
			hr.ByRepeat = append(hr.ByRepeat, finiteOrNil(a))
		}
		rep.Heights = append(rep.Heights, hr)
	}
	if m := r.Model; m != nil {
		rep.Refitted = &RefitReport{Kind: graphkernels.WLClassifierKind, H: m.H, C: m.C, Normalize: m.Normalize, Graphs: graphs,
			Chosen: fmt.Sprintf("on %d inner folds of all graphs (seed %d)", ev.InnerFolds, ev.Seed)}
		if r.Candidates == 1 {
			rep.Refitted.Chosen = "the only candidate"
		}
	}
	return rep
}

// meanStd is eval.MeanStd with undefined values as nil.
func meanStd(xs []float64) (*float64, *float64) {
	m, s := eval.MeanStd(xs)
	return finiteOrNil(m), finiteOrNil(s)
}

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// median is the median of xs, 0 for none.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return 0.5 * (s[n/2-1] + s[n/2])
}
