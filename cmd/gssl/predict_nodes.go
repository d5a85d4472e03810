package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// predictFeatureNodes predicts the new nodes of a model that takes their
// features with their edges (the nodeclass models): the new nodes are the
// rows of --features, named by the table's first column or by
// --feature-ids, and --edges (optional) joins them to fitted nodes. A new
// node that no edge names is predicted from its features alone.
func predictFeatureNodes(ctx context.Context, opts predictOptions, header loaders.HeaderMode, s *savedmodel.Saved, stderr io.Writer) ([]serve.Prediction, error) {
	kind := s.Metadata().Kind
	if opts.Features == "" {
		return nil, usageError{fmt.Errorf("predict: a %s model predicts a new node from its features (%d) and its edges to fitted nodes: give --features FILE (one row per new node, named by id) with --edges FILE", kind, s.NodeFeatures())}
	}
	ids, x, err := readNodeFeatures(opts.Features, opts.FeatureIDs)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	if _, d := x.Dims(); d != s.NodeFeatures() {
		return nil, fmt.Errorf("predict: --features %s has %d columns of features; the %s model was fitted on %d", opts.Features, d, kind, s.NodeFeatures())
	}
	nodes := make([]serve.NewNode, len(ids))
	row := make(map[string]int, len(ids))
	for i, id := range ids {
		if prev, dup := row[id]; dup {
			return nil, fmt.Errorf("predict: --features %s: new node %q has two rows (%d and %d)", opts.Features, id, prev+1, i+1)
		}
		if _, fitted := s.IDs().Lookup(id); fitted {
			return nil, fmt.Errorf("predict: --features %s, row %d: %q is a fitted node of the model; give the rows of new nodes only", opts.Features, i+1, id)
		}
		row[id] = i
		nodes[i].ID = id
	}
	if opts.Edges == "" {
		logf(stderr, "predict: no --edges: each of the %d new nodes is predicted from its features alone", len(nodes))
	} else {
		withEdges, err := readNewNodes(opts.Edges, loaders.EdgeTableOptions{Table: loaders.TableOptions{Header: header}, Weight: opts.Weight, Source: opts.Source, Target: opts.Target}, s.IDs())
		if err != nil {
			return nil, fmt.Errorf("predict: %w", err)
		}
		for _, n := range withEdges {
			i, ok := row[n.ID]
			if !ok {
				return nil, fmt.Errorf("predict: --edges %s: new node %q has no row in --features %s (a new node needs its features)", opts.Edges, n.ID, opts.Features)
			}
			nodes[i].Edges = n.Edges
		}
	}
	preds, err := s.PredictNodesWithFeatures(ctx, nodes, x)
	if err != nil {
		return nil, fmt.Errorf("predict: --edges %s --features %s: %w", opts.Edges, opts.Features, err)
	}
	return preds, nil
}

// readNodeFeatures reads the feature rows of new nodes in the formats of
// the fitting commands' --features: NumPy .npy or .npz (dense, or a SciPy
// sparse matrix), svmlight (.svm, .svmlight, .libsvm), our sparse text
// format ("# rows cols" header), each naming its rows by idsPath (one id
// per line); or a CSV/TSV table whose first column is the node's id (or,
// with idsPath, a table of numbers only).
func readNodeFeatures(path, idsPath string) ([]string, nodeclass.Features, error) {
	var x nodeclass.Features
	var err error
	ext := streamExt(path, strings.ToLower(filepath.Ext(strings.TrimSuffix(strings.ToLower(path), ".gz"))))
	switch {
	case ext == ".npy":
		x.Dense, err = loaders.ReadNPY(path)
	case ext == ".npz":
		x.Sparse, x.Dense, err = loaders.ReadNPZFeatures(path)
	case ext == ".svm" || ext == ".svmlight" || ext == ".libsvm":
		x.Sparse, _, err = loaders.ReadSVMLight(path, false)
	default:
		var sparseText bool
		if sparseText, err = startsWithHash(path); err != nil {
			break
		}
		if sparseText {
			x.Sparse, err = loaders.ReadFeatures(path)
			break
		}
		idCol := "1"
		if idsPath != "" {
			idCol = ""
		}
		var t *loaders.PointTable
		if t, err = loaders.ReadPointTable(path, idCol); err != nil {
			break
		}
		x.Dense = t.X
		if idsPath == "" {
			return t.IDs, x, nil
		}
	}
	if err != nil {
		return nil, x, fmt.Errorf("--features: %w", err)
	}
	if idsPath == "" {
		return nil, x, fmt.Errorf("--features %s has no id column: give --feature-ids FILE, the new node of each row, one id per line (or a CSV table whose first column is the id)", path)
	}
	ids, err := readIDLines(idsPath)
	if err != nil {
		return nil, x, fmt.Errorf("--feature-ids: %w", err)
	}
	if r, _ := x.Dims(); len(ids) != r {
		return nil, x, fmt.Errorf("--feature-ids %s lists %d ids for the %d rows of --features %s", idsPath, len(ids), r, path)
	}
	return ids, x, nil
}

// startsWithHash reports whether the (possibly gzipped) file starts with
// '#', the header of our sparse text format.
func startsWithHash(path string) (bool, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return false, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	var b [1]byte
	n, _ := io.ReadFull(r, b[:])
	return n == 1 && b[0] == '#', nil
}

// readIDLines reads one id per line (a trailing \r and blank lines at the
// end dropped; a blank line elsewhere is an error).
func readIDLines(path string) ([]string, error) {
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimPrefix(string(b), "\ufeff"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(lines[i]) == "" {
			return nil, fmt.Errorf("%s, line %d: a blank line; every line names one row's node", path, i+1)
		}
	}
	return lines, nil
}
