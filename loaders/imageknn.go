package loaders

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/nodeids"
)

// ImageKNNDataset turns an image set (ReadImageSet: a folder with
// images_u8.bin.gz and labels.txt, or the image file) into a
// node-classification data set: the unweighted K-nearest-neighbour graph
// of its first n images (0: all), or-rule, exact Euclidean search on the
// raw byte values (squared distances are exact integers), with the labels
// as classes (numbered in ascending order). It is named
// "<folder>-knn<K>". progress, if not nil, observes the neighbour search.
func ImageKNNDataset(ctx context.Context, path string, n, k int, progress func(done, total int)) (*NodeDataset, error) {
	if n < 0 { // before any file is read
		return nil, &ParamError{"n", n, "it must be ≥ 0 (0: every image)"}
	}
	if err := RefuseNumPyImages(path); err != nil {
		return nil, err
	}
	set, err := ReadImageSet(path, 0)
	if err != nil {
		return nil, err
	}
	im, labels := set.Images, set.Labels
	if labels == nil {
		return nil, fmt.Errorf("loaders: %s: no labels.txt next to the images; a node data set needs a label per image", path)
	}
	if n, err = set.First(n); err != nil {
		return nil, err
	}
	if k < 1 || k >= n {
		return nil, &ParamError{"k", k, fmt.Sprintf("it must be in [1, %d) for %d images", n, n)}
	}
	for i, l := range labels[:n] {
		if l < 0 {
			return nil, fmt.Errorf("loaders: %s: image %d has label %d; labels must be ≥ 0", filepath.Join(filepath.Dir(set.Path), "labels.txt"), i, l)
		}
	}
	classes, values := NumberClasses(labels[:n])
	nb, err := knngraph.Exact(ctx, im.BytesRange(0, n), k, &knngraph.Settings{Progress: progress})
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
	dir := path
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		dir = filepath.Dir(path)
	}
	return &NodeDataset{Name: fmt.Sprintf("%s-knn%d", filepath.Base(filepath.Clean(dir)), k), Graph: a, IDs: nodeids.Identity(n),
		Labels: classes, Classes: len(values), ClassValues: values}, nil
}

// First is how many images "the first n images" of s are: n, or every
// image for n = 0; a *ParamError for n < 0 or above the count.
func (s *ImageSet) First(n int) (int, error) {
	switch {
	case n < 0:
		return 0, &ParamError{"n", n, "it must be ≥ 0 (0: every image)"}
	case n > s.Images.Count:
		return 0, &ParamError{"n", n, fmt.Sprintf("%s holds only %d images", s.Path, s.Images.Count)}
	case n == 0:
		return s.Images.Count, nil
	}
	return n, nil
}

// ParamError is a parameter of a loader outside its valid range: its
// name, its value and the range.
type ParamError struct {
	Name   string
	Value  int
	Reason string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("loaders: %s=%d is invalid: %s", e.Name, e.Value, e.Reason)
}

// RefuseNumPyImages refuses a NumPy file (.npy, or .npz's zip) given where
// raw uint8 images are expected: its header would be read as pixels. A
// path that is missing, a folder or unreadable passes (the image reader
// names it).
func RefuseNumPyImages(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		return nil
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
		return fmt.Errorf("loaders: %s is a NumPy array (.npy/.npz), not raw uint8 images: read it as points (ReadPointFeatures)", path)
	}
	return nil
}
