package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// predictOptions are the settings of gssl predict.
type predictOptions struct {
	Model    string // the saved model
	Edges    string // edges of new nodes to fitted nodes
	Features string // feature vectors of new points (or new nodes, nodeclass)
	// FeatureIDs names the rows of --features for new nodes.
	FeatureIDs string
	Graphs     string // TU folder of graphs to classify
	Header     string // auto, yes or no (tables)
	Weight     string // weight column of --edges
	// Source and Target choose the id columns of --edges.
	Source, Target string
	Out            string // predictions file
	JSON           bool
}

func newPredictCommand(g *globals) *cobra.Command {
	opts := predictOptions{}
	cmd := &cobra.Command{
		Use:   "predict",
		Short: "Predict with a saved model: new nodes from their edges, new points, or the fitted nodes",
		Long: `predict reads a model saved by --save and predicts:

  --edges FILE     new nodes from their edges to fitted nodes: an edge table
                   (as --edges of the fitting commands) whose every row joins a
                   new node to a fitted node, by the ids of the user's files;
                   a new node is predicted from all its rows
  --features FILE  new points from their feature vectors (models of features)
  --graphs DIR     new graphs, a TU data set folder as gssl graphkernel reads
                   (models of graphs: gssl graphkernel --save)
  both             new nodes of gssl classify's models (SGC, APPNP, Correct &
                   Smooth) from their features and their edges to fitted nodes:
                   the new nodes are the rows of --features, named by its first
                   column (a CSV table) or by --feature-ids; --edges as above
  none of them     the nodes, points or graphs the model was fitted on

--out writes one row per prediction with the fitting command's columns (id,
predicted, p_<class>… for classifiers; id, prediction[, variance] for regression): CSV,
or JSON Lines for .jsonl/.ndjson; for graphs, graph (its number in the TU files),
label (its class in the files, empty for the fitted graphs), prediction and the
C-SVM's decision_<a>_vs_<b> values. Without --out the rows go to stdout (with
--json, inside the JSON object).

  gssl labelprop --edges edges.csv --labels labels.csv --save model.gssl
  gssl predict --model model.gssl --edges new_edges.csv --out predictions.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runPredict(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Model, "model", "", "the saved model (a .gssl file written by --save)")
	f.StringVar(&opts.Edges, "edges", "", "edge table of new nodes: each row joins a new node to a fitted node (by id), optional weight")
	f.StringVar(&opts.Features, "features", "", "feature vectors of new points (.npy, .npz or a CSV table, optionally with an id column), or of new nodes for gssl classify's models (also svmlight or our sparse text; named by a first id column or --feature-ids)")
	f.StringVar(&opts.FeatureIDs, "feature-ids", "", "the new node of each row of --features, one id per line (for a matrix without ids, such as a NumPy array)")
	f.StringVar(&opts.Graphs, "graphs", "", "TU data set folder of new graphs to classify (NAME_A.txt, NAME_graph_indicator.txt, NAME_graph_labels.txt, …), for a model of graphs")
	f.StringVar(&opts.Header, "header", "auto", "tables start with a header line: auto (recognised by column names), yes or no")
	f.StringVar(&opts.Weight, "weight", "", "weight column of --edges, by name or 1-based position (default: a column named weight, or a third numeric column; none: every weight 1)")
	f.StringVar(&opts.Source, "source", "", "source id column of --edges (the new node), by name or 1-based position (default: a column named source, src, from, u, …, else the first)")
	f.StringVar(&opts.Target, "target", "", "target id column of --edges (the fitted node), by name or 1-based position (default: a column named target, dst, to, v, …, else the second)")
	f.StringVar(&opts.Out, "out", "", "write the predictions: CSV, or JSON Lines for .jsonl/.ndjson")
	return cmd
}

// predictResult is gssl predict's JSON object.
type predictResult struct {
	Model       string             `json:"model"`
	Kind        string             `json:"kind"`
	Input       string             `json:"input"` // fitted, edges, features, edges+features (new nodes of a nodeclass model) or graphs
	Predicted   int                `json:"predicted"`
	NoEvidence  int                `json:"no_evidence"` // predictions that are the class prior
	Classes     []string           `json:"classes,omitempty"`
	Out         string             `json:"out,omitempty"`
	Predictions []serve.Prediction `json:"predictions,omitempty"`
}

func runPredict(ctx context.Context, opts predictOptions, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Model == "" {
		return usageError{errors.New("predict: --model FILE is required (a model saved by --save)")}
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	header, err := parseHeader(opts.Header)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	s, err := savedmodel.Open(opts.Model)
	if err != nil {
		return fmt.Errorf("predict: --model %w", err)
	}
	meta := s.Metadata()
	if err := checkGraphInput(meta, opts); err != nil {
		return err
	}
	if opts.Edges != "" && opts.Features != "" && s.NodeFeatures() == 0 {
		return usageError{fmt.Errorf("predict: --edges and --features exclude each other for a %s model: new nodes, or new points (both together are for gssl classify's models)", meta.Kind)}
	}
	q := savedmodel.Query{Edges: opts.Edges, Features: opts.Features, FeatureIDs: opts.FeatureIDs, Graphs: opts.Graphs,
		Table: loaders.EdgeTableOptions{Table: loaders.TableOptions{Header: header}, Weight: opts.Weight, Source: opts.Source, Target: opts.Target}}
	a, err := s.PredictFiles(ctx, q)
	if err != nil {
		return fmt.Errorf("predict: %w", predictError(err, q))
	}
	recordInputs(ctx, stderr, a.Reports...)
	for _, n := range a.Notes {
		logf(stderr, "predict: %s", n)
	}
	res := predictResult{Model: opts.Model, Kind: meta.Kind, Classes: meta.Classes, Input: a.Input, Predicted: len(a.Predictions), NoEvidence: a.NoEvidence()}
	cols, row := a.Table(meta)
	if opts.Out != "" {
		if err := writeTable(opts.Out, cols, len(a.Predictions), row); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
		res.Out = opts.Out
	} else if opts.JSON {
		res.Predictions = a.Predictions
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		if opts.Out == "" {
			if err := loaders.WriteTable(w, false, cols, len(a.Predictions), row); err != nil {
				logf(stderr, "predict: %v", err)
			}
			return
		}
		printPredictSummary(w, res)
	})
}

// predictError names the flag of the file a prediction error names.
func predictError(err error, q savedmodel.Query) error {
	msg := err.Error()
	var pe *loaders.ParseError
	errors.As(err, &pe)
	for _, f := range []struct{ flag, path string }{{"edges", q.Edges}, {"features", q.Features}, {"feature-ids", q.FeatureIDs}, {"graphs", q.Graphs}} {
		switch {
		case f.path == "":
		case strings.HasPrefix(msg, f.path):
			return fmt.Errorf("--%s %w", f.flag, err)
		case (pe != nil && pe.Path == f.path) || f.flag == "graphs":
			return fmt.Errorf("--%s: %w", f.flag, err)
		}
	}
	return err
}

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

func printPredictSummary(w io.Writer, res predictResult) {
	fmt.Fprintf(w, "predict: %d predictions of the %s model %s (%s) written to %s", res.Predicted, res.Kind, res.Model, res.Input, res.Out)
	if res.NoEvidence > 0 {
		fmt.Fprintf(w, "; %d had no evidence and got the class prior", res.NoEvidence)
	}
	fmt.Fprintln(w)
}

// parseHeader reads --header (loaders.ParseHeaderMode), as the node
// commands do.
func parseHeader(s string) (loaders.HeaderMode, error) {
	h, err := loaders.ParseHeaderMode(s)
	if err != nil {
		return 0, fmt.Errorf("--header %q is invalid: use auto, yes or no", s)
	}
	return h, nil
}
