package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/persist"
)

// fitOptions are gssl fit's flags.
type fitOptions struct {
	Kind string   // a node classifier's kind in package persist's registry
	Set  []string // Field=value hyperparameters
	Save string
	Out  string
	JSON bool
	In   nodeInput
}

func newFitCommand(g *globals) *cobra.Command {
	opts := fitOptions{}
	cmd := &cobra.Command{
		Use:   "fit",
		Short: "Fit any registered node classifier by its kind, save it for predict and serve",
		Long: `fit fits the node classifier named by --kind (any kind of gssl's model registry
that classifies the nodes of a graph; without --kind the error lists them) on the
graph and labels of the node-level input flags, with its hyperparameters at their
defaults or as --set Field=value gives them (the model's exported field, by its Go
or snake_case name; the model checks every value). --out writes the predicted
class and scores of every node; --save writes the model for gssl predict and
gssl serve.

  gssl fit --kind labelprop.Spreading --set Alpha=0.9 --edges e.csv --labels l.csv --save m.gssl`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runFit(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Kind, "kind", "", "the model's kind, e.g. labelprop.Spreading (list: the kinds)")
	f.StringArrayVar(&opts.Set, "set", nil, "a hyperparameter as Field=value (repeatable)")
	f.StringVar(&opts.Save, "save", "", "write the fitted model (.gssl) for gssl predict and gssl serve")
	f.StringVar(&opts.Out, "out", "", "write every node's predicted class and scores: CSV, or JSON Lines for .jsonl/.ndjson")
	opts.In.addFlags(f)
	return cmd
}

// fitResult is gssl fit's JSON object.
type fitResult struct {
	Kind      string         `json:"kind"`
	Data      string         `json:"data"`
	Nodes     int            `json:"nodes"`
	Labelled  int            `json:"labelled"`
	Classes   int            `json:"classes"`
	Predicted map[string]int `json:"predicted"` // nodes per predicted class name
	Info      estimator.Info `json:"info"`
	Saved     string         `json:"saved,omitempty"`
	Out       string         `json:"out,omitempty"`
}

func runFit(ctx context.Context, opts fitOptions, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	m, err := fitModel(opts)
	if err != nil {
		return err
	}
	for _, p := range [][2]string{{"save", opts.Save}, {"out", opts.Out}} {
		if err := checkOutPath(p[0], p[1]); err != nil {
			return fmt.Errorf("fit: %w", err)
		}
	}
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return err
	}
	defer ds.Close()
	if err := needLabels(ds); err != nil {
		return err
	}
	nodes := estimator.Nodes{Graph: ds.Graph}
	if ds.DenseFeatures != nil {
		nodes.Features = ds.DenseFeatures
	} else if ds.Features != nil {
		nodes.Features = ds.Features
	}
	if err := m.Fit(ctx, nodes, ds.Labels); err != nil {
		return fmt.Errorf("fit: %s: %w", opts.Kind, err)
	}
	scores, err := m.Predict(ctx, estimator.FittedNodes)
	if err != nil {
		return fmt.Errorf("fit: %s: %w", opts.Kind, err)
	}
	_, classes := scores.Dims()
	res := fitResult{Kind: opts.Kind, Data: opts.In.source(), Nodes: ds.Graph.Nodes(), Classes: classes, Predicted: map[string]int{}, Info: m.Info()}
	pred := estimator.Argmax(scores)
	for i, c := range pred {
		res.Predicted[className(ds, c)]++
		if ds.Labels[i] >= 0 {
			res.Labelled++
		}
	}
	if opts.Out != "" {
		cols := []string{"id", "predicted"}
		for c := 0; c < classes; c++ {
			cols = append(cols, "score_"+className(ds, c))
		}
		err := writeTable(opts.Out, cols, len(pred), func(r int, rec []any) {
			rec[0], rec[1] = nodeID(ds, r), className(ds, pred[r])
			for c := 0; c < classes; c++ {
				rec[2+c] = scores.At(r, c)
			}
		})
		if err != nil {
			return fmt.Errorf("fit: %w", err)
		}
		res.Out = opts.Out
	}
	if opts.Save != "" {
		if err := saveModel(opts.Save, m, ds, opts.In); err != nil {
			return err
		}
		res.Saved = opts.Save
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "fit: %s on %s: %d nodes, %d labelled, %d classes", res.Kind, res.Data, res.Nodes, res.Labelled, res.Classes)
		if res.Saved != "" {
			fmt.Fprintf(w, "; saved to %s", res.Saved)
		}
		fmt.Fprintln(w)
	})
}

// nodeClassifierKinds lists the registered kinds that classify nodes.
func nodeClassifierKinds() []string {
	var out []string
	for _, k := range persist.Kinds() {
		if m, err := persist.New(k); err == nil {
			if _, ok := m.(estimator.NodeClassifier); ok {
				out = append(out, k)
			}
		}
	}
	return out
}

// fitModel returns the unfitted model of --kind with --set applied.
func fitModel(opts fitOptions) (estimator.NodeClassifier, error) {
	kinds := nodeClassifierKinds()
	if opts.Kind == "" {
		return nil, usageError{fmt.Errorf("fit: --kind is required: one of %s", strings.Join(kinds, ", "))}
	}
	pm, err := persist.New(opts.Kind)
	if err != nil {
		return nil, fmt.Errorf("fit: --kind: %w", err)
	}
	m, ok := pm.(estimator.NodeClassifier)
	if !ok {
		return nil, fmt.Errorf("fit: --kind %s is not a node classifier (gssl fit fits %s); use its own command", opts.Kind, strings.Join(kinds, ", "))
	}
	for _, s := range opts.Set {
		if err := setField(m, s); err != nil {
			return nil, fmt.Errorf("fit: --set %s: %w", s, err)
		}
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("fit: --set: %w", err)
	}
	return m, nil
}

// setField sets the exported field of m named by "Field=value" (the Go
// name or its snake_case form, any case) to value: a number, a bool or a
// string. Fields of other types are refused by name.
func setField(m any, s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return errors.New("want Field=value")
	}
	v := reflect.ValueOf(m).Elem()
	t := v.Type()
	key := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() || !settable(f.Type.Kind()) {
			continue
		}
		names = append(names, f.Name)
		if strings.ToLower(f.Name) != key {
			continue
		}
		fv := v.Field(i)
		var err error
		switch f.Type.Kind() {
		case reflect.Float64, reflect.Float32:
			var x float64
			if x, err = strconv.ParseFloat(value, 64); err == nil {
				fv.SetFloat(x)
			}
		case reflect.Int, reflect.Int64, reflect.Int32:
			var x int64
			if x, err = strconv.ParseInt(value, 10, 64); err == nil && fv.OverflowInt(x) {
				err = errors.New("out of range")
			} else if err == nil {
				fv.SetInt(x)
			}
		case reflect.Uint64, reflect.Uint32, reflect.Uint:
			var x uint64
			if x, err = strconv.ParseUint(value, 10, 64); err == nil && fv.OverflowUint(x) {
				err = errors.New("out of range")
			} else if err == nil {
				fv.SetUint(x)
			}
		case reflect.Bool:
			var x bool
			if x, err = strconv.ParseBool(value); err == nil {
				fv.SetBool(x)
			}
		case reflect.String:
			fv.SetString(value)
		}
		if err != nil {
			return fmt.Errorf("%s is a %s: %q is not one", f.Name, f.Type, value)
		}
		return nil
	}
	return fmt.Errorf("%s has no field %q that the command line sets; it has %s", t.Name(), name, strings.Join(names, ", "))
}

func settable(k reflect.Kind) bool {
	switch k {
	case reflect.Float64, reflect.Float32, reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32, reflect.Uint, reflect.Bool, reflect.String:
		return true
	}
	return false
}
