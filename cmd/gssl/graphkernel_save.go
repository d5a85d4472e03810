package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/savedmodel"
)

// savedGraphModel is the configuration gssl graphkernel --save refitted.
type savedGraphModel struct {
	Kind      string  `json:"kind"`
	H         int     `json:"h"`
	C         float64 `json:"c"`
	Normalize bool    `json:"normalize"`
	Graphs    int     `json:"graphs"`
	// Chosen says how: "only candidate", or the inner folds of all graphs.
	Chosen string `json:"chosen"`
}

// validateSave checks that --save has a kernel and machine that save.
func (o graphKernelOptions) validateSave() error {
	if o.Save == "" {
		return nil
	}
	if o.Kernel != "wl" && o.Kernel != "vh" {
		return fmt.Errorf("graphkernel: --save with --kernel %s: only the wl and vh kernels can be saved (as graphkernels.WLClassifier; vh is WL of height 0), not sp or rw", o.Kernel)
	}
	if o.Classifier != "svm" {
		return fmt.Errorf("graphkernel: --save with --classifier %s: only --classifier svm can be saved (graphkernels.WLClassifier is a C-SVM)", o.Classifier)
	}
	return nil
}

// saveGraphClassifier writes --save: the model the study refitted on all
// graphs, with the data set's class names (its graph labels).
func saveGraphClassifier(opts graphKernelOptions, ds *loaders.TUDataset, sr *protocol.GraphKernelStudyResult, res *graphKernelResult, stderr io.Writer) error {
	m := sr.Model
	cfg := savedGraphModel{Kind: graphkernels.WLClassifierKind, H: m.H, C: m.C, Normalize: m.Normalize, Graphs: len(ds.Graphs),
		Chosen: fmt.Sprintf("on %d inner folds of all graphs (seed %d)", opts.Inner, opts.Seed)}
	if sr.Candidates == 1 {
		cfg.Chosen = "the only candidate"
	}
	names := make([]string, len(ds.LabelValues))
	for k, v := range ds.LabelValues {
		names[k] = strconv.Itoa(v)
	}
	if err := savedmodel.Save(opts.Save, m, savedmodel.Context{ClassNames: names, Data: opts.Data}); err != nil {
		return fmt.Errorf("graphkernel: --save %w", err)
	}
	logf(stderr, "graphkernel: saved h = %d, C = %g (%s), refitted on all %d graphs, to %s", cfg.H, cfg.C, cfg.Chosen, cfg.Graphs, opts.Save)
	res.Saved, res.SavedConfig = opts.Save, &cfg
	return nil
}

func printSavedGraphModel(w io.Writer, r graphKernelResult) {
	if r.SavedConfig == nil {
		return
	}
	c := r.SavedConfig
	fmt.Fprintf(w, "  saved        %s: h = %d, C = %g (%s), refitted on all %d graphs (gssl predict --model %s --graphs DIR)\n",
		r.Saved, c.H, c.C, c.Chosen, c.Graphs, r.Saved)
}

// heightAccuracy is the nested cross-validated accuracy of the WL kernel
// with its height fixed (--heights).
type heightAccuracy struct {
	H        int   `json:"h"`
	Mean     any   `json:"accuracy_mean"`
	Std      any   `json:"accuracy_std"`
	ByRepeat []any `json:"accuracy_by_repeat"`
}
