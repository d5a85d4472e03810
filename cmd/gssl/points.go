package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeids"
)

// imageGraphDataset turns an image set (a folder with images_u8.bin.gz and
// labels.txt, e.g. ../shared/data/digits8x8) into a node-classification
// data set: the unweighted K-nearest-neighbour graph of its first n images
// (0: all), or-rule, exact Euclidean search on the pixels, with their
// labels. Named "<folder>-knn<K>".
func imageGraphDataset(ctx context.Context, dir string, n, k int, stderr io.Writer) (*loaders.NodeDataset, error) {
	if n < 0 {
		return nil, fmt.Errorf("--n %d is invalid: it must be ≥ 0 (0: every image)", n)
	}
	if err := refuseNPYImages(dir); err != nil {
		return nil, err
	}
	// One read: the pixels per image are the whole decoded size divided by
	// the number of labels (never a gzip trailer), checked against
	// origin.txt when the folder has one.
	set, err := loaders.ReadImageSet(dir, 0)
	if err != nil {
		return nil, fmt.Errorf("--images: %w", err)
	}
	im, labels, file := set.Images, set.Labels, set.Path
	if labels == nil {
		return nil, fmt.Errorf("--images %s: no labels.txt next to the images; labelprop and stkr need a label per image", dir)
	}
	if n == 0 {
		n = im.Count
	}
	if n > im.Count {
		return nil, fmt.Errorf("--n %d is invalid: %s holds only %d images", n, file, im.Count)
	}
	if k < 1 || k >= n {
		return nil, fmt.Errorf("--neighbors %d is invalid: it must be in [1, %d) for %d images", k, n, n)
	}
	for i, l := range labels[:n] {
		if l < 0 {
			return nil, fmt.Errorf("%s: image %d has label %d; labels must be ≥ 0", filepath.Join(filepath.Dir(file), "labels.txt"), i, l)
		}
	}
	// Classes are the distinct labels, so a label value costs no memory.
	classes, values := loaders.NumberClasses(labels[:n])
	// Raw byte values: squared distances are exact integers.
	x := im.BytesRange(0, n)
	bar := newProgress(stderr, n, "knn")
	last := 0
	nb, err := knngraph.Exact(ctx, x, k, &knngraph.Settings{Progress: func(done, total int) {
		bar.Add(done - last)
		last = done
	}})
	bar.Finish()
	if err != nil {
		return nil, err
	}
	g, err := knngraph.NewGraph(nb, knngraph.Or)
	if err != nil {
		return nil, err
	}
	a, err := g.Adjacency()
	if err != nil {
		return nil, err
	}
	return &loaders.NodeDataset{Name: fmt.Sprintf("%s-knn%d", datasetName(dir), k), Graph: a, IDs: nodeids.Identity(n),
		Labels: classes, Classes: len(values), ClassValues: values}, nil
}

// refuseNPYImages refuses a NumPy file given as raw uint8 images: its
// header would be read as pixels. Its points go to --features.
func refuseNPYImages(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return nil // the image reader names a missing path
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 6)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil
	}
	if string(head) == "\x93NUMPY" || string(head[:4]) == "PK\x03\x04" {
		return fmt.Errorf("--images %s is a NumPy array (.npy/.npz), not raw uint8 images: give it to --features (one point per row), e.g. gssl knn --features %s", path, path)
	}
	return nil
}
