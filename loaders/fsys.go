package loaders

import (
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// readFS opens name in fsys and hands its lines to parse, as readFile does
// for the operating system's files.
func readFS[T any](fsys fs.FS, name string, parse func(*lineReader) (T, error)) (T, error) {
	var zero T
	f, err := fsys.Open(name)
	if err != nil {
		return zero, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	lr, err := newLineReader(f, name)
	if err != nil {
		return zero, err
	}
	return parse(lr)
}

// existsFS reports whether name exists in fsys.
func existsFS(fsys fs.FS, name string) (bool, error) {
	_, err := fs.Stat(fsys, name)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("loaders: %w", err)
}

// LoadNodeDatasetFS reads a node-classification folder in our layout (see
// LoadNodeDataset) from a file system, such as the data embedded in the
// binary by package datasets. dir is a slash-separated path inside fsys
// ("." for its root); Name is its last element.
func LoadNodeDatasetFS(fsys fs.FS, dir string) (*NodeDataset, error) {
	if !fs.ValidPath(dir) {
		return nil, fmt.Errorf("loaders: %q is not a valid path inside the file system", dir)
	}
	ds := &NodeDataset{Name: path.Base(dir)}
	labelsPath := path.Join(dir, nodeLabelsFile)
	labels, err := readFS(fsys, labelsPath, decodeLabels)
	if err != nil {
		return nil, err
	}
	ds.Labels = labels
	n := len(labels)
	ds.IDs = nodeids.Identity(n)
	for _, l := range labels {
		ds.Classes = max(ds.Classes, l+1)
	}
	featuresPath := path.Join(dir, nodeFeaturesFile)
	if ok, err := existsFS(fsys, featuresPath); err != nil {
		return nil, err
	} else if ok {
		if ds.Features, err = readFS(fsys, featuresPath, decodeFeatures); err != nil {
			return nil, err
		}
		if ds.Features.Rows != n {
			return nil, &ParseError{Path: labelsPath, Msg: fmt.Sprintf("%d labels, want %d: one per node, the node count being the %d rows of %s", n, ds.Features.Rows, ds.Features.Rows, featuresPath)}
		}
	}
	ds.Graph, err = readFS(fsys, path.Join(dir, nodeEdgesFile), func(lr *lineReader) (*graph.CSR, error) {
		el, err := parseEdges(lr, 0, false)
		if err != nil {
			return nil, err
		}
		if el.maxID >= n {
			for k, e := range el.edges {
				if e.U >= n || e.V >= n {
					return nil, &ParseError{Path: lr.path, Line: el.lines[k], Msg: fmt.Sprintf("node id %d out of range [0, %d): %s has %d labels, one per node", max(e.U, e.V), n, labelsPath, n)}
				}
			}
		}
		return el.build(lr.path, n, NodeGraphOptions())
	})
	if err != nil {
		return nil, err
	}
	splitPath := path.Join(dir, nodeSplitFile)
	if ok, err := existsFS(fsys, splitPath); err != nil {
		return nil, err
	} else if ok {
		if ds.Split, err = readFS(fsys, splitPath, func(lr *lineReader) (*Split, error) { return decodeSplit(lr, n) }); err != nil {
			return nil, err
		}
		for _, part := range [][]int{ds.Split.Train, ds.Split.Val, ds.Split.Test} {
			for _, i := range part {
				if labels[i] < 0 {
					return nil, &ParseError{Path: splitPath, Msg: fmt.Sprintf("node %d is in the split but its label in %s is -1 (unknown)", i, labelsPath)}
				}
			}
		}
	}
	namesPath := path.Join(dir, nodeClassNamesFile)
	if ok, err := existsFS(fsys, namesPath); err != nil {
		return nil, err
	} else if ok {
		if ds.ClassNames, err = readFS(fsys, namesPath, func(lr *lineReader) ([]string, error) { return decodeClassNames(lr, ds.Classes) }); err != nil {
			return nil, err
		}
	}
	return ds, nil
}
