package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/spectral"
)

// clusterOptions are the flags of gssl cluster (help/cluster.md).
type clusterOptions struct {
	In       nodeInput
	Clusters int     `flag:"clusters"`
	Restarts int     `flag:"restarts"`
	Tol      float64 `flag:"tol"`
	Seed     uint64  `flag:"seed"`
	Isolated string  `flag:"isolated"`
	LCC      bool    `flag:"lcc"`
	Out      string  `flag:"out"`
	Save     string  `flag:"save"`
	Plots    plotFlags
	JSON     bool
}

func newClusterCommand(g *globals) *cobra.Command {
	opts := clusterOptions{In: newNodeInput(), Restarts: spectral.DefaultKMeansRestarts, Isolated: "component"}
	cmd := newCommand("cluster", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runCluster(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	return cmd
}

// clusterResult is the JSON object of gssl cluster.
type clusterResult struct {
	Data        string    `json:"data"`
	Nodes       int       `json:"nodes"`
	Components  int       `json:"components"`
	LCC         bool      `json:"lcc"`
	Used        int       `json:"nodes_used"`
	Clusters    int       `json:"clusters"`
	Classes     int       `json:"classes"`
	ARI         any       `json:"ari"`
	ARIReason   string    `json:"ari_reason,omitempty"`
	Scored      int       `json:"scored_nodes"`
	Sizes       []int     `json:"sizes"`
	Eigenvalues []float64 `json:"eigenvalues"`
	Inertia     float64   `json:"inertia"`
	Out         string    `json:"out,omitempty"`
	Saved       string    `json:"saved,omitempty"`
	Notes       []string  `json:"notes,omitempty"`
	Seconds     float64   `json:"seconds"`
	LoadSeconds float64   `json:"load_seconds"`
}

func runCluster(ctx context.Context, opts clusterOptions, stdout, stderr io.Writer) error {
	if opts.Clusters < 0 {
		return fmt.Errorf("cluster: --clusters %d is invalid: it must be ≥ 1 (0: the number of classes)", opts.Clusters)
	}
	spec := spectral.ClusteringSpec{Clusters: opts.Clusters, Restarts: opts.Restarts, Tol: opts.Tol, Isolated: opts.Isolated}
	if err := firstError(fieldFlagError(spec.Validate(), &opts), opts.Plots.check(), checkOutPath("out", opts.Out), checkOutPath("save", opts.Save)); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	v, err := loadComponentView(ctx, opts.In, opts.LCC, stderr)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	defer v.all.Close()
	res := clusterResult{Data: v.data, Nodes: v.nodes, Components: v.components, LCC: opts.LCC, Used: v.used, Clusters: cmp.Or(opts.Clusters, v.all.Classes),
		Classes: v.all.Classes, LoadSeconds: v.loadSeconds, Notes: v.notes("the first eigenvectors only mark them; --lcc clusters the largest")}
	if res.Clusters == 0 {
		return errors.New("cluster: --clusters is needed: the data set has no labels to take the number of classes from")
	}
	spec.Clusters = res.Clusters
	sc, err := spec.Model(res.Used, opts.Seed)
	if err != nil {
		return fmt.Errorf("cluster: %w", fieldFlagError(err, &opts))
	}
	logf(stderr, "cluster: %s: %d nodes, %d components, using %d nodes; %d clusters", res.Data, res.Nodes, res.Components, res.Used, res.Clusters)
	start := timeNow()
	bar := newSteps(stderr, res.Clusters, "cluster")
	sc.Eigen.Progress = lanczosProgress(bar)
	err = sc.Fit(ctx, estimator.Nodes{Graph: v.ds.Graph})
	bar.Finish()
	if nc := (*estimator.NotConvergedError)(nil); err != nil && (!errors.As(err, &nc) || sc.Labels() == nil) {
		return fmt.Errorf("cluster: %w", flagError(err))
	} else if err != nil {
		res.Notes = append(res.Notes, err.Error()) // k-means stopped at its cap: the partition is kept
	}
	res.Seconds = seconds(start)
	res.Eigenvalues, res.Inertia = sc.Eigenvalues(), sc.Inertia()
	score := eval.ScoreClusters(sc.Labels(), v.ds.Labels, res.Clusters)
	if res.Sizes, res.Scored, res.ARI = score.Sizes, score.Scored, finite(score.ARI); res.ARI == nil {
		res.ARIReason = "no labelled node to score (give --labels), or the score is undefined"
	}
	if err := clusterWrite(opts, v, sc, &res); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if err := opts.Plots.write(stderr, "cluster", res, func() (picture, error) { return clusterPicture(ctx, v.ds, sc.Labels(), res, opts.Seed) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "cluster", res)
}

// clusterWrite writes --out (one row per node: its id and its cluster,
// empty outside the clustered component) and --save.
func clusterWrite(opts clusterOptions, v *componentView, sc *spectral.SpectralClustering, res *clusterResult) error {
	labels := sc.Labels()
	cluster := column{name: "cluster", value: func(node, row int) any {
		if v.orig == nil {
			return labels[node]
		} else if row < 0 {
			return nil
		}
		return labels[row]
	}}
	var err error
	if res.Out, err = writeOut(opts.Out, func() error { return writeVectors(opts.Out, v.all, &mat.Dense{}, "", v.orig, cluster) }); err != nil {
		return err
	}
	res.Saved, err = writeOut(opts.Save, func() error {
		c := savedmodel.Context{IDs: v.ds.IDs, Data: v.data}
		if opts.In.Edges != "" && !opts.LCC {
			sum, err := modelfile.FileSHA256(opts.In.Edges)
			if err != nil {
				return fmt.Errorf("--save %s: hashing the graph file: %w", opts.Save, err)
			}
			c.GraphSHA256 = sum
		}
		if err := savedmodel.Save(opts.Save, sc, c); err != nil {
			return fmt.Errorf("--save %w", err)
		}
		return nil
	})
	return err
}

// componentView is a loaded graph and, with --lcc, its largest connected
// component (the first on ties), which embed and cluster work on.
type componentView struct {
	all, ds                 *loaders.NodeDataset // as loaded, and the graph worked on
	orig                    []int                // the node of all of each node of ds; nil without --lcc
	data                    string
	nodes, components, used int
	loadSeconds             float64
}

// loadComponentView loads the input and, with lcc, its largest component.
func loadComponentView(ctx context.Context, in nodeInput, lcc bool, stderr io.Writer) (*componentView, error) {
	start := timeNow()
	all, err := in.load(ctx, stderr)
	if err != nil {
		return nil, err
	}
	v := &componentView{all: all, ds: all, data: in.source(), nodes: all.Graph.Nodes(), loadSeconds: seconds(start)}
	_, v.components = all.Graph.Components()
	if lcc {
		sub, err := all.Graph.LargestComponent()
		if err != nil {
			all.Close()
			return nil, err
		}
		v.ds, v.orig = restrictDataset(all, sub), sub.Original
	}
	v.used = v.ds.Graph.Nodes()
	return v, nil
}

// notes is the note on a graph of several components worked on whole:
// what says what they do to the result.
func (v *componentView) notes(what string) []string {
	if v.orig != nil || v.components <= 1 {
		return nil
	}
	return []string{fmt.Sprintf("the graph has %d connected components, and %s", v.components, what)}
}
