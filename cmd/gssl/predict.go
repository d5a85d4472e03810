package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/svm"
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
	res := predictResult{Model: opts.Model, Kind: meta.Kind, Classes: meta.Classes}
	if err := checkGraphInput(meta, opts); err != nil {
		return err
	}
	preds, truth, err := predictAny(ctx, opts, header, s, &res, stderr)
	if err != nil {
		return err
	}
	res.Predicted = len(preds)
	for _, p := range preds {
		if p.Prior {
			res.NoEvidence++
		}
	}
	cols, row := predictionColumns(meta, preds)
	if meta.Input == serve.InputGraphs {
		cols, row = graphPredictionColumns(meta, preds, truth)
	}
	if opts.Out != "" {
		if err := writeTable(opts.Out, cols, len(preds), row); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
		res.Out = opts.Out
	} else if opts.JSON {
		res.Predictions = preds
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		if opts.Out == "" {
			if err := writeTableTo(w, cols, len(preds), row); err != nil {
				logf(stderr, "predict: %v", err)
			}
			return
		}
		printPredictSummary(w, res)
	})
}

// predictAny answers for what the flags give: graphs, new nodes (with
// their features), new points or the fitted items; truth holds the graphs'
// classes of --graphs.
func predictAny(ctx context.Context, opts predictOptions, header loaders.HeaderMode, s *savedmodel.Saved, res *predictResult, stderr io.Writer) (preds []serve.Prediction, truth []string, err error) {
	meta := s.Metadata()
	if opts.Edges != "" && opts.Features != "" && s.NodeFeatures() == 0 {
		return nil, nil, usageError{fmt.Errorf("predict: --edges and --features exclude each other for a %s model: new nodes, or new points (both together are for gssl classify's models)", meta.Kind)}
	}
	switch {
	case opts.Graphs != "":
		res.Input = "graphs"
		if preds, truth, err = predictGraphFolder(ctx, s, opts.Graphs); err != nil {
			return nil, nil, err
		}
	case s.NodeFeatures() > 0 && (opts.Edges != "" || opts.Features != ""):
		res.Input = "edges+features"
		if preds, err = predictFeatureNodes(ctx, opts, header, s, stderr); err != nil {
			return nil, nil, err
		}
	case opts.Edges != "":
		res.Input = "edges"
		if meta.Nodes == 0 {
			return nil, nil, fmt.Errorf("predict: a %s model predicts points from their features (%d each), not nodes: use --features", meta.Kind, meta.Features)
		}
		if preds, err = predictNewNodes(ctx, opts, header, s); err != nil {
			return nil, nil, err
		}
	case opts.Features != "":
		res.Input = "features"
		if preds, err = predictNewPoints(ctx, opts, s); err != nil {
			return nil, nil, err
		}
	default:
		res.Input = "fitted"
		preds = s.PredictFitted()
		if len(preds) == 0 {
			return nil, nil, fmt.Errorf("predict: a %s model keeps no fitted nodes or points to predict: give --features FILE (%d features per point)", meta.Kind, meta.Features)
		}
	}
	return preds, truth, nil
}

// predictNewNodes answers for the new nodes of --edges.
func predictNewNodes(ctx context.Context, opts predictOptions, header loaders.HeaderMode, s *savedmodel.Saved) ([]serve.Prediction, error) {
	nodes, err := readNewNodes(opts.Edges, loaders.EdgeTableOptions{Table: loaders.TableOptions{Header: header}, Weight: opts.Weight, Source: opts.Source, Target: opts.Target}, s.IDs())
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	preds, err := s.PredictNodes(ctx, nodes)
	if err != nil {
		return nil, fmt.Errorf("predict: --edges %s: %w", opts.Edges, err)
	}
	return preds, nil
}

// predictNewPoints answers for the points of --features, named by their
// ids (or row numbers).
func predictNewPoints(ctx context.Context, opts predictOptions, s *savedmodel.Saved) ([]serve.Prediction, error) {
	t, err := readFeatures("features", opts.Features, "")
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	r, c := t.X.Dims()
	pts := make([][]float64, r)
	for i := range pts {
		pts[i] = t.X.RawRowView(i)[:c:c]
	}
	preds, err := s.PredictPoints(ctx, pts)
	if err != nil {
		return nil, fmt.Errorf("predict: --features %s: %w", opts.Features, err)
	}
	for i := range preds {
		preds[i].ID = strconv.Itoa(i)
		if t.IDs != nil {
			preds[i].ID = t.IDs[i]
		}
	}
	return preds, nil
}

func printPredictSummary(w io.Writer, res predictResult) {
	fmt.Fprintf(w, "predict: %d predictions of the %s model %s (%s) written to %s", res.Predicted, res.Kind, res.Model, res.Input, res.Out)
	if res.NoEvidence > 0 {
		fmt.Fprintf(w, "; %d had no evidence and got the class prior", res.NoEvidence)
	}
	fmt.Fprintln(w)
}

// parseHeader reads --header.
func parseHeader(s string) (loaders.HeaderMode, error) {
	switch s {
	case "", "auto":
		return loaders.HeaderAuto, nil
	case "yes":
		return loaders.HeaderYes, nil
	case "no":
		return loaders.HeaderNo, nil
	}
	return 0, fmt.Errorf("--header %q is invalid: use auto, yes or no", s)
}

// readNewNodes reads an edge table of new nodes: every row must join
// exactly one fitted node (by its id in known) to a node that is not
// fitted; the new nodes come in the order of their first row.
func readNewNodes(path string, opt loaders.EdgeTableOptions, known *nodeids.Map) ([]serve.NewNode, error) {
	b := &nodeids.Builder{}
	et, err := loaders.ReadEdgeTable(path, opt, b)
	if err != nil {
		return nil, fmt.Errorf("--edges: %w", err)
	}
	m, perm := b.Finish()
	id := func(v int32) string {
		if perm != nil {
			v = perm[v]
		}
		return m.ID(int(v))
	}
	var nodes []serve.NewNode
	index := map[string]int{}
	for k := range et.Src {
		u, v := id(et.Src[k]), id(et.Dst[k])
		_, uKnown := known.Lookup(u)
		_, vKnown := known.Lookup(v)
		switch {
		case uKnown && vKnown:
			return nil, fmt.Errorf("--edges %s, line %d: %s and %s are both fitted nodes; each row joins a new node to a fitted one", path, et.Lines[k], u, v)
		case !uKnown && !vKnown:
			return nil, fmt.Errorf("--edges %s, line %d: neither %s nor %s is a fitted node of the model (%d nodes); each row joins a new node to a fitted one", path, et.Lines[k], u, v, known.Len())
		case uKnown:
			u, v = v, u
		}
		w := 1.0
		if et.W != nil {
			w = et.W[k]
		}
		if !(math.Abs(w) <= maxMagnitude) {
			return nil, fmt.Errorf("--edges %s, line %d: weight %g is beyond %g, where a new node's sum of weights overflows; %s", path, et.Lines[k], w, maxMagnitude, magnitudeHint)
		}
		i, ok := index[u]
		if !ok {
			i = len(nodes)
			index[u] = i
			nodes = append(nodes, serve.NewNode{ID: u})
		}
		nodes[i].Edges = append(nodes[i].Edges, serve.Edge{To: v, Weight: w})
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("--edges %s has no edge", path)
	}
	return nodes, nil
}

// predictionColumns returns the columns of a prediction table and a
// function filling one row.
func predictionColumns(meta serve.Metadata, preds []serve.Prediction) ([]string, func(r int, rec []any)) {
	if meta.Task == serve.Regression {
		cols := []string{"id", "prediction"}
		withVar := len(preds) > 0 && preds[0].Variance != nil
		if withVar {
			cols = append(cols, "variance")
		}
		return cols, func(r int, rec []any) {
			p := preds[r]
			rec[0] = p.ID
			if p.Mean != nil {
				rec[1] = *p.Mean
			}
			if withVar && p.Variance != nil {
				rec[2] = *p.Variance
			}
		}
	}
	if meta.Kind == spectral.SpectralClusteringKind {
		// As gssl cluster --out.
		return []string{"id", "cluster"}, func(r int, rec []any) { rec[0], rec[1] = preds[r].ID, preds[r].Label }
	}
	// Probabilities when the model has them (p_<class>, as labelprop and
	// stkr --out), else its scores (score_<class>, as falkon --out).
	prefix, scores := "p_", false
	if len(preds) > 0 && preds[0].Probabilities == nil && preds[0].Scores != nil {
		prefix, scores = "score_", true
	}
	cols := []string{"id", "predicted"}
	if meta.Kind == svm.PointSVCKind {
		// One decision value per one-vs-one machine, named as svm --out
		// names them when every class has training points.
		cols = append(cols, svmDecisionColumns(meta.Classes, preds)...)
	} else {
		for _, c := range meta.Classes {
			cols = append(cols, prefix+c)
		}
	}
	return cols, func(r int, rec []any) {
		p := preds[r]
		rec[0], rec[1] = p.ID, p.Label
		v := p.Probabilities
		if scores {
			v = p.Scores
		}
		for c, x := range v {
			rec[2+c] = x
		}
	}
}

// svmDecisionColumns names the decision values of a C-SVM's machines
// decision_<a>_vs_<b>, or decision_<k> when the model saw fewer classes
// than it has names for.
func svmDecisionColumns(classes []string, preds []serve.Prediction) []string {
	m := 0
	if len(preds) > 0 {
		m = len(preds[0].Scores)
	}
	var cols []string
	if c := len(classes); c*(c-1)/2 == m {
		for a := 0; a < c; a++ {
			for b := a + 1; b < c; b++ {
				cols = append(cols, "decision_"+classes[a]+"_vs_"+classes[b])
			}
		}
		return cols
	}
	for k := 0; k < m; k++ {
		cols = append(cols, "decision_"+strconv.Itoa(k))
	}
	return cols
}

// writeTableTo writes a table as CSV to w, with the cells of writeTable.
func writeTableTo(w io.Writer, cols []string, rows int, row func(r int, rec []any)) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(cols); err != nil {
		return err
	}
	rec := make([]any, len(cols))
	fields := make([]string, len(cols))
	for r := 0; r < rows; r++ {
		clear(rec)
		row(r, rec)
		for j, v := range rec {
			fields[j] = csvField(v)
		}
		if err := cw.Write(fields); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
