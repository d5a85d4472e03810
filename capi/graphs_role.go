package main

import (
	"context"
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graphkernels"
)

// graphList builds the graphs of n graph handles, with node labels
// concatenated over the graphs in order (NULL: none). It returns the
// entries too, so that a fit can hold them.
func graphList(hs unsafe.Pointer, n int64, nodeLabels unsafe.Pointer) ([]graphkernels.Graph, []*graphEntry, error) {
	if n < 0 {
		return nil, nil, fmt.Errorf("%d graphs: the count must be ≥ 0", n)
	}
	if n > 0 && hs == nil {
		return nil, nil, fmt.Errorf("graphs is NULL with %d graphs", n)
	}
	ids := unsafe.Slice((*int64)(hs), n)
	gs := make([]graphkernels.Graph, n)
	es := make([]*graphEntry, n)
	total := 0
	for i, h := range ids {
		e, err := lookup[*graphEntry](h, "graph")
		if err != nil {
			return nil, nil, fmt.Errorf("graph %d: %w", i, err)
		}
		es[i], gs[i].Adj = e, e.g
		total += e.g.Nodes()
	}
	if nodeLabels != nil {
		all := unsafe.Slice((*int64)(nodeLabels), total)
		at := 0
		for i := range gs {
			k := gs[i].Adj.Nodes()
			gs[i].Labels = make([]int, k)
			for j := range k {
				gs[i].Labels[j] = int(all[at+j])
			}
			at += k
		}
	}
	return gs, es, nil
}

// fitGraphs fits a graph classifier; the model holds its graphs (a mapped
// file stays mapped) until it is refitted or freed.
func (e *modelEntry) fitGraphs(ctx context.Context, gs []graphkernels.Graph, es []*graphEntry, labels []int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	m, ok := e.m.(graphClassifier)
	if !ok {
		return fmt.Errorf("%s (role %s) is not fitted on graphs", e.kind, e.role)
	}
	err := m.Fit(ctx, gs, labels)
	if rerr := e.release(); rerr != nil {
		return rerr
	}
	for _, g := range es {
		g.acquire()
	}
	e.graphs = es
	return err
}

// predictGraphs predicts the graphs gs (nil: the fitted ones).
func (e *modelEntry) predictGraphs(ctx context.Context, gs []graphkernels.Graph) (*result, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	m, ok := e.m.(graphClassifier)
	if !ok {
		return nil, fmt.Errorf("%s (role %s) does not predict graphs", e.kind, e.role)
	}
	return denseResult(m.Predict(ctx, gs))
}

// wlKernel returns the Weisfeiler–Lehman subtree kernel (Shervashidze et
// al. 2011) with h relabelling rounds between the graphs of query and those
// of train: the Gram matrix of train when query is nil, else one row per
// query graph and one column per training graph. Normalised, it is the
// cosine kernel k(a, b)/√(k(a, a)k(b, b)).
func wlKernel(ctx context.Context, h int, normalize bool, train, query []graphkernels.Graph) (*result, error) {
	wl := &graphkernels.WeisfeilerLehman{H: h}
	var k graphkernels.Kernel = wl
	if normalize {
		k = &graphkernels.Cosine{Kernel: wl}
	}
	if err := k.Fit(ctx, train); err != nil {
		return nil, err
	}
	if query != nil {
		return denseResult(k.Transform(ctx, query))
	}
	g, err := k.Gram(ctx)
	if err != nil {
		return nil, err
	}
	return denseResult(mat.DenseCopyOf(g), nil)
}
