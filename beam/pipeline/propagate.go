package pipeline

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/gssl/gssl/loaders"
)

func init() {
	for _, t := range []any{FeatureRow{}, propNode{}, readFeaturesFn{}, startPropFn{}, propRoundFn{}, vecRowFn{}, vecHeaderFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(featureByID)
}

// FeatureRow is one row of a feature table: node ID's features X.
type FeatureRow struct {
	ID   string
	X    []float64
	Path string
	Line int64
	Pos  int64
}

// decodeFeatures reads a CSV/TSV table of numbers. When the header's first
// column is named like an id column (id, node, name, …) it names the node
// of each row; else row r is node r (the core's feature table rule).
func decodeFeatures(lr *lineReader, opt loaders.TableOptions, emit func(id string, x []float64, line int)) error {
	t := newTable(lr, opt, "#")
	var (
		width, widthLine int
		idCol            = -1
		rows             int
	)
	for {
		f, line, ok, err := t.Row()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if width == 0 {
			width, widthLine = len(f), line
			if t.Header() != nil {
				if len(t.Header()) != width {
					return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("row has %d fields but the header names %d columns", width, len(t.Header()))}
				}
				if t.HeaderIndex(idNames...) == 0 {
					idCol = 0
				}
			}
			if width-max(idCol+1, 0) == 0 {
				return lr.fileErrorf("no feature columns")
			}
		} else if len(f) != width {
			return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("want %d fields like line %d, got %d", width, widthLine, len(f))}
		}
		id := strconv.Itoa(rows)
		x := make([]float64, 0, width)
		for j, v := range f {
			if j == idCol {
				id = v
				continue
			}
			y, err := loaders.ParseFinite(v, "value")
			if err != nil {
				return &loaders.ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("column %d: %v", j+1, err)}
			}
			x = append(x, y)
		}
		if id == "" {
			return &loaders.ParseError{Path: lr.path, Line: line, Msg: "empty node id in column 1"}
		}
		emit(id, x, line)
		rows++
	}
	if rows == 0 {
		return lr.fileErrorf("no data rows")
	}
	return nil
}

type readFeaturesFn struct {
	Opt loaders.TableOptions
}

func (f *readFeaturesFn) ProcessElement(ctx context.Context, ref fileRef, emit func(FeatureRow)) error {
	return withLines(ctx, ref.Path, func(lr *lineReader) error {
		return decodeFeatures(lr, f.Opt, func(id string, x []float64, line int) {
			emit(FeatureRow{ID: id, X: x, Path: ref.Path, Line: int64(line), Pos: position(ref.Index, min(line, 1<<posLineBits-1), 0)})
		})
	})
}

// ReadFeatures adds the reading of the feature tables matching glob to s:
// PCollection<FeatureRow>.
func ReadFeatures(ctx context.Context, s beam.Scope, glob string, opt loaders.TableOptions) (beam.PCollection, error) {
	files, err := ListFiles(ctx, glob)
	if err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("ReadFeatures")
	refs := beam.Reshuffle(s, beam.CreateList(s, refs(files, 0)))
	return beam.ParDo(s, &readFeaturesFn{Opt: opt}, refs), nil
}

func featureByID(r FeatureRow) (string, FeatureRow) { return r.ID, r }

// propNode is a node's state in feature propagation: its row, t = d̃^{-1/2}
// with d̃ = d + 1 (the degree of A + I) and its current features.
type propNode struct {
	Adj []string
	W   []float64
	T   float64
	Pos int64
	X   []float64
}

// emitScaled sends A_ij t_j x_j to every neighbour i of j.
func emitScaled(n *propNode, emit func(string, []float64)) {
	for k, i := range n.Adj {
		if n.W[k] == 0 {
			continue
		}
		c := make([]float64, len(n.X))
		for t, v := range n.X {
			c[t] = n.W[k] * (n.T * v)
		}
		emit(i, c)
	}
}

// startPropFn joins a node with its feature row.
type startPropFn struct {
	More bool
}

func (f *startPropFn) ProcessElement(id string, nodes func(*Node) bool, rows func(*FeatureRow) bool, emitNode func(string, propNode), emitContrib func(string, []float64)) error {
	var n Node
	have := nodes(&n)
	var rs []FeatureRow
	var r FeatureRow
	for rows(&r) {
		rs = append(rs, r)
		r = FeatureRow{}
	}
	switch {
	case len(rs) == 0:
		return fmt.Errorf("pipeline: the features have no row for node %q", id)
	case len(rs) > 1:
		slices.SortFunc(rs, func(a, b FeatureRow) int { return int(a.Pos - b.Pos) })
		return &loaders.ParseError{Path: rs[1].Path, Line: int(rs[1].Line), Msg: fmt.Sprintf("node %q has two feature rows (lines %d and %d)", id, rs[0].Line, rs[1].Line)}
	}
	pn := propNode{T: 1, X: rs[0].X, Pos: rs[0].Pos}
	if have {
		pn.Adj, pn.W, pn.Pos = n.Adj, n.W, n.Pos
		pn.T = 1 / math.Sqrt(n.Degree+1)
	}
	if f.More {
		emitScaled(&pn, emitContrib)
	}
	emitNode(id, pn)
	return nil
}

// propRoundFn is one product x ← S̃x: (S̃x)_i = t_i (Σ_j A_ij t_j x_j + t_i x_i).
type propRoundFn struct {
	Round int
	More  bool
}

func (f *propRoundFn) ProcessElement(id string, nodes func(*propNode) bool, contribs func(*[]float64) bool, emitNode func(string, propNode), emitContrib func(string, []float64)) error {
	var n propNode
	if !nodes(&n) {
		return fmt.Errorf("pipeline: propagation round %d: contributions for %q, which is not a node", f.Round, id)
	}
	var got [][]float64
	var v []float64
	for contribs(&v) {
		got = append(got, v)
		v = nil
	}
	slices.SortFunc(got, func(a, b []float64) int { return slices.Compare(a, b) })
	y := make([]float64, len(n.X))
	for _, g := range got {
		for t := range y {
			y[t] += g[t]
		}
	}
	for t := range y {
		y[t] = n.T * (y[t] + n.T*n.X[t])
	}
	n.X = y
	if f.More {
		emitScaled(&n, emitContrib)
	}
	emitNode(id, n)
	return nil
}

// Propagate adds S̃^K X to s (SGC's propagation, Wu et al. 2019:
// S̃ = D̃^{-1/2}(A + I)D̃^{-1/2}): K rounds, each one CoGroupByKey of the
// node states with their neighbours' contributions. features is
// PCollection<FeatureRow>; every node needs exactly one row, and a row of
// an id absent from the edges is an isolated node. It returns
// PCollection<KV<string, propNode>> for WriteFeatures.
func Propagate(s beam.Scope, g Graph, features beam.PCollection, k int) (beam.PCollection, error) {
	if k < 0 || k > MaxRounds {
		return beam.PCollection{}, fmt.Errorf("pipeline: K = %d is invalid: it must be in [0, %d]", k, MaxRounds)
	}
	s = s.Scope("Propagate")
	grouped := beam.CoGroupByKey(s, g.Nodes, beam.ParDo(s, featureByID, features))
	nodes, contribs := beam.ParDo2(s, &startPropFn{More: k > 0}, grouped)
	for r := 1; r <= k; r++ {
		rs := s.Scope(fmt.Sprintf("Round%d", r))
		nodes, contribs = beam.ParDo2(rs, &propRoundFn{Round: r, More: r < k}, beam.CoGroupByKey(rs, nodes, contribs))
	}
	return nodes, nil
}

type vecRowFn struct{}

func (vecRowFn) ProcessElement(id string, n propNode) Row {
	cells := make([]string, len(n.X))
	for k, v := range n.X {
		cells[k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return Row{ID: id, Pos: n.Pos, Cells: cells}
}

// vecHeaderFn names the columns id,f1..fd from the width of one row.
type vecHeaderFn struct{}

func (vecHeaderFn) ProcessElement(r FeatureRow) (int, int) { return 0, len(r.X) }

func vecHeader(_ int, widths func(*int) bool) (Header, error) {
	d := -1
	var w int
	for widths(&w) {
		if d >= 0 && w != d {
			return Header{}, fmt.Errorf("pipeline: the feature rows have %d and %d values", d, w)
		}
		d = w
	}
	cols := []string{"id"}
	for j := 1; j <= d; j++ {
		cols = append(cols, "f"+strconv.Itoa(j))
	}
	return Header{Cols: cols}, nil
}

func init() { beam.RegisterFunction(vecHeader) }

// WriteFeatures writes the propagated features as id,f1..fd (WriteTable).
func WriteFeatures(s beam.Scope, g Graph, features, nodes beam.PCollection, out string, shards int) {
	s = s.Scope("WriteFeatures")
	header := beam.ParDo(s, vecHeader, beam.GroupByKey(s, beam.ParDo(s, vecHeaderFn{}, features)))
	WriteTable(s, g, header, beam.ParDo(s, vecRowFn{}, nodes), out, shards)
}
