package generate

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/eval"
)

// FileLayout is how a generated data set is laid out on disk.
type FileLayout string

const (
	// LayoutText writes PREFIX.edges.txt ("u v" lines) and PREFIX.labels.txt
	// (line i: class of node i).
	LayoutText FileLayout = "txt"
	// LayoutCSV writes PREFIX.edges.csv ("source,target" header) and
	// PREFIX.labels.csv ("id,label").
	LayoutCSV FileLayout = "csv"
	// LayoutGraphFile writes PREFIX.gsg (a binary graph) and PREFIX.labels.csv.
	LayoutGraphFile FileLayout = "gsg"
	// LayoutFolder writes PREFIX/edges.txt, labels.txt, split_planetoid.txt
	// and features.txt.gz: a node-classification folder.
	LayoutFolder FileLayout = "folder"
)

// Files are the paths of a generated data set and the formats of its edge
// and label files.
type Files struct {
	Edges, Labels, Split, Features string
	EdgeFormat                     EdgeFormat
	LabelFormat                    LabelFormat
	// GraphFile is set when Edges is a .gsg graph file.
	GraphFile bool
}

// NewFiles names the files of a data set written under prefix in layout;
// gzip compresses the edge list (".gz" added). LayoutFolder creates the
// folder prefix.
func NewFiles(prefix string, layout FileLayout, gzip bool) (Files, error) {
	name := func(suffix string) string { return prefix + suffix }
	p := Files{LabelFormat: LabelsCSV, EdgeFormat: EdgesText, Split: name(".split.txt"), Features: name(".features.txt.gz")}
	gz := ""
	if gzip {
		gz = ".gz"
	}
	switch layout {
	case LayoutText:
		p.Edges, p.Labels, p.LabelFormat = name(".edges.txt"+gz), name(".labels.txt"), LabelsText
	case LayoutCSV:
		p.Edges, p.Labels, p.EdgeFormat = name(".edges.csv"+gz), name(".labels.csv"), EdgesCSV
	case LayoutGraphFile:
		p.Edges, p.Labels, p.GraphFile = name(".gsg"), name(".labels.csv"), true
	case LayoutFolder:
		if err := os.MkdirAll(prefix, 0o755); err != nil {
			return p, fmt.Errorf("generate: %w", err)
		}
		in := func(f string) string { return filepath.Join(prefix, f) }
		p.Edges, p.Labels, p.LabelFormat = in("edges.txt"+gz), in("labels.txt"), LabelsText
		p.Split, p.Features = in("split_planetoid.txt"), in("features.txt.gz")
	default:
		return p, fmt.Errorf("generate: layout %q is invalid: want txt, csv, gsg or folder", layout)
	}
	return p, nil
}

// WriteGraph writes the edges of gen to p.Edges: streamed as text, or built
// into a graph file for LayoutGraphFile.
func (p Files) WriteGraph(ctx context.Context, gen Generator) error {
	if p.GraphFile {
		return WriteGraphFile(ctx, p.Edges, gen)
	}
	return WriteEdges(ctx, p.Edges, gen, p.EdgeFormat)
}

// SplitSizes are the training nodes per class and the validation and test
// counts of the split written next to an SBM's labels.
type SplitSizes struct {
	PerClass, Val, Test int
}

// ClassFiles says what WriteClassFiles wrote.
type ClassFiles struct {
	Train, Val, Test int // the split's sizes
	Features         bool
}

// WriteClassFiles writes the SBM's labels, a random per-class split (Val
// and Test are capped to the nodes left after the training nodes) drawn
// with seed, and, when f.Columns > 0, its features.
func (p Files) WriteClassFiles(ctx context.Context, g *SBMGraph, sizes SplitSizes, seed uint64, f Features) (ClassFiles, error) {
	var out ClassFiles
	lab := g.Labels()
	if err := WriteLabels(p.Labels, lab, p.LabelFormat); err != nil {
		return out, err
	}
	if sizes.PerClass < 1 || sizes.Val < 0 || sizes.Test < 0 {
		return out, fmt.Errorf("generate: split sizes per class %d, val %d, test %d are invalid: want ≥ 1, ≥ 0, ≥ 0", sizes.PerClass, sizes.Val, sizes.Test)
	}
	left := g.Nodes() - sizes.PerClass*g.Classes()
	val := max(0, min(sizes.Val, left))
	test := max(0, min(sizes.Test, left-val))
	s, err := eval.RandomPerClass(lab, sizes.PerClass, val, test, seed)
	if err != nil {
		return out, fmt.Errorf("generate: split: %w", err)
	}
	if err := WriteSplit(p.Split, s); err != nil {
		return out, err
	}
	out.Train, out.Val, out.Test = len(s.Train), len(s.Val), len(s.Test)
	if f.Columns > 0 {
		if err := WriteFeatures(ctx, p.Features, g, f); err != nil {
			return out, err
		}
		out.Features = true
	}
	return out, nil
}

// Memory of the generators, per node and per edge: the SBM's label, degree,
// member and alias tables and the labels written (about 64 bytes a node),
// R-MAT's vertex permutation (4), and for a graph file the graph built in
// memory by counting (BuildGraph: two 4-byte entries an edge and the
// Builder's buffers, an eighth of the entries at 8 bytes: 12 bytes an
// edge, rounded up).
const (
	sbmBytesPerNode  = 64
	rmatBytesPerNode = 4
	gsgBytesPerEdge  = 12
)

// SBMBytes estimates the memory of drawing cfg (with features columns of
// features) and, when graphFile, of building its graph file. With Sizes
// given it is a lower bound (the largest class stands for the nodes).
func SBMBytes(cfg SBM, features int, graphFile bool) int64 {
	nodes := float64(cfg.Nodes)
	for _, s := range cfg.Sizes {
		nodes = max(nodes, float64(s))
	}
	need := nodes*sbmBytesPerNode + float64(max(features, 0))*8
	if graphFile {
		need += nodes * max(cfg.Degree, 0) / 2 * gsgBytesPerEdge
	}
	return clampBytes(need)
}

// RMATBytes estimates the memory of drawing cfg and, when graphFile, of
// building its graph file; 0 for a scale outside [1, MaxScale].
func RMATBytes(cfg RMAT, graphFile bool) int64 {
	if cfg.Scale < 1 || cfg.Scale > MaxScale {
		return 0
	}
	nodes := math.Ldexp(1, cfg.Scale)
	need := nodes * rmatBytesPerNode
	if graphFile {
		need += nodes * float64(max(cfg.EdgeFactor, 0)) * gsgBytesPerEdge
	}
	return clampBytes(need)
}

func clampBytes(b float64) int64 {
	if b > float64(math.MaxInt64/2) {
		return math.MaxInt64 / 2
	}
	return int64(b)
}

// Written says what Files.Write wrote: the graph's size, an SBM's classes
// and split, and the paths by role ("edges", and for an SBM "labels",
// "split" and, with features, "features").
type Written struct {
	Nodes    int               `json:"nodes"`
	Edges    int64             `json:"edges"` // drawn, repeats and self loops included
	Classes  int               `json:"classes,omitempty"`
	Sizes    []int             `json:"class_sizes,omitempty"`
	Features int               `json:"features,omitempty"` // feature columns
	Train    int               `json:"train,omitempty"`
	Val      int               `json:"val,omitempty"`
	Test     int               `json:"test,omitempty"`
	Files    map[string]string `json:"files"`
}

// Write writes the edges of gen (WriteGraph) and, when gen is an SBM, its
// class files (WriteClassFiles with sizes, seed and f).
func (p Files) Write(ctx context.Context, gen Generator, sizes SplitSizes, seed uint64, f Features) (Written, error) {
	w := Written{Nodes: gen.Nodes(), Edges: gen.NumEdges(), Files: map[string]string{}}
	if err := p.WriteGraph(ctx, gen); err != nil {
		return w, err
	}
	w.Files["edges"] = p.Edges
	sbm, ok := gen.(*SBMGraph)
	if !ok {
		return w, nil
	}
	w.Classes, w.Sizes = sbm.Classes(), sbm.Sizes()
	c, err := p.WriteClassFiles(ctx, sbm, sizes, seed, f)
	if err != nil {
		return w, err
	}
	w.Files["labels"], w.Files["split"] = p.Labels, p.Split
	w.Train, w.Val, w.Test = c.Train, c.Val, c.Test
	if c.Features {
		w.Files["features"], w.Features = p.Features, f.Columns
	}
	return w, nil
}
