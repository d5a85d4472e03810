package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"

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

// saveGraphClassifier writes --save: the candidate that the protocol's
// inner selection picks on all graphs (protocol.GramEvaluation.Select),
// refitted on all of them as a WLClassifier with the data set's class
// names (its graph labels).
func saveGraphClassifier(ctx context.Context, opts graphKernelOptions, ds *loaders.TUDataset, graphs []graphkernels.Graph,
	grams []*mat.SymDense, heights []int, res *graphKernelResult, stderr io.Writer) error {
	labels := ds.Classes()
	ev := protocol.GramEvaluation{Grams: grams, Grid: opts.Grid, InnerFolds: opts.Inner, Seed: opts.Seed}
	c, err := ev.Select(ctx, labels)
	if err != nil {
		return fmt.Errorf("graphkernel: --save %s: %w", opts.Save, err)
	}
	nGrid := len(opts.Grid)
	cfg := savedGraphModel{Kind: graphkernels.WLClassifierKind, H: heights[c/nGrid], C: opts.Grid[c%nGrid], Normalize: opts.Normalize, Graphs: len(graphs),
		Chosen: fmt.Sprintf("on %d inner folds of all graphs (seed %d)", opts.Inner, opts.Seed)}
	if len(grams)*nGrid == 1 {
		cfg.Chosen = "the only candidate"
	}
	if opts.Kernel == "vh" {
		cfg.H = 0
	}
	m := &graphkernels.WLClassifier{H: cfg.H, C: cfg.C, Normalize: opts.Normalize}
	if err := m.Fit(ctx, graphs, labels); err != nil {
		return fmt.Errorf("graphkernel: --save %s: refitting h = %d, C = %g on all %d graphs: %w", opts.Save, cfg.H, cfg.C, len(graphs), err)
	}
	names := make([]string, len(ds.LabelValues))
	for k, v := range ds.LabelValues {
		names[k] = strconv.Itoa(v)
	}
	if err := savedmodel.Save(opts.Save, m, savedmodel.Context{ClassNames: names, Data: opts.Data}); err != nil {
		return fmt.Errorf("graphkernel: --save %w", err)
	}
	logf(stderr, "graphkernel: saved h = %d, C = %g (%s), refitted on all %d graphs, to %s", cfg.H, cfg.C, cfg.Chosen, len(graphs), opts.Save)
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
