package main

import (
	"context"
	"fmt"
	"github.com/gssl/gssl/protocol"
	"io"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

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
	return newCommand("cluster", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runCluster(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// clusterResult is the JSON object of gssl cluster.
type clusterResult struct{ protocol.ClusterReport }

// runCluster clusters the graph (protocol.Cluster) and writes, plots and
// prints the report.
func runCluster(ctx context.Context, opts clusterOptions, stdout, stderr io.Writer) error {
	if opts.Clusters < 0 {
		return fmt.Errorf("cluster: --clusters %d is invalid: it must be ≥ 1 (0: the number of classes)", opts.Clusters)
	}
	spec := spectral.ClusteringSpec{Clusters: opts.Clusters, Restarts: opts.Restarts, Tol: opts.Tol, Isolated: opts.Isolated}
	if err := firstError(fieldFlagError(spec.Validate(), &opts), opts.Plots.check(), checkOutPath("out", opts.Out), checkOutPath("save", opts.Save)); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	v, load, err := loadComponentView(ctx, opts.In, opts.LCC, stderr)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	defer v.All.Close()
	sc, rep, err := protocol.ClusterModel(spec, v, opts.Seed)
	if err != nil {
		return fmt.Errorf("cluster: %w", fieldFlagError(err, &opts))
	}
	res := clusterResult{*rep}
	res.LoadSeconds = load
	logf(stderr, "cluster: %s: %d nodes, %d components, using %d nodes; %d clusters", res.Data, res.Nodes, res.Components, res.Used, res.Clusters)
	bar := newSteps(stderr, res.Clusters, "cluster")
	sc.Eigen.Progress = lanczosProgress(bar)
	err = protocol.Cluster(ctx, sc, v, &res.ClusterReport)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("cluster: %w", flagError(err))
	}
	if err := clusterWrite(opts, v, sc, &res); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if err := opts.Plots.write(stderr, "cluster", res, func() (picture, error) { return clusterPicture(ctx, v.DS, sc.Labels(), res, opts.Seed) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "cluster", res)
}

// clusterWrite writes --out (one row per node: its id and its cluster,
// empty outside the clustered component) and --save.
func clusterWrite(opts clusterOptions, v *protocol.ComponentView, sc *spectral.SpectralClustering, res *clusterResult) error {
	labels := sc.Labels()
	cluster := column{name: "cluster", value: func(node, row int) any {
		if v.Orig == nil {
			return labels[node]
		} else if row < 0 {
			return nil
		}
		return labels[row]
	}}
	var err error
	if res.Out, err = writeOut(opts.Out, func() error { return writeVectors(opts.Out, v.All, &mat.Dense{}, "", v.Orig, cluster) }); err != nil {
		return err
	}
	c := savedmodel.Context{IDs: v.DS.IDs, Data: v.Data}
	if res.Saved = opts.Save; opts.Save != "" && opts.In.Edges != "" && !opts.LCC {
		if c.GraphSHA256, err = modelfile.FileSHA256(opts.In.Edges); err != nil {
			return fmt.Errorf("--save %s: hashing the graph file: %w", opts.Save, err)
		}
	}
	return savePointModel(opts.Save, sc, c)
}

// loadComponentView loads the input and, with lcc, its largest component
// (protocol.ComponentView), and returns the seconds it took.
func loadComponentView(ctx context.Context, in nodeInput, lcc bool, stderr io.Writer) (*protocol.ComponentView, float64, error) {
	start := timeNow()
	all, err := in.load(ctx, stderr)
	if err != nil {
		return nil, 0, err
	}
	load := seconds(start)
	v, err := protocol.NewComponentView(all, in.source(), lcc)
	if err != nil {
		all.Close()
	}
	return v, load, err
}
