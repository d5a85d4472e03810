package main

import (
	"fmt"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/savedmodel"
)

// saveCalibrated writes a fitted model with the data set's ids and class
// names (--save) and, for a non-nil cal, the calibration of its
// probabilities and prediction sets, atomically; gssl predict, model info
// and serve read it. A model that predicts new points through the KNN
// graph it was fitted on keeps the graph's points (savedmodel.KeepsPoints).
func saveCalibrated(path string, m any, ds *loaders.NodeDataset, in nodeInput, cal *confidence.Calibration) error {
	sm, ok := m.(savedmodel.Model)
	if !ok {
		return fmt.Errorf("--save %s: a %T cannot be saved", path, m)
	}
	c, err := savedmodel.NodeContext(ds, in.source(), in.Edges, cal)
	if err == nil && savedmodel.KeepsPoints(sm) && in.built != nil {
		c.Points, err = in.built.pointsOf(ds)
	}
	if err != nil {
		return fmt.Errorf("--save %s: %w", path, err)
	}
	if err := savedmodel.Save(path, sm, c); err != nil {
		return fmt.Errorf("--save %w", err)
	}
	return nil
}
