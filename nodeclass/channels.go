package nodeclass

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/dense"
)

// NeighbourMean writes into dst (n×d, allocated when nil) the weighted mean
// of each node's neighbours' rows of src, the node itself left out:
//
//	dst_i = Σ_{j≠i} w_ij src_j / Σ_{j≠i} w_ij
//
// (S src with S = D⁻¹A and A without self loops). A node without neighbours
// gets a zero row.
func NeighbourMean(g *graph.CSR, src, dst *mat.Dense) *mat.Dense {
	n, d := src.Dims()
	if n != g.Nodes() {
		panic(fmt.Sprintf("nodeclass: %d feature rows for a graph of %d nodes", n, g.Nodes()))
	}
	if dst == nil {
		dst = mat.NewDense(n, d, nil)
	}
	for i := 0; i < n; i++ {
		out := dst.RawRowView(i)
		clear(out)
		cols, ws := g.Row(i)
		mass := 0.0
		for k, j := range cols {
			if int(j) == i {
				continue
			}
			mass += ws[k]
			row := src.RawRowView(int(j))
			for c, v := range row {
				out[c] += ws[k] * v
			}
		}
		if mass > 0 {
			for c := range out {
				out[c] /= mass
			}
		}
	}
	return dst
}

// LabelRows returns the n×classes one-hot rows of the labelled nodes
// (label ≥ 0), zero rows for the others.
func LabelRows(labels []int, classes int) (*mat.Dense, error) {
	y := mat.NewDense(len(labels), classes, nil)
	for i, k := range labels {
		if k >= classes {
			return nil, fmt.Errorf("nodeclass: node %d has label %d: labels must be below the %d classes", i, k, classes)
		}
		if k >= 0 {
			y.Set(i, k, 1)
		}
	}
	return y, nil
}

// Channels returns the separate ego and neighbour channels of the nodes,
// side by side (Zhu et al. 2020's ego/neighbour separation; Sun et al.,
// "Adaptive graph diffusion networks", and Platonov et al. 2023 keep
// them apart for heterophily):
//
//	[X, S X, S² X, S Y, S² Y − R Y, log(1 + d)]
//
// with S = D⁻¹A (the neighbour mean without self, NeighbourMean), Y the
// one-hot training labels (LabelRows of labels), R = diag(S²) the weight
// of the two-step walks that return to their start (R_ii = Σ_{j≠i} S_ij
// S_ji), and d_i = Σ_{j≠i} w_ij the node's degree without its self loop.
// S² Y alone would hand each training node its own label back through
// its neighbours, a signal the test nodes do not have; S² Y − R Y keeps
// only the two-step walks that end at another node, so no node's label
// enters its own row (the label trick of Wang et al., "Bag of Tricks for
// Node Classification with Graph Neural Networks", 2021, without its
// random masks). The channels are then scaled over all nodes, which uses
// no labels: each of X, SX and S²X is centred and divided by one scale so
// that its rows have mean squared norm 1, its columns keeping their
// relative weights (CentreScale: a rare word, or a trailing singular
// direction of Reduce, stays quieter than a common one, as in the
// features); the 2·classes + 1 label and degree columns are standardised
// one by one and then share the same unit mean squared norm. Each channel
// thus enters the perceptron at the same total scale, whatever d. The
// result is n × (3d + 2·classes + 1).
func Channels(ctx context.Context, g *graph.CSR, x Features, labels []int, classes int) (*mat.Dense, error) {
	n, d := x.Dims()
	if n != g.Nodes() || len(labels) != n {
		return nil, fmt.Errorf("nodeclass: channels need one feature row and one label per node: %d nodes, %d feature rows, %d labels", g.Nodes(), n, len(labels))
	}
	var xd *mat.Dense
	switch {
	case x.Dense != nil:
		xd = x.Dense
	case x.Sparse != nil:
		xd = x.Sparse.Dense(nil)
	default:
		return nil, fmt.Errorf("nodeclass: channels need node features")
	}
	y, err := LabelRows(labels, classes)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(n, 3*d+2*classes+1, nil)
	block := func(lo, w int) *mat.Dense { return out.Slice(0, n, lo, lo+w).(*mat.Dense) }
	block(0, d).Copy(xd)
	cancelled := func() error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("nodeclass: channels cancelled: %w", err)
		}
		return nil
	}
	if err := cancelled(); err != nil {
		return nil, err
	}
	hop1 := NeighbourMean(g, xd, nil)
	block(d, d).Copy(hop1)
	if err := cancelled(); err != nil {
		return nil, err
	}
	block(2*d, d).Copy(NeighbourMean(g, hop1, nil))
	sy := NeighbourMean(g, y, nil)
	block(3*d, classes).Copy(sy)
	if err := cancelled(); err != nil {
		return nil, err
	}
	s2y := NeighbourMean(g, sy, nil)
	op := newMeanOp(g)
	for i := 0; i < n; i++ {
		cols, ws := g.Row(i)
		ret, deg := 0.0, 0.0
		for k, j := range cols {
			if int(j) != i {
				ret += ws[k] * op.inv[i] * ws[k] * op.inv[j]
				deg += ws[k]
			}
		}
		if k := labels[i]; k >= 0 {
			s2y.Set(i, k, s2y.At(i, k)-ret)
		}
		out.Set(i, 3*d+2*classes, math.Log1p(deg))
	}
	block(3*d+classes, classes).Copy(s2y)
	for c := 0; c < 3; c++ {
		CentreScale(block(c*d, d))
	}
	labelled := block(3*d, 2*classes+1)
	Standardise(labelled)
	labelled.Scale(1/math.Sqrt(float64(2*classes+1)), labelled)
	return out, nil
}

// CentreScale centres each column of x in place (mean 0 over the rows)
// and divides all of them by one scale, so that the rows' mean squared
// norm becomes 1 and the columns keep their relative weights. A constant x
// becomes 0.
func CentreScale(x *mat.Dense) {
	n, _ := x.Dims()
	mean := dense.ColumnMeans(x)
	ss := 0.0
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for j, v := range row {
			row[j] = v - mean[j]
			ss += row[j] * row[j]
		}
	}
	if ss > 0 {
		x.Scale(1/math.Sqrt(ss/float64(n)), x)
	}
}

// Standardise scales each column of x in place to mean 0 and variance 1
// over the rows; a constant column becomes 0.
func Standardise(x *mat.Dense) {
	n, d := x.Dims()
	mean := dense.ColumnMeans(x)
	sq := make([]float64, d)
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			sq[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	for j := range sq {
		sq[j] = math.Sqrt(sq[j] / float64(n))
	}
	for i := 0; i < n; i++ {
		row := x.RawRowView(i)
		for j, v := range row {
			if sq[j] > 0 {
				row[j] = (v - mean[j]) / sq[j]
			} else {
				row[j] = 0
			}
		}
	}
}
