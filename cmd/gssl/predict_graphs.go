package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// checkGraphInput refuses inputs that do not fit the model: --graphs for
// a model of nodes or points, --edges or --features for a model of graphs.
func checkGraphInput(meta serve.Metadata, opts predictOptions) error {
	graphs := meta.Input == serve.InputGraphs
	switch {
	case opts.Graphs != "" && (opts.Edges != "" || opts.Features != ""):
		return usageError{errors.New("predict: --graphs excludes --edges and --features: new graphs, new nodes or new points")}
	case opts.Graphs != "" && !graphs:
		return fmt.Errorf("predict: --graphs %s: a %s model does not classify graphs: give --edges (new nodes) or --features (new points)", opts.Graphs, meta.Kind)
	case graphs && opts.Edges != "":
		return fmt.Errorf("predict: --edges %s: a %s model classifies whole graphs, not nodes: give --graphs DIR (a TU data set folder)", opts.Edges, meta.Kind)
	case graphs && opts.Features != "":
		return fmt.Errorf("predict: --features %s: a %s model classifies whole graphs, not points: give --graphs DIR (a TU data set folder)", opts.Features, meta.Kind)
	}
	return nil
}

// predictGraphFolder classifies the graphs of a TU folder, read by the
// loader gssl graphkernel uses; each prediction's id is the graph's number
// in the files (1-based), and truth holds each graph's label as the files
// write it.
func predictGraphFolder(ctx context.Context, s *savedmodel.Saved, dir string) (preds []serve.Prediction, truth []string, err error) {
	// LoadTU needs the graph labels file; graphs to predict may have none.
	if m, _ := filepath.Glob(filepath.Join(dir, "*_graph_indicator.txt")); len(m) == 1 {
		labels := strings.TrimSuffix(m[0], "_graph_indicator.txt") + "_graph_labels.txt"
		if _, err := os.Stat(labels); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("predict: --graphs %s: no %s: the TU loader needs one graph label per graph; for graphs of unknown class write any integer on each line (it fills the label column and is not used)", dir, filepath.Base(labels))
		}
	}
	ds, err := loaders.LoadTU(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("predict: --graphs: %w", err)
	}
	graphs := make([]graphkernels.Graph, len(ds.Graphs))
	truth = make([]string, len(ds.Graphs))
	for i, g := range ds.Graphs {
		graphs[i] = graphkernels.Graph{Adj: g.Graph, Labels: g.NodeLabels}
		truth[i] = strconv.Itoa(g.Label)
	}
	if preds, err = s.PredictKernelGraphs(ctx, graphs); err != nil {
		return nil, nil, fmt.Errorf("predict: --graphs %s: %w", dir, err)
	}
	for i := range preds {
		preds[i].ID = strconv.Itoa(i + 1)
	}
	return preds, truth, nil
}

// graphPredictionColumns are gssl graphkernel --out's columns without the
// fold — graph, label (truth[r], empty when unknown), prediction — and the
// C-SVM's decision value of each one-vs-one machine.
func graphPredictionColumns(meta serve.Metadata, preds []serve.Prediction, truth []string) ([]string, func(r int, rec []any)) {
	cols := append([]string{"graph", "label", "prediction"}, svmDecisionColumns(meta.Classes, preds)...)
	return cols, func(r int, rec []any) {
		p := preds[r]
		rec[0], rec[2] = p.ID, p.Label
		if n, err := strconv.Atoi(p.ID); err == nil {
			rec[0] = n // a number, as graphkernel --out writes it
		}
		if truth != nil {
			rec[1] = truth[r]
		}
		for k, v := range p.Scores {
			rec[3+k] = v
		}
	}
}
