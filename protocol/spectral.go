package protocol

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/spectral"
)

// ComponentView is a node data set and, with LCC, its largest connected
// component (the first on ties): the graph gssl embed and cluster work on.
type ComponentView struct {
	All, DS    *loaders.NodeDataset // as loaded, and the graph worked on
	Orig       []int                // the node of All of each node of DS; nil without LCC
	Data       string               // the name of the input
	Nodes      int                  // of All
	Components int                  // of All
	LCC        bool
}

// NewComponentView is the view of all, restricted to its largest
// component when lcc is set.
func NewComponentView(all *loaders.NodeDataset, data string, lcc bool) (*ComponentView, error) {
	v := &ComponentView{All: all, DS: all, Data: data, Nodes: all.Graph.Nodes(), LCC: lcc}
	_, v.Components = all.Graph.Components()
	if lcc {
		sub, err := all.Graph.LargestComponent()
		if err != nil {
			return nil, err
		}
		v.DS, v.Orig = all.Restrict(sub), sub.Original
	}
	return v, nil
}

// Notes is the note on a graph of several components worked on whole:
// what says what they do to the result.
func (v *ComponentView) Notes(what string) []string {
	if v.Orig != nil || v.Components <= 1 {
		return nil
	}
	return []string{fmt.Sprintf("the graph has %d connected components, and %s", v.Components, what)}
}

// ViewReport are the fields every report on a ComponentView starts with.
type ViewReport struct {
	Data       string `json:"data"`
	Nodes      int    `json:"nodes"`
	Components int    `json:"components"`
	LCC        bool   `json:"lcc"`
	Used       int    `json:"nodes_used"`
}

// report is the view's part of a report.
func (v *ComponentView) report() ViewReport {
	return ViewReport{Data: v.Data, Nodes: v.Nodes, Components: v.Components, LCC: v.LCC, Used: v.DS.Graph.Nodes()}
}

// ClusterReport is spectral clustering of a ComponentView scored against
// its labels (Cluster): the JSON object of gssl cluster.
type ClusterReport struct {
	ViewReport
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

// ClusterModel is the clustering spec describes on v: spec.Clusters, or
// the number of classes when it is 0, seeded by seed.
func ClusterModel(spec spectral.ClusteringSpec, v *ComponentView, seed uint64) (*spectral.SpectralClustering, *ClusterReport, error) {
	res := &ClusterReport{ViewReport: v.report(), Clusters: cmp.Or(spec.Clusters, v.All.Classes), Classes: v.All.Classes,
		Notes: v.Notes("the first eigenvectors only mark them; --lcc clusters the largest")}
	if res.Clusters == 0 {
		return nil, nil, errors.New("--clusters is needed: the data set has no labels to take the number of classes from")
	}
	spec.Clusters = res.Clusters
	sc, err := spec.Model(res.Used, seed)
	return sc, res, err
}

// Cluster fits sc on the graph of v and scores its clusters against the
// labels (eval.ScoreClusters). k-means stopped at its cap keeps its
// partition, with a note.
func Cluster(ctx context.Context, sc *spectral.SpectralClustering, v *ComponentView, res *ClusterReport) error {
	start := time.Now()
	err := sc.Fit(ctx, estimator.Nodes{Graph: v.DS.Graph})
	if nc := (*estimator.NotConvergedError)(nil); err != nil && (!errors.As(err, &nc) || sc.Labels() == nil) {
		return err
	} else if err != nil {
		res.Notes = append(res.Notes, err.Error())
	}
	res.Seconds = time.Since(start).Seconds()
	res.Eigenvalues, res.Inertia = sc.Eigenvalues(), sc.Inertia()
	score := eval.ScoreClusters(sc.Labels(), v.DS.Labels, res.Clusters)
	if res.Sizes, res.Scored, res.ARI = score.Sizes, score.Scored, score.ARI; math.IsNaN(score.ARI) || math.IsInf(score.ARI, 0) {
		res.ARI, res.ARIReason = nil, "no labelled node to score (give --labels), or the score is undefined"
	}
	return nil
}

// EmbedReport is a Laplacian eigenmap of a ComponentView (Embed): the
// JSON object of gssl embed.
type EmbedReport struct {
	ViewReport
	Dim         int       `json:"dim"`
	Eigenvalues []float64 `json:"eigenvalues"`
	Classes     int       `json:"classes"`
	Plot        string    `json:"plot,omitempty"`
	Out         string    `json:"out,omitempty"`
	Notes       []string  `json:"notes,omitempty"`
	Seconds     float64   `json:"seconds"`
	LoadSeconds float64   `json:"load_seconds"`
}

// EmbedModel is the eigenmap spec describes on v, seeded by seed.
func EmbedModel(spec spectral.EigenmapSpec, v *ComponentView, seed uint64) (*spectral.LaplacianEigenmap, *EmbedReport, error) {
	res := &EmbedReport{ViewReport: v.report(), Dim: spec.Dim, Classes: v.All.Classes}
	e, err := spec.Model(res.Used, seed)
	res.Notes = v.Notes("the first coordinates only mark them; --lcc embeds the largest")
	return e, res, err
}

// Embed fits e on the graph of v.
func Embed(ctx context.Context, e *spectral.LaplacianEigenmap, v *ComponentView, res *EmbedReport) error {
	start := time.Now()
	if err := e.Fit(ctx, estimator.Nodes{Graph: v.DS.Graph}); err != nil {
		return err
	}
	res.Seconds, res.Eigenvalues = time.Since(start).Seconds(), e.Eigenvalues()
	return nil
}
