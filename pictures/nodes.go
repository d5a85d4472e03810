package pictures

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/figures"
	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/spectral"
)

// MaxEmbedNodes bounds the graphs whose eigenmap a picture computes: beyond
// it the Lanczos run costs more than the command, and the scatter is a blot.
const MaxEmbedNodes = 50000

// eigenmap2D returns the 2-D Laplacian eigenmap of the largest connected
// component of ds (spectral.ComponentEigenmap: its coordinates and the
// component's nodes in ds), or a note saying why there is none.
func eigenmap2D(ctx context.Context, ds *loaders.NodeDataset, seed uint64) (x, y []float64, nodes []int, note string, err error) {
	if n := ds.Graph.Nodes(); n > MaxEmbedNodes {
		return nil, nil, nil, fmt.Sprintf("no embedding panel: %d nodes is more than %d", n, MaxEmbedNodes), nil
	}
	c, nodes, err := spectral.ComponentEigenmap(ctx, ds.Graph, &spectral.LaplacianEigenmap{Dim: 2, Eigen: spectral.Settings{Seed: seed}})
	if errors.Is(err, spectral.ErrComponentTooSmall) {
		return nil, nil, nil, "no embedding panel: the largest component has fewer than 4 nodes", nil
	} else if err != nil {
		return nil, nil, nil, "", fmt.Errorf("pictures: the Laplacian eigenmap of the figure: %w", err)
	}
	return mat.Col(nil, 0, c), mat.Col(nil, 1, c), nodes, "", nil
}

// Predictions draws a node classifier's predictions pred (one class per
// node of ds): the confusion matrix and per-class accuracy on the test
// nodes, and the eigenmap by predicted class with the wrong test nodes
// ringed. names are the class names; seed seeds the eigensolver.
func Predictions(ctx context.Context, ds *loaders.NodeDataset, pred, test []int, names []string, seed uint64) (Picture, error) {
	var pic Picture
	if len(test) == 0 {
		pic.note("no confusion matrix: the run has no test nodes (give a split, e.g. --split random:20)")
	} else {
		counts, err := eval.Confusion(pred, ds.Labels, test, ds.Classes)
		if err == nil {
			pic.Panels, err = figures.ConfusionPanels(counts, names)
		}
		if err != nil {
			return pic, err
		}
		pic.Tables = htmlreport.ConfusionTables(counts, names)
	}
	wrongAt := map[int]bool{}
	for _, i := range test {
		if pred[i] != ds.Labels[i] {
			wrongAt[i] = true
		}
	}
	x, y, nodes, note, err := eigenmap2D(ctx, ds, seed)
	if err != nil || note != "" {
		if note != "" {
			pic.note(note)
		}
		return pic, err
	}
	cls, wrong := make([]int, len(nodes)), make([]bool, len(nodes))
	for k, i := range nodes {
		cls[k], wrong[k] = pred[i], wrongAt[i]
	}
	if len(wrongAt) == 0 {
		wrong = nil
	}
	title := fmt.Sprintf("Laplacian eigenmap (largest component, %d nodes) by predicted class", len(nodes))
	emb, err := figures.Embedding(title, x, y, cls, names, wrong)
	pic.Panels = append(pic.Panels, emb)
	return pic, err
}

// Clusters draws a clustering of ds into k clusters: the eigenmap of the
// largest component coloured by cluster and, with labels, by class; with
// labels, the clusters against the classes as a table.
func Clusters(ctx context.Context, ds *loaders.NodeDataset, clusters []int, k int, data string, seed uint64) (Picture, error) {
	pic := Picture{Caption: fmt.Sprintf("spectral clustering of %s into %d clusters", data, k)}
	x, y, nodes, note, err := eigenmap2D(ctx, ds, seed)
	if err != nil {
		return pic, err
	}
	names := classNames(ds)
	if note != "" {
		pic.note(note)
	} else {
		title := fmt.Sprintf("Laplacian eigenmap (largest component, %d nodes)", len(nodes))
		cl, cls := make([]int, len(nodes)), make([]int, len(nodes))
		for j, i := range nodes {
			cl[j], cls[j] = clusters[i], labelOf(ds, i)
		}
		for _, c := range []struct {
			by     string
			colour []int
			names  []string
		}{{"cluster", cl, nil}, {"class", cls, names}}[:1+min(ds.Classes, 1)] { // by class with labels only
			p, err := figures.Embedding(title+" by "+c.by, x, y, c.colour, c.names, nil)
			if err != nil {
				return pic, err
			}
			pic.Panels = append(pic.Panels, p)
		}
	}
	if ds.Classes > 0 {
		counts, rows := make([][]int, k), make([]string, k)
		for c := range counts {
			counts[c], rows[c] = make([]int, ds.Classes), strconv.Itoa(c)
		}
		for i, l := range ds.Labels {
			if l >= 0 && l < ds.Classes && clusters[i] >= 0 && clusters[i] < k {
				counts[clusters[i]][l]++
			}
		}
		pic.Tables = append(pic.Tables, htmlreport.CountTable("clusters (rows) against classes (columns), labelled nodes", "cluster \\ class", rows, names, counts))
	}
	return pic, nil
}

// Embedding draws the embedding c of ds's nodes (its first two
// coordinates, or the first against the node index for one column)
// coloured by class; data names the data set.
func Embedding(ds *loaders.NodeDataset, c *mat.Dense, data string) (Picture, error) {
	n, d := c.Dims()
	x := mat.Col(nil, 0, c)
	var y []float64
	if d >= 2 {
		y = mat.Col(nil, 1, c)
	}
	cls := make([]int, n)
	for i := range cls {
		cls[i] = labelOf(ds, i)
	}
	p, err := figures.Embedding("Laplacian eigenmap: "+filepath.Base(data), x, y, cls, classNames(ds), nil)
	if err != nil {
		return Picture{}, err
	}
	return Picture{Panels: []*figures.Plot{p}, Caption: "Laplacian eigenmap of " + data}, nil
}

// MultiplicityTol is the relative gap under which two computed eigenvalues
// count as one of multiplicity two in the spectrum panel: the threshold
// under which spectral.Summarize counts zero eigenvalues.
const MultiplicityTol = spectral.ZeroEigenvalueTol

// Spectrum draws the k eigenpairs s asked of the Laplacian named laplacian
// of the data set data, computed to tolerance tol: the eigenvalues
// (multiplicities marked) and the residuals, with the table of both.
func Spectrum(s spectral.Summary, k int, data, laplacian string, tol float64) (Picture, error) {
	pic := Picture{Caption: "spectrum of " + data}
	spec, err := figures.Spectrum(fmt.Sprintf("%d smallest eigenvalues of L_%s", k, laplacian), s.Eigenvalues, MultiplicityTol)
	if err != nil {
		return pic, err
	}
	resid, err := figures.Residuals(fmt.Sprintf("residuals (tolerance %.2g)", tol), s.Residuals)
	if err != nil {
		return pic, err
	}
	t := htmlreport.Table{Caption: "eigenpairs", Header: []string{"index", "eigenvalue", "residual"}}
	for i, v := range s.Eigenvalues {
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), strconv.FormatFloat(v, 'f', 12, 64), strconv.FormatFloat(s.Residuals[i], 'g', 3, 64)})
	}
	pic.Panels, pic.Tables = []*figures.Plot{spec, resid}, []htmlreport.Table{t}
	return pic, nil
}

// classNames are the names of ds's classes.
func classNames(ds *loaders.NodeDataset) []string {
	names := make([]string, ds.Classes)
	for c := range names {
		names[c] = ds.ClassName(c)
	}
	return names
}

// labelOf is node i's class, −1 when unlabelled or without labels.
func labelOf(ds *loaders.NodeDataset, i int) int {
	if ds.Labels == nil {
		return -1
	}
	return ds.Labels[i]
}
