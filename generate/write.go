package generate

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/atomicfile"
)

// EdgeFormat is the layout of an edge-list file.
type EdgeFormat int

const (
	// EdgesText writes one "u v" line per edge, gssl's edges.txt layout.
	EdgesText EdgeFormat = iota
	// EdgesCSV writes a header "source,target" and one "u,v" line per edge.
	EdgesCSV
)

// LabelFormat is the layout of a labels file.
type LabelFormat int

const (
	// LabelsText writes one class per line, line i for node i: gssl's
	// labels.txt layout.
	LabelsText LabelFormat = iota
	// LabelsCSV writes a header "id,label" and one "i,class" line per node.
	LabelsCSV
)

// output is a text file being written atomically, compressed with gzip when
// its name ends in .gz.
type output struct {
	f  *atomicfile.File
	gz *gzip.Writer
	*bufio.Writer
}

func create(path string) (*output, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	o := &output{f: f}
	var w io.Writer = f
	if strings.HasSuffix(path, ".gz") {
		// BestSpeed: the generator's text is several gigabytes at the sizes
		// the generator is for, and the default level would dominate.
		o.gz, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		w = o.gz
	}
	o.Writer = bufio.NewWriterSize(w, 1<<20)
	return o, nil
}

// finish commits the file when err is nil and discards it otherwise.
func (o *output) finish(err error) error {
	if err == nil {
		err = o.Flush()
	}
	if err == nil && o.gz != nil {
		err = o.gz.Close()
	}
	if err != nil {
		_ = o.f.Abort()
		return fmt.Errorf("generate: %s: %w", o.f.Name(), err)
	}
	return o.f.Commit()
}

// WriteEdges streams the edges of gen to an edge-list file at path, gzip
// compressed when path ends in .gz, atomically (no file is left on an
// error).
func WriteEdges(ctx context.Context, path string, gen Generator, format EdgeFormat) error {
	o, err := create(path)
	if err != nil {
		return err
	}
	sep := byte(' ')
	if format == EdgesCSV {
		sep = ','
		if _, err := o.WriteString("source,target\n"); err != nil {
			return o.finish(err)
		}
	}
	line := make([]byte, 0, 1<<16)
	return o.finish(gen.Generate(ctx, func(e Edges) error {
		for k := range e.Src {
			line = strconv.AppendInt(line, int64(e.Src[k]), 10)
			line = append(line, sep)
			line = strconv.AppendInt(line, int64(e.Dst[k]), 10)
			line = append(line, '\n')
			if len(line) > cap(line)-32 {
				if _, err := o.Write(line); err != nil {
					return err
				}
				line = line[:0]
			}
		}
		_, err := o.Write(line)
		line = line[:0]
		return err
	}))
}

// WriteLabels writes node classes to path (gzip when it ends in .gz).
func WriteLabels(path string, labels []int, format LabelFormat) error {
	o, err := create(path)
	if err != nil {
		return err
	}
	if format == LabelsCSV {
		_, _ = o.WriteString("id,label\n")
	}
	var line []byte
	for i, l := range labels {
		line = line[:0]
		if format == LabelsCSV {
			line = strconv.AppendInt(line, int64(i), 10)
			line = append(line, ',')
		}
		line = strconv.AppendInt(line, int64(l), 10)
		line = append(line, '\n')
		if _, err := o.Write(line); err != nil {
			return o.finish(err)
		}
	}
	return o.finish(nil)
}

// WriteSplit writes a split in gssl's split_planetoid.txt layout: lines
// "train i", then "val i", then "test i".
func WriteSplit(path string, s eval.Split) error {
	o, err := create(path)
	if err != nil {
		return err
	}
	var line []byte
	for _, part := range []struct {
		name  string
		nodes []int
	}{{"train", s.Train}, {"val", s.Val}, {"test", s.Test}} {
		for _, i := range part.nodes {
			line = append(append(line[:0], part.name...), ' ')
			line = strconv.AppendInt(line, int64(i), 10)
			line = append(line, '\n')
			if _, err := o.Write(line); err != nil {
				return o.finish(err)
			}
		}
	}
	return o.finish(nil)
}

// WriteFeatures streams the features of g to path in gssl's sparse text
// layout (loaders.ReadFeatures): a header "# n_nodes n_features", then one
// line of "col:1" pairs per node; gzip when path ends in .gz.
func WriteFeatures(ctx context.Context, path string, g *SBMGraph, f Features) error {
	if _, err := f.resolve(g.Classes()); err != nil {
		return err
	}
	o, err := create(path)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(o, "# %d %d\n", g.Nodes(), f.Columns); err != nil {
		return o.finish(err)
	}
	line := make([]byte, 0, 1<<16)
	return o.finish(g.Features(ctx, f, func(r FeatureRows) error {
		for k := 0; k < r.Rows(); k++ {
			for p, c := range r.Cols[r.Indptr[k]:r.Indptr[k+1]] {
				if p > 0 {
					line = append(line, ' ')
				}
				line = strconv.AppendInt(line, int64(c), 10)
				line = append(line, ":1"...)
			}
			line = append(line, '\n')
			if len(line) > cap(line)-1024 {
				if _, err := o.Write(line); err != nil {
					return err
				}
				line = line[:0]
			}
		}
		_, err := o.Write(line)
		line = line[:0]
		return err
	}))
}

// GraphOptions are the options Graph builds with: repeated edges merged,
// self loops dropped, as gssl's readers load the edge-list files.
func GraphOptions() graph.Options {
	return graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop, Symmetrize: graph.Undirected}
}

// Graph collects the edges of gen into a graph.CSR built with
// GraphOptions. Unlike the writers it holds every edge: O(m) memory.
func Graph(ctx context.Context, gen Generator) (*graph.CSR, error) {
	m := gen.NumEdges()
	rows := make([]int, 0, m)
	cols := make([]int, 0, m)
	err := gen.Generate(ctx, func(e Edges) error {
		for k := range e.Src {
			rows = append(rows, int(e.Src[k]))
			cols = append(cols, int(e.Dst[k]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return graph.FromCOO(gen.Nodes(), rows, cols, nil, GraphOptions())
}

// WriteGraphFile writes the graph of gen (see Graph; built by BuildGraph,
// without holding the edges) as a .gsg file with identity node ids,
// atomically.
func WriteGraphFile(ctx context.Context, path string, gen Generator) error {
	g, err := BuildGraph(ctx, gen)
	if err != nil {
		return err
	}
	return graphfile.Write(path, g, nil)
}
