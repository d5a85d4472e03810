package main

import (
	"fmt"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/savedmodel"
)

// saveModel writes a fitted model with the data set's ids and class names
// (--save), atomically; gssl predict, model info and serve read it.
func saveModel(path string, m any, ds *loaders.NodeDataset, in nodeInput) error {
	return saveCalibrated(path, m, ds, in, nil)
}

// saveCalibrated is saveModel with, for a non-nil cal, the calibration of
// the model's probabilities and prediction sets in the file; a model that
// predicts new points through the KNN graph it was fitted on keeps the
// graph's points (savedmodel.KeepsPoints).
func saveCalibrated(path string, m any, ds *loaders.NodeDataset, in nodeInput, cal *confidence.Calibration) error {
	sm, ok := m.(savedmodel.Model)
	if !ok {
		return fmt.Errorf("--save %s: a %T cannot be saved", path, m)
	}
	c := savedmodel.Context{IDs: ds.IDs, ClassNames: ds.ClassNames, Data: in.source(), Calibration: cal}
	var err error
	if savedmodel.KeepsPoints(sm) && in.built != nil {
		c.Points, err = in.built.pointsOf(ds)
	}
	if err == nil && in.Edges != "" {
		if c.GraphSHA256, err = modelfile.FileSHA256(in.Edges); err != nil {
			err = fmt.Errorf("hashing the graph file: %w", err)
		}
	}
	if err != nil {
		return fmt.Errorf("--save %s: %w", path, err)
	}
	if err := savedmodel.Save(path, sm, c); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}
