package main

import (
	"fmt"

	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/stkr"
)

// saveModel writes a fitted model with the data set's ids and class names
// (--save), atomically; gssl predict, model info and serve read it.
func saveModel(path string, m any, ds *loaders.NodeDataset, in nodeInput) error {
	sm, ok := m.(savedmodel.Model)
	if !ok {
		return fmt.Errorf("--save %s: a %T cannot be saved", path, m)
	}
	c := savedmodel.Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: in.source()}
	if keepsPoints(m) && in.built != nil {
		p, err := in.built.pointsOf(ds)
		if err != nil {
			return fmt.Errorf("--save %s: %w", path, err)
		}
		c.Points = p
	}
	if in.Edges != "" {
		sum, err := modelfile.FileSHA256(in.Edges)
		if err != nil {
			return fmt.Errorf("--save %s: hashing the graph file: %w", path, err)
		}
		c.GraphSHA256 = sum
	}
	if err := savedmodel.Save(path, sm, c); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}

// keepsPoints reports whether m predicts new points through the KNN graph
// it was fitted on (label propagation and STKR, which predict new nodes
// from their edges); gssl classify's models take a new node's features
// themselves.
func keepsPoints(m any) bool {
	switch m.(type) {
	case labelprop.Classifier, *stkr.Regressor, *stkr.Classifier:
		return true
	}
	return false
}
