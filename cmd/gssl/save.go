package main

import (
	"fmt"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/savedmodel"
)

// saveModel writes a fitted model with the data set's ids and class names
// (--save), atomically; gssl predict, model info and serve read it.
func saveModel(path string, m any, ds *loaders.NodeDataset, in nodeInput) error {
	sm, ok := m.(savedmodel.Model)
	if !ok {
		return fmt.Errorf("--save %s: a %T cannot be saved", path, m)
	}
	c := savedmodel.Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: in.source()}
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

// savePointModel writes a fitted model of points (--save of gssl gp) with
// the standardisation of its targets.
func savePointModel(path string, m savedmodel.Model, data *regressionData) error {
	c := savedmodel.Context{Data: data.name, TargetMean: data.mean, TargetScale: data.scale}
	if err := savedmodel.Save(path, m, c); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}
