package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/spectral"
)

type clusterOptions struct {
	Data     string // node folder, Matrix Market file or edge list
	Labels   string // optional labels file for graphs given as files
	K        int    // clusters (0: the number of classes)
	Restarts int    // k-means restarts
	Tol      float64
	Seed     uint64
	Isolated string
	LCC      bool // restrict to the largest connected component
	JSON     bool
}

func init() { register(newClusterCommand) }

func newClusterCommand(g *globals) *cobra.Command {
	opts := clusterOptions{}
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Spectral clustering (Ng–Jordan–Weiss) of a graph, scored by adjusted Rand index",
		Long: `cluster partitions the nodes of a graph into k clusters by the algorithm of Ng,
Jordan & Weiss (2001): the k eigenvectors of D^-1/2 W D^-1/2 for its largest
eigenvalues, rows scaled to unit length, k-means with k-means++ seeds and --restarts
restarts. It reports the adjusted Rand index of the clusters against the class labels
(nodes with label −1 are left out of the score). --data takes a node folder (labels
from labels.txt), a Matrix Market file or an edge list (labels from --labels).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				opts.Data = defaultCora()
			}
			return runCluster(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Data, "data", "", "node folder, Matrix Market file or edge list (default testdata/cora)")
	f.StringVar(&opts.Labels, "labels", "", "file of one label per node (−1: unknown), for graphs given as files")
	f.IntVar(&opts.K, "k", 0, "number of clusters (0: the number of classes)")
	f.IntVar(&opts.Restarts, "restarts", 10, "k-means++ restarts")
	f.Float64Var(&opts.Tol, "tol", 0, "eigenpair residual tolerance (0: 1e-10)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the eigensolver and of k-means")
	f.StringVar(&opts.Isolated, "isolated", "error", "nodes of degree 0: error, or zero (D^-1/2 := 0)")
	f.BoolVar(&opts.LCC, "lcc", true, "work on the largest connected component (on a graph with c components the first c eigenvectors only mark components)")
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
	Scored      int       `json:"scored_nodes"`
	Sizes       []int     `json:"sizes"`
	Eigenvalues []float64 `json:"eigenvalues"`
	Inertia     float64   `json:"inertia"`
	Seconds     float64   `json:"seconds"`
	LoadSeconds float64   `json:"load_seconds"`
}

func runCluster(ctx context.Context, opts clusterOptions, stdout, stderr io.Writer) error {
	if opts.K < 0 {
		return fmt.Errorf("--k %d is invalid: it must be ≥ 1 (0: the number of classes)", opts.K)
	}
	if opts.Restarts < 1 {
		return fmt.Errorf("--restarts %d is invalid: it must be ≥ 1", opts.Restarts)
	}
	iso, err := isolatedPolicy(opts.Isolated)
	if err != nil {
		return err
	}
	loadStart := timeNow()
	data, err := loadGraphData(opts.Data, opts.Labels)
	if err != nil {
		return err
	}
	res := clusterResult{Data: opts.Data, Nodes: data.graph.Nodes(), Clusters: opts.K, LoadSeconds: seconds(loadStart)}
	_, res.Components = data.graph.Components()
	res.LCC, res.Used = opts.LCC, res.Nodes
	if opts.LCC {
		if res.Used, err = data.largestComponent(); err != nil {
			return err
		}
	}
	for _, l := range data.labels {
		res.Classes = max(res.Classes, l+1)
	}
	if res.Clusters == 0 {
		if res.Classes == 0 {
			return errors.New("--k is needed: the data set has no labels to take the number of classes from")
		}
		res.Clusters = res.Classes
	}
	logf(stderr, "cluster: %s: %d nodes, %d components, using %d nodes; %d clusters", opts.Data, res.Nodes, res.Components, res.Used, res.Clusters)
	start := timeNow()
	sc := &spectral.SpectralClustering{Clusters: res.Clusters, Isolated: iso,
		Eigen:  spectral.Settings{Tol: opts.Tol, Seed: opts.Seed},
		KMeans: spectral.KMeansSettings{Restarts: opts.Restarts, Seed: opts.Seed}}
	if err := sc.Fit(ctx, data.graph); err != nil {
		return err
	}
	res.Seconds = seconds(start)
	res.Eigenvalues, res.Inertia = sc.Eigenvalues(), sc.Inertia()
	res.Sizes = make([]int, res.Clusters)
	for _, c := range sc.Labels() {
		res.Sizes[c]++
	}
	if data.labels != nil {
		var pred, truth []int
		for i, l := range data.labels {
			if l >= 0 {
				pred = append(pred, sc.Labels()[i])
				truth = append(truth, l)
			}
		}
		res.Scored = len(truth)
		ari, err := eval.AdjustedRandIndex(pred, truth)
		if err != nil {
			return err
		}
		res.ARI = finite(ari)
	}
	return report(stdout, opts.JSON, res, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %d nodes, %d components, %d classes; %d nodes used (largest component: %v)\n", res.Data, res.Nodes, res.Components, res.Classes, res.Used, res.LCC)
		fmt.Fprintf(w, "spectral clustering into %d clusters, sizes %v\n", res.Clusters, res.Sizes)
		if res.ARI != nil {
			fmt.Fprintf(w, "adjusted Rand index %.4f (%d labelled nodes)\n", res.ARI, res.Scored)
		}
		fmt.Fprintf(w, "%.3f s (load %.3f s)\n", res.Seconds, res.LoadSeconds)
	})
}
