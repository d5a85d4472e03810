package main

import (
	"fmt"
	"math"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/loaders"
)

// maxMagnitude bounds the weights, degrees, features and targets the
// commands accept.
const maxMagnitude = estimator.MaxMagnitude

// magnitudeHint is what to do about a value beyond maxMagnitude.
const magnitudeHint = "divide the column by a common factor (label spreading, the harmonic function and the normalised Laplacians do not change when every weight is scaled alike)"

// checkFiniteDataset refuses edge weights, degrees, features and targets
// that are beyond maxMagnitude, naming the node (and column) of the first.
func checkFiniteDataset(ds *loaders.NodeDataset) error {
	if ds == nil {
		return nil
	}
	if g := ds.Graph; g != nil {
		deg := g.Degrees()
		for i, d := range deg {
			if !(math.Abs(d) <= maxMagnitude) {
				return fmt.Errorf("node %s: its edge weights sum to %g, beyond %g where sums and products overflow; %s", nodeID(ds, i), d, maxMagnitude, magnitudeHint)
			}
		}
	}
	if x := ds.DenseFeatures; x != nil {
		r, c := x.Dims()
		for i := 0; i < r; i++ {
			for j, v := range x.RawRowView(i)[:c] {
				if !(math.Abs(v) <= maxMagnitude) {
					return fmt.Errorf("--features: node %s, column %d: %g is beyond %g, where distances and norms overflow; scale the features", nodeID(ds, i), j+1, v, maxMagnitude)
				}
			}
		}
	}
	if x := ds.Features; x != nil {
		for i := 0; i < x.Rows; i++ {
			cols, vals := x.Row(i)
			for k, v := range vals {
				if !(math.Abs(v) <= maxMagnitude) {
					return fmt.Errorf("--features: node %s, column %d: %g is beyond %g, where distances and norms overflow; scale the features", nodeID(ds, i), cols[k]+1, v, maxMagnitude)
				}
			}
		}
	}
	for i, v := range ds.Targets {
		if !math.IsNaN(v) && !(math.Abs(v) <= maxMagnitude) {
			return fmt.Errorf("--targets: node %s: %g is beyond %g, where squared errors overflow; scale the targets", nodeID(ds, i), v, maxMagnitude)
		}
	}
	return nil
}
