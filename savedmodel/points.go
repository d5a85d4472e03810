package savedmodel

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/serve"
)

// Points is what a model of nodes fitted on the K-nearest-neighbour graph
// of points keeps to predict new points: the fitted nodes' points (row i is
// node i) and the graph's kernel, K, bandwidth and per-node scales. A new
// point is then a new node whose edges go to its K nearest fitted points,
// weighted as the graph's own edges (knngraph.Weighted.Extend), and the
// model's new-node prediction answers for it.
type Points struct {
	X       *mat.Dense
	Weights *knngraph.Weighted

	once  sync.Once
	index *knngraph.Index // X prepared for queries, built once
	err   error
}

// queryIndex returns X prepared for exact queries, built on first use and
// shared by concurrent requests (knngraph.Index is safe for them).
func (p *Points) queryIndex() (*knngraph.Index, error) {
	p.once.Do(func() { p.index, p.err = knngraph.NewIndex(p.X, nil) })
	return p.index, p.err
}

// pointsMeta is the section data.knn.json.
type pointsMeta struct {
	Kernel string  `json:"kernel"`
	K      int     `json:"k"`
	Sigma  float64 `json:"sigma"`
	Rows   int     `json:"rows"`
	Cols   int     `json:"cols"`
}

// maxPointValue bounds the stored coordinates as knngraph bounds those it
// searches, so that squared distances stay finite.
const maxPointValue = estimator.MaxMagnitude

// putPoints adds the sections of p to f.
func putPoints(f *modelfile.File, p *Points, nodes int) error {
	r, c := p.X.Dims()
	w := p.Weights
	if r != nodes || w == nil || w.N != r {
		return fmt.Errorf("savedmodel: %d points for a model of %d nodes", r, nodes)
	}
	b, err := json.Marshal(pointsMeta{Kernel: w.Kernel.String(), K: w.K, Sigma: w.Sigma, Rows: r, Cols: c})
	if err != nil {
		return fmt.Errorf("savedmodel: %w", err)
	}
	f.PutBytes("data.knn.json", b)
	data := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		data = append(data, p.X.RawRowView(i)...)
	}
	f.PutFloat64s("data.knn.points", data)
	if w.Scale != nil {
		f.PutFloat64s("data.knn.scale", w.Scale)
	}
	return nil
}

// readPoints reads the sections of putPoints, validating them as user
// input: a damaged or edited file is an error naming the section.
func readPoints(f *modelfile.File, nodes int) (*Points, error) {
	b, err := f.Bytes("data.knn.json")
	if err != nil {
		return nil, fmt.Errorf("savedmodel: %w", err)
	}
	var m pointsMeta
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("savedmodel: section data.knn.json: %w", err)
	}
	kern, err := knngraph.ParseKernel(m.Kernel)
	if err != nil {
		return nil, fmt.Errorf("savedmodel: section data.knn.json: %w", err)
	}
	switch {
	case m.Rows != nodes:
		return nil, fmt.Errorf("savedmodel: section data.knn.json: %d points for a model of %d nodes", m.Rows, nodes)
	case m.Cols < 1:
		return nil, fmt.Errorf("savedmodel: section data.knn.json: %d features per point; need at least 1", m.Cols)
	case m.K < 1 || m.K >= m.Rows:
		return nil, fmt.Errorf("savedmodel: section data.knn.json: k = %d is invalid for %d points", m.K, m.Rows)
	case m.Sigma < 0 || math.IsNaN(m.Sigma) || math.IsInf(m.Sigma, 0) || (kern == knngraph.IMGP && m.Sigma == 0) || (kern == knngraph.Connectivity && m.Sigma != 0):
		return nil, fmt.Errorf("savedmodel: section data.knn.json: bandwidth %v is invalid for %s weights", m.Sigma, kern)
	}
	data, err := f.Float64sNonFinite("data.knn.points") // checked below, by point and feature
	if err != nil {
		return nil, fmt.Errorf("savedmodel: %w", err)
	}
	if len(data) != m.Rows*m.Cols {
		return nil, fmt.Errorf("savedmodel: section data.knn.points holds %d values for %d×%d points", len(data), m.Rows, m.Cols)
	}
	for i, v := range data {
		if !(math.Abs(v) <= maxPointValue) {
			return nil, fmt.Errorf("savedmodel: section data.knn.points: point %d, feature %d is %v", i/m.Cols, i%m.Cols, v)
		}
	}
	w := &knngraph.Weighted{Kernel: kern, K: m.K, Sigma: m.Sigma, N: m.Rows}
	needScale := kern == knngraph.IMGP || (kern == knngraph.Gaussian && m.Sigma == 0)
	if needScale {
		if w.Scale, err = f.Float64s("data.knn.scale"); err != nil {
			return nil, fmt.Errorf("savedmodel: %w", err)
		}
		if len(w.Scale) != m.Rows {
			return nil, fmt.Errorf("savedmodel: section data.knn.scale holds %d values for %d points", len(w.Scale), m.Rows)
		}
		for i, v := range w.Scale {
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("savedmodel: section data.knn.scale: node %d has scale %v; it must be finite and > 0", i, v)
			}
		}
	} else if f.Has("data.knn.scale") {
		return nil, fmt.Errorf("savedmodel: section data.knn.scale is present, but %s weights have no per-node scale", kern)
	}
	return &Points{X: mat.NewDense(m.Rows, m.Cols, data), Weights: w}, nil
}

// knnBackend is a model of nodes fitted on a KNN graph of points: it
// predicts new points as new nodes joined to their K nearest fitted points,
// and everything else as the model it wraps.
type knnBackend struct {
	backend
	p *Points
}

func (b knnBackend) features() int { _, c := b.p.X.Dims(); return c }

// NewNodesOfPoints returns the new nodes that stand for points: each joined
// to its K nearest fitted points by edges weighted as the graph's (exact
// search, ties by smaller index).
func (p *Points) NewNodesOfPoints(ctx context.Context, points *mat.Dense) (estimator.NewNodes, error) {
	w := p.Weights
	ix, err := p.queryIndex()
	if err != nil {
		return estimator.NewNodes{}, err
	}
	nb, err := ix.Query(ctx, points, w.K)
	if err != nil {
		return estimator.NewNodes{}, err
	}
	r, _ := points.Dims()
	nn := estimator.NewNodes{Offsets: make([]int, 1, r+1), Nodes: make([]int32, 0, r*w.K), Weights: make([]float64, 0, r*w.K)}
	for i := 0; i < r; i++ {
		idx, d2 := nb.Row(i)
		ws, err := w.Extend(idx, d2)
		if err != nil {
			return estimator.NewNodes{}, &serve.InputError{Field: fmt.Sprintf("points[%d]", i), Msg: err.Error()}
		}
		nn.Nodes = append(nn.Nodes, idx...)
		nn.Weights = append(nn.Weights, ws...)
		nn.Offsets = append(nn.Offsets, len(nn.Nodes))
	}
	return nn, nil
}

func (b knnBackend) predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	if len(points) == 0 {
		return nil, nil
	}
	d := b.features()
	data := make([]float64, 0, len(points)*d)
	for i, p := range points {
		for k, v := range p {
			if !(math.Abs(v) <= maxPointValue) {
				return nil, &serve.InputError{Field: fmt.Sprintf("points[%d][%d]", i, k), Msg: fmt.Sprintf("%v is out of range: features must be finite and at most %g in magnitude", v, maxPointValue)}
			}
		}
		data = append(data, p...)
	}
	nn, err := b.p.NewNodesOfPoints(ctx, mat.NewDense(len(points), d, data))
	if err != nil {
		return nil, err
	}
	return b.predictNodes(ctx, nn)
}
