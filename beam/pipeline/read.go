package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/parquetio"

	"github.com/gssl/gssl/loaders"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Edge)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Label)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*ParquetEdge)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*fileRef)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*readEdgesFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*readLabelsFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*parquetEdgeFn)(nil)).Elem())
}

// Edge is one row of an edge table: an undirected edge between the nodes
// Src and Dst (the user's ids) of weight W. Pos is where it was read (see
// position), which orders text ids by first appearance as the core does.
type Edge struct {
	Src, Dst string
	W        float64
	Pos      int64
}

// Label is one row of a labels table: node ID has the label Value as
// written ("" or another missing-value spelling: unlabelled), read from
// line Line of Path.
type Label struct {
	ID, Value string
	Path      string
	Line      int64
	Pos       int64
}

// ParquetEdge is the row of a Parquet edge table: columns src and dst
// (UTF-8 strings, the node ids) and weight (double, ≥ 0).
type ParquetEdge struct {
	Src    string  `parquet:"name=src, type=BYTE_ARRAY, convertedtype=UTF8"`
	Dst    string  `parquet:"name=dst, type=BYTE_ARRAY, convertedtype=UTF8"`
	Weight float64 `parquet:"name=weight, type=DOUBLE"`
}

// Positions pack (file, line, column) into one int64 that sorts as the
// core reads: the edge files in order, then the labels files, each line by
// line, the source before the target.
const (
	posLineBits = 40
	posFileBits = 22
)

func position(file, line, col int) int64 {
	return int64(file)<<(posLineBits+1) | int64(line)<<1 | int64(col)
}

// fileRef is one input file and its place among the inputs.
type fileRef struct {
	Path  string
	Index int
}

// ListFiles expands a path or glob (any scheme registered with Beam's
// filesystem package: local paths, gs://, s3://, …) to the files it names,
// in ascending order. A plain local path that does not exist is the error
// the core's readers give.
func ListFiles(ctx context.Context, glob string) ([]string, error) {
	if glob == "" {
		return nil, errors.New("pipeline: no file given")
	}
	if !strings.Contains(glob, "://") && !strings.ContainsAny(glob, "*?[") {
		if _, err := os.Stat(glob); err != nil {
			return nil, fmt.Errorf("loaders: open %s: %w", glob, errors.Unwrap(err))
		}
	}
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("pipeline: %s: %w", glob, err)
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return nil, fmt.Errorf("pipeline: listing %s: %w", glob, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("pipeline: no file matches %s", glob)
	}
	if len(files) >= 1<<posFileBits {
		return nil, fmt.Errorf("pipeline: %s matches %d files, more than %d", glob, len(files), 1<<posFileBits-1)
	}
	slices.Sort(files)
	return files, nil
}

// isParquet reports whether a file is read as Parquet (by its name).
func isParquet(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".parquet")
}

func refs(files []string, first int) []fileRef {
	out := make([]fileRef, len(files))
	for k, f := range files {
		out[k] = fileRef{Path: f, Index: first + k}
	}
	return out
}

// readEdgesFn reads one edge table and emits its edges.
type readEdgesFn struct {
	Opt EdgeOptions
}

func (f *readEdgesFn) ProcessElement(ctx context.Context, ref fileRef, emit func(Edge)) error {
	return withLines(ctx, ref.Path, func(lr *lineReader) error {
		if ref.Index >= 1<<posFileBits {
			return lr.fileErrorf("too many input files")
		}
		return decodeEdges(lr, f.Opt, func(src, dst string, w float64, line int) {
			emit(Edge{Src: src, Dst: dst, W: w, Pos: position(ref.Index, min(line, 1<<posLineBits-1), 0)})
		})
	})
}

// readLabelsFn reads one labels table.
type readLabelsFn struct {
	Opt loaders.TableOptions
}

func (f *readLabelsFn) ProcessElement(ctx context.Context, ref fileRef, emit func(Label)) error {
	return withLines(ctx, ref.Path, func(lr *lineReader) error {
		return decodeLabels(lr, f.Opt, func(id, value string, line int) {
			emit(Label{ID: id, Value: value, Path: ref.Path, Line: int64(line), Pos: position(ref.Index, min(line, 1<<posLineBits-1), 0)})
		})
	})
}

// withLines opens path through Beam's filesystem and hands its lines to fn.
func withLines(ctx context.Context, path string, fn func(*lineReader) error) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("loaders: %s: %w", path, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return fmt.Errorf("loaders: %w", err)
	}
	defer rc.Close()
	lr, err := newLineReader(rc, path)
	if err != nil {
		return err
	}
	return fn(lr)
}

// parquetEdgeFn checks a Parquet row and turns it into an Edge. Parquet
// rows have no line; Pos is 0, so text ids of Parquet input are written in
// ascending order rather than by first appearance.
type parquetEdgeFn struct {
	Glob string
}

func (f *parquetEdgeFn) ProcessElement(e ParquetEdge, emit func(Edge)) error {
	switch {
	case e.Src == "" || e.Dst == "":
		return fmt.Errorf("pipeline: %s: edge (%q, %q): empty node id", f.Glob, e.Src, e.Dst)
	case math.IsNaN(e.Weight) || math.IsInf(e.Weight, 0):
		return fmt.Errorf("pipeline: %s: edge (%q, %q): weight %v is not finite", f.Glob, e.Src, e.Dst, e.Weight)
	case e.Weight < 0:
		return fmt.Errorf("pipeline: %s: edge (%q, %q): weight %v is negative; weights must be ≥ 0", f.Glob, e.Src, e.Dst, e.Weight)
	}
	emit(Edge{Src: e.Src, Dst: e.Dst, W: e.Weight})
	return nil
}

// ReadEdges adds the reading of the edge tables matching glob to s and
// returns their edges (PCollection<Edge>). Text tables (CSV, TSV, white
// space, gzip; the core's rules) are read one file per worker so that
// errors name their line; Parquet files (name ending .parquet) through
// parquetio, columns src, dst, weight.
func ReadEdges(ctx context.Context, s beam.Scope, glob string, opt EdgeOptions) (beam.PCollection, error) {
	files, err := ListFiles(ctx, glob)
	if err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("ReadEdges")
	if isParquet(files[0]) {
		rows := parquetio.Read(s, glob, reflect.TypeOf(ParquetEdge{}))
		return beam.ParDo(s, &parquetEdgeFn{Glob: glob}, rows), nil
	}
	refs := beam.Reshuffle(s, beam.CreateList(s, refs(files, 0)))
	return beam.ParDo(s, &readEdgesFn{Opt: opt}, refs), nil
}

// ReadLabels adds the reading of the labels tables matching glob to s and
// returns their rows (PCollection<Label>). first is the number of edge
// files (the labels' positions come after theirs).
func ReadLabels(ctx context.Context, s beam.Scope, glob string, opt loaders.TableOptions, first int) (beam.PCollection, error) {
	files, err := ListFiles(ctx, glob)
	if err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("ReadLabels")
	refs := beam.Reshuffle(s, beam.CreateList(s, refs(files, first)))
	return beam.ParDo(s, &readLabelsFn{Opt: opt}, refs), nil
}
