package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/spectral"
)

type clusterOptions struct {
	In       nodeInput // the graph and optional labels (nothing: the embedded Cora)
	Clusters int       // clusters (0: the number of classes)
	Restarts int       // k-means restarts
	Tol      float64
	Seed     uint64
	Isolated string
	LCC      bool   // restrict to the largest connected component
	Out      string // cluster of every node, "" for none
	Save     string // model file (--save)
	JSON     bool
	Plots    plotFlags // --plot, --report
}

func newClusterCommand(g *globals) *cobra.Command {
	opts := clusterOptions{}
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Spectral clustering (Ng–Jordan–Weiss) of a graph, scored by adjusted Rand index",
		Long: `cluster partitions the nodes of a graph into k clusters by the algorithm of Ng,
Jordan & Weiss (2001): the k eigenvectors of D^-1/2 W D^-1/2 for its largest
eigenvalues, rows scaled to unit length, k-means with k-means++ seeds and --restarts
restarts. With labels it reports the adjusted Rand index of the clusters against the
classes (unlabelled nodes are left out of the score).

The graph comes from --data DIR or --edges FILE (with --labels FILE); without
either, the Cora embedded in gssl. On a graph with c components the first c
eigenvectors only mark components: --lcc clusters the largest one (the other nodes
get no cluster). --out FILE writes one row per node: its id and its cluster.`,
		Example: `  gssl cluster --lcc
  gssl cluster --edges edges.csv --clusters 5 --out clusters.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runCluster(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.In.addFlags(f)
	f.IntVar(&opts.Clusters, "clusters", 0, "number of clusters (0: the number of classes)")
	renamedFlag(cmd, "k", "clusters")
	f.IntVar(&opts.Restarts, "restarts", spectral.DefaultKMeansRestarts, "k-means++ restarts")
	f.Float64Var(&opts.Tol, "tol", 0, "eigenpair residual tolerance in (0, 1) (0: 1e-10)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the eigensolver and of k-means")
	f.StringVar(&opts.Isolated, "isolated", "component", "nodes of degree 0: component (own component, zero row: eigenvalue 0, as scipy and networkx), error, or zero (D^-1/2 := 0)")
	f.BoolVar(&opts.LCC, "lcc", false, "work on the largest connected component (the other nodes get no cluster)")
	f.StringVar(&opts.Out, "out", "", "write one row per node (id, cluster): CSV, or JSON Lines for .jsonl/.ndjson")
	f.StringVar(&opts.Save, "save", "", "save the fitted clustering for gssl predict (new nodes: --edges to clustered ids) and gssl serve")
	opts.Plots.addFlags(f, "the Laplacian eigenmap of the largest component coloured by cluster and, with labels, by class,")
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
	iso, err := opts.check()
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	loadStart := timeNow()
	all, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	defer all.Close()
	res := clusterResult{Data: opts.In.source(), Nodes: all.Graph.Nodes(), Clusters: opts.Clusters, Classes: all.Classes, LoadSeconds: seconds(loadStart)}
	ds, orig, err := componentView(all, opts.LCC)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if err := res.plan(all, ds, opts.LCC); err != nil {
		return err
	}
	logf(stderr, "cluster: %s: %d nodes, %d components, using %d nodes; %d clusters", res.Data, res.Nodes, res.Components, res.Used, res.Clusters)
	start := timeNow()
	bar := newSteps(stderr, res.Clusters, "cluster")
	sc := &spectral.SpectralClustering{Clusters: res.Clusters, Isolated: iso,
		Eigen:  spectral.Settings{Tol: opts.Tol, Seed: opts.Seed, Progress: lanczosProgress(bar)},
		KMeans: spectral.KMeansSettings{Restarts: opts.Restarts, Seed: opts.Seed}}
	err = sc.Fit(ctx, estimator.Nodes{Graph: ds.Graph})
	bar.Finish()
	if err != nil {
		var nc *estimator.NotConvergedError
		if !errors.As(err, &nc) || sc.Labels() == nil {
			return fmt.Errorf("cluster: %w", flagError(err))
		}
		// k-means stopped at its cap: the partition is kept and reported.
		res.Notes = append(res.Notes, err.Error())
	}
	res.Seconds = seconds(start)
	res.Eigenvalues, res.Inertia = sc.Eigenvalues(), sc.Inertia()
	score := eval.ScoreClusters(sc.Labels(), ds.Labels, res.Clusters)
	res.Sizes, res.Scored, res.ARI = score.Sizes, score.Scored, finite(score.ARI)
	if res.ARI == nil {
		res.ARIReason = "no labelled node to score (give --labels), or the score is undefined"
	}
	if err := clusterWrite(ctx, opts, all, ds, orig, sc, &res, stderr); err != nil {
		return err
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) { printCluster(w, res) })
}

// plan fills in the graph's components and the nodes and clusters used
// (--clusters 0: the number of classes).
func (res *clusterResult) plan(all, ds *loaders.NodeDataset, lcc bool) error {
	_, res.Components = all.Graph.Components()
	res.LCC, res.Used = lcc, ds.Graph.Nodes()
	if res.Clusters == 0 {
		if res.Classes == 0 {
			return errors.New("cluster: --clusters is needed: the data set has no labels to take the number of classes from")
		}
		res.Clusters = res.Classes
	}
	if res.Clusters > res.Used {
		return fmt.Errorf("cluster: --clusters %d is invalid: it must be in [1, %d] (the number of nodes)", res.Clusters, res.Used)
	}
	if !lcc && res.Components > 1 {
		res.Notes = append(res.Notes, fmt.Sprintf("the graph has %d connected components, and the first eigenvectors only mark them; --lcc clusters the largest", res.Components))
	}
	return nil
}

// clusterWrite writes --out, --save and the plots.
func clusterWrite(ctx context.Context, opts clusterOptions, all, ds *loaders.NodeDataset, orig []int, sc *spectral.SpectralClustering, res *clusterResult, stderr io.Writer) error {
	if opts.Out != "" {
		if err := writeClusters(opts.Out, all, sc.Labels(), orig); err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
		res.Out = opts.Out
	}
	if opts.Save != "" {
		c := savedmodel.Context{IDs: ds.IDs, Data: opts.In.source()}
		if opts.In.Edges != "" && !opts.LCC {
			sum, err := modelfile.FileSHA256(opts.In.Edges)
			if err != nil {
				return fmt.Errorf("cluster: --save %s: hashing the graph file: %w", opts.Save, err)
			}
			c.GraphSHA256 = sum
		}
		if err := savedmodel.Save(opts.Save, sc, c); err != nil {
			return fmt.Errorf("cluster: --save %w", err)
		}
		res.Saved = opts.Save
	}
	return opts.Plots.write(stderr, "cluster", *res, func() (picture, error) { return clusterPicture(ctx, ds, sc.Labels(), *res, opts.Seed) })
}

// check validates the flags that need no data.
func (opts clusterOptions) check() (laplacian.IsolatedPolicy, error) {
	if opts.Clusters < 0 {
		return 0, fmt.Errorf("--clusters %d is invalid: it must be ≥ 1 (0: the number of classes)", opts.Clusters)
	}
	if err := checkBounded("restarts", opts.Restarts, 1, maxIterations, " (k-means++ restarts)"); err != nil {
		return 0, err
	}
	if err := checkTol(opts.Tol); err != nil {
		return 0, err
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return 0, err
	}
	if err := checkOutPath("save", opts.Save); err != nil {
		return 0, err
	}
	return isolatedPolicy(opts.Isolated)
}
