package protocol

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
)

// CheckSave refuses to save a classifier whose model has no file format:
// every classifier but stkr saves (sgc, appnp, appnp-net, correct-smooth,
// channels, sepgnn, linkx, linbp, and whichever auto chooses: one of those).
func (s NodeClassSpec) CheckSave() error {
	if s.Classifier == "stkr" {
		return fmt.Errorf("--save works with --classifier sgc, appnp, appnp-net, correct-smooth, channels, sepgnn, linkx, linbp and auto; the STKR adapter is not saved (gssl stkr --save saves STKR)")
	}
	return nil
}

// Nodes returns the nodes of ds with their features (an error names
// source when it has none) and, with Embed > 0, the Embed eigenmap
// coordinates of the graph appended (nodeclass.WithEmbedding).
func (s NodeClassSpec) Nodes(ctx context.Context, ds *loaders.NodeDataset, source string) (estimator.Nodes, error) {
	if ds.Features == nil && ds.DenseFeatures == nil {
		return estimator.Nodes{}, fmt.Errorf("%s has no node features: give --features FILE (or a folder with features.txt.gz); the graph-only classifiers are gssl labelprop and gssl stkr", source)
	}
	x := nodeclass.Features{Sparse: ds.Features, Dense: ds.DenseFeatures}
	if s.Embed > 0 {
		var err error
		if x, err = nodeclass.WithEmbedding(ctx, ds.Graph, x, nodeclass.RowSum, s.Embed, 1); err != nil {
			return estimator.Nodes{}, err
		}
	}
	return estimator.Nodes{Graph: ds.Graph, Features: nodeclass.Matrix(x)}, nil
}

// Auto returns, for the classifier auto, the search the homophily of the
// training labels of seed's split of ds calls for (NodeClassAuto) and
// why; for the others, search unchanged.
func (s NodeClassSpec) Auto(search eval.NodeSearch, ds *loaders.NodeDataset, splits *eval.Splitter, seed uint64) (eval.NodeSearch, string, error) {
	if s.Classifier != "auto" {
		return search, "", nil
	}
	sp, _, err := splits.Split(seed)
	if err != nil {
		return eval.NodeSearch{}, "", fmt.Errorf("--split: %w", err)
	}
	search, _, why, err := NodeClassAuto(ds.Graph, sp.TrainingLabels(ds.Labels), s.Embed > 0)
	return search, why, err
}

// EvaluateNodeClass runs search on x over seeds (NodeClassSeeds') of
// splits of ds, cross-validating with folds where a
// split has no validation nodes; done, when set, is told the runs
// finished.
func EvaluateNodeClass(ctx context.Context, search eval.NodeSearch, ds *loaders.NodeDataset, x estimator.Nodes, splits *eval.Splitter, seeds []uint64, folds int, done func(finished, runs int)) ([]eval.NodeRun, error) {
	return eval.EvaluateSeeds(ctx, eval.NodeSeeds{Search: search, Seeds: seeds,
		Split: func(seed uint64) (eval.Split, error) {
			sp, _, err := splits.Split(seed)
			return sp, err
		},
		CV: func(seed uint64, sp eval.Split) eval.CV {
			return eval.CV{Folds: folds, Seed: seed, Order: ds.IDOrder(sp.Train)}
		},
		Done: func(finished int) {
			if done != nil {
				done(finished, len(seeds))
			}
		}}, x, ds.Labels)
}
