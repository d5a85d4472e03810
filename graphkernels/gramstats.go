package graphkernels

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// FeatureCount returns the dictionary size of an explicit-feature kernel
// after Fit (WL: its Dimension; shortest path and vertex histogram: one
// more than the largest feature index any graph has), looking through
// Cosine; 0 for a kernel without explicit features (the random walk).
func FeatureCount(k Kernel) int {
	if c, ok := k.(*Cosine); ok {
		k = c.Fitted()
	}
	switch k := k.(type) {
	case *WeisfeilerLehman:
		return k.Dimension()
	case interface{ Features() []SparseVector }:
		d := 0
		for _, v := range k.Features() {
			if n := len(v.Idx); n > 0 {
				d = max(d, int(v.Idx[n-1])+1)
			}
		}
		return d
	}
	return 0
}

// GramByClass is a Gram matrix with its graphs ordered by class, the form
// in which a heat map shows whether a kernel separates the classes: the
// blocks on the diagonal (same class) should be brighter than the rest.
type GramByClass struct {
	// Order lists the graphs by class, ascending, and by index within a
	// class.
	Order []int
	// Classes holds the class of each block; block b is the graphs
	// Order[Starts[b]:Starts[b+1]].
	Classes []int
	Starts  []int
	// Values is the n×n matrix in Order (row-major): k(Order[a], Order[b]),
	// divided by √(k(i,i)·k(j,j)) when Cosine was asked (NaN where that
	// product is not positive).
	Values []float64
	// Means is the mean of Values over each pair of blocks, NaN left out
	// (0 for a block pair without a finite value).
	Means *mat.Dense
}

// Bounds returns the starts of the blocks after the first: the lines a
// heat map draws between classes.
func (g *GramByClass) Bounds() []int { return g.Starts[1 : len(g.Starts)-1] }

// SortGramByClass orders gram's graphs by their class labels (any ints)
// and, with cosine, normalises k(i,j)/√(k(i,i)·k(j,j)) (as the Cosine
// kernel does) so that large graphs do not drown the rest. It takes O(n²)
// time and memory, as the Gram matrix itself.
func SortGramByClass(gram mat.Symmetric, labels []int, cosine bool) (*GramByClass, error) {
	n := gram.SymmetricDim()
	if len(labels) != n {
		return nil, fmt.Errorf("graphkernels: SortGramByClass: %d labels for a %d×%d Gram matrix", len(labels), n, n)
	}
	if n == 0 {
		return nil, fmt.Errorf("graphkernels: SortGramByClass: an empty Gram matrix")
	}
	g := &GramByClass{Order: make([]int, n), Values: make([]float64, n*n)}
	for i := range g.Order {
		g.Order[i] = i
	}
	sort.SliceStable(g.Order, func(a, b int) bool { return labels[g.Order[a]] < labels[g.Order[b]] })
	for k := 0; k < n; k++ {
		if k == 0 || labels[g.Order[k]] != labels[g.Order[k-1]] {
			g.Starts, g.Classes = append(g.Starts, k), append(g.Classes, labels[g.Order[k]])
		}
	}
	g.Starts = append(g.Starts, n)
	for a, i := range g.Order {
		for b, j := range g.Order {
			v := gram.At(i, j)
			if cosine {
				if d := math.Sqrt(gram.At(i, i) * gram.At(j, j)); d > 0 {
					v /= d
				} else {
					v = math.NaN()
				}
			}
			g.Values[a*n+b] = v
		}
	}
	c := len(g.Classes)
	g.Means = mat.NewDense(c, c, nil)
	for p := 0; p < c; p++ {
		for q := 0; q < c; q++ {
			s, cnt := 0.0, 0
			for a := g.Starts[p]; a < g.Starts[p+1]; a++ {
				for b := g.Starts[q]; b < g.Starts[q+1]; b++ {
					if v := g.Values[a*n+b]; !math.IsNaN(v) {
						s, cnt = s+v, cnt+1
					}
				}
			}
			g.Means.Set(p, q, s/float64(max(cnt, 1)))
		}
	}
	return g, nil
}
