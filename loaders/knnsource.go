package loaders

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/nodeids"
)

// KNNSource is where the points of a K-nearest-neighbour search come from:
// a file of points (Features, read by ReadPoints) or the first N images of
// an image set (Images, ReadImageSet with Pixels); N = 0 takes every row.
// The tags are gssl knn's flags, which its errors name.
type KNNSource struct {
	Images   string `flag:"images"`
	Features string `flag:"features"`
	Pixels   int    `flag:"pixels"`
	N        int    `flag:"n"`
}

// KNNPoints are the rows to search, their source in a knngraph.Report
// (Images, Features, Dataset, Nodes, Dim), and the scale that gives their
// squared distances in the source's units (knngraph.Run.Dist2Scale).
type KNNPoints struct {
	X          *mat.Dense
	IDs        *nodeids.Map // the ids of the points of a file (nil for images)
	Report     knngraph.Report
	Dist2Scale float64
	Bytes      []uint8 // the rows of X as bytes, for images (knngraph.Run.Bytes)
}

// Validate refuses a negative N and both sources at once.
func (s KNNSource) Validate() error {
	switch {
	case s.N < 0:
		return fmt.Errorf("--n %d is invalid: it must be ≥ 0 (0 means all images)", s.N)
	case s.Images != "" && s.Features != "":
		return fmt.Errorf("--images and --features exclude each other: uint8 images, or points")
	}
	return nil
}

// Select returns the first N rows of the points p of s.Features (read by
// the caller), or reads the first N images of s.Images as raw byte values
// (squared distances are exact integers; Dist2Scale is PixelScale²), refusing
// images whose points pass budget. An N beyond the images is a *ParamError.
func (s KNNSource) Select(p *Points, budget memlimit.Budget) (*KNNPoints, error) {
	if s.Features != "" {
		x, ids := p.X, p.IDs
		n, d := x.Dims()
		switch {
		case s.N > n:
			return nil, fmt.Errorf("--n %d is invalid: %s holds only %d points", s.N, s.Features, n)
		case s.N > 0:
			x, n = x.Slice(0, s.N, 0, d).(*mat.Dense), s.N
			ids = ids.Subset(firstN(n))
		}
		name := strings.TrimSuffix(filepath.Base(s.Features), filepath.Ext(s.Features))
		return &KNNPoints{X: x, IDs: ids, Dist2Scale: 1,
			Report: knngraph.Report{Features: s.Features, Dataset: name, Nodes: n, Dim: d}}, nil
	}
	if err := CheckImagesPath(s.Images); err != nil {
		return nil, err
	}
	set, err := ReadImageSet(s.Images, s.Pixels)
	if err != nil {
		return nil, fmt.Errorf("--images: %w", err)
	}
	n, err := set.First(s.N)
	if err != nil {
		return nil, err
	}
	pixels := set.Images.Pixels
	if err := budget.Check(knngraph.PointsBytes(n, pixels), fmt.Sprintf("%d images of %d pixels", n, pixels), "give fewer images (--n)"); err != nil {
		return nil, err
	}
	return &KNNPoints{X: set.Images.BytesRange(0, n), Dist2Scale: PixelScale * PixelScale, Bytes: set.Images.Data[:n*pixels],
		Report: knngraph.Report{Images: s.Images, Dataset: filepath.Base(filepath.Dir(set.Path)), Nodes: n, Dim: pixels}}, nil
}

// Check refuses, once read, points above budget and a file without rows.
func (p *Points) Check(budget memlimit.Budget) error {
	n, d := p.X.Dims()
	if err := budget.Check(knngraph.PointsBytes(n, d), fmt.Sprintf("the %d×%d features of %s", n, d, p.Report.Path), "give fewer points or features"); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("--features %s has no rows: a K-nearest-neighbour graph needs points", p.Report.Path)
	}
	return nil
}

// firstN returns 0..n−1.
func firstN(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// KNNGraph builds the K-nearest-neighbour graph of the points pts, read
// from path, (knngraph.FromPoints with p) as the graph of ds, whose nodes
// are the rows, within budget; errors name the rows of path.
func KNNGraph(ctx context.Context, ds *NodeDataset, pts *Points, path string, p knngraph.PointGraph, budget memlimit.Budget) (*knngraph.Weighted, knngraph.Summary, error) {
	n, d := pts.X.Dims()
	if what := "rows of --features " + path; n < 2 {
		return nil, knngraph.Summary{}, fmt.Errorf("%d %s: a K-nearest-neighbour graph needs at least 2 points", n, what)
	} else if p.K >= n {
		return nil, knngraph.Summary{}, fmt.Errorf("--neighbors %d is invalid: it must be in [1, %d] for %d %s (a point's neighbours are the other points)", p.K, n-1, n, what)
	}
	p.MaxBytes = budget.Bytes
	w, s, err := knngraph.FromPoints(ctx, pts.X, p)
	if me := (*knngraph.MemoryError)(nil); errors.As(err, &me) {
		return nil, s, budget.Check(me.Need, fmt.Sprintf("the %d×%d points and their K-nearest-neighbour graph (k = %d)", n, d, p.K), "give fewer points or features, or a smaller --neighbors")
	} else if err != nil {
		// The library's "knngraph: point i" in the user's row numbering and file.
		msg := strings.Replace(strings.TrimPrefix(err.Error(), "knngraph: "), "point ", "--features "+path+": row ", 1)
		return nil, s, errors.New(strings.Replace(msg, "node ", "--features "+path+": row ", 1))
	}
	ds.Graph = w.W
	return w, s, nil
}

// CheckImagesPath refuses a NumPy file given to --images as raw uint8
// images (RefuseNumPyImages), pointing to --features.
func CheckImagesPath(path string) error {
	if err := RefuseNumPyImages(path); err != nil {
		return fmt.Errorf("--images: %w; give it to --features (one point per row), e.g. gssl knn --features %s", err, path)
	}
	return nil
}
