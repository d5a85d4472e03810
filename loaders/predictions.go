package loaders

import (
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ClassPredictions are a node classifier's predictions on a NodeDataset,
// as gssl writes them (PredictionTable).
type ClassPredictions struct {
	// Parts holds each node's part of the split fitted: "train", "val",
	// "test" or "" (eval.Split.Parts); the training nodes get no row.
	Parts []string
	// WithSplit adds each row's true class and part ("label", "split").
	WithSplit bool
	// Predicted is each node's predicted class; nil means the argmax of
	// each row of Probabilities (the first on ties).
	Predicted []int
	// Probabilities holds each node's probability of each class.
	Probabilities *mat.Dense
	// ProbabilityRow, used when Probabilities is nil, writes node i's
	// probabilities into dst and returns it (grown to the classes), so
	// that the table is written row by row without an n×c matrix.
	ProbabilityRow func(dst []float64, i int) []float64
	// Sets, when not nil, holds each node's prediction set: the last
	// column "set", class names joined by "|".
	Sets [][]int
}

// PredictionTable returns the columns, the row count and the row function
// of the table of p (for WriteTableFile or WriteTable): one row per node
// not trained on, with its id, the name of its predicted class, with
// WithSplit its true class and part, its probability of every class in
// columns p_<class name>, and with Sets its prediction set.
func (ds *NodeDataset) PredictionTable(p ClassPredictions) (cols []string, rows int, row func(r int, rec []any)) {
	probRow := p.ProbabilityRow
	if p.Probabilities != nil {
		probRow = func(_ []float64, i int) []float64 { return p.Probabilities.RawRowView(i) }
	}
	pred := p.Predicted
	if pred == nil {
		pred = make([]int, len(p.Parts))
		var buf []float64
		for i := range pred {
			buf = probRow(buf, i)
			for c, v := range buf {
				if v > buf[pred[i]] {
					pred[i] = c
				}
			}
		}
	}
	var nodes []int
	for i, part := range p.Parts {
		if part != "train" {
			nodes = append(nodes, i)
		}
	}
	cols = []string{"id", "predicted"}
	if p.WithSplit {
		cols = append(cols, "label", "split")
	}
	first := len(cols)
	for c := 0; c < ds.Classes; c++ {
		cols = append(cols, "p_"+ds.ClassName(c))
	}
	if p.Sets != nil {
		cols = append(cols, "set")
	}
	var buf []float64
	return cols, len(nodes), func(r int, rec []any) {
		i := nodes[r]
		rec[0], rec[1] = ds.NodeID(i), ds.ClassName(pred[i])
		if p.WithSplit {
			if ds.Labels[i] >= 0 {
				rec[2] = ds.ClassName(ds.Labels[i])
			}
			if p.Parts[i] != "" {
				rec[3] = p.Parts[i]
			}
		}
		buf = probRow(buf, i)
		for c, v := range buf {
			rec[first+c] = v
		}
		if p.Sets != nil {
			names := make([]string, len(p.Sets[i]))
			for k, c := range p.Sets[i] {
				names[k] = ds.ClassName(c)
			}
			rec[len(rec)-1] = strings.Join(names, "|")
		}
	}
}
