package graphkernels

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/parallel"
)

// WeisfeilerLehman is the Weisfeiler–Lehman subtree kernel of height H
// (Shervashidze et al., JMLR 2011, Algorithm 2 and eq. 3): H rounds in which
// every node takes as new label the id of its signature
//
//	(own label, sorted multiset of its neighbours' labels)
//
// in one dictionary shared by all graphs, each round with fresh ids. The
// feature vector of a graph counts the ids of rounds 0..H, and
// k(G, G') = ⟨φ(G), φ(G')⟩. Labels met only at Transform time get fresh ids
// beyond the fitted dictionary: they match nothing in the training graphs
// but count in the new graph's self-similarity.
//
// Fit costs O(H·(n + m log d)) for n nodes and m edges in all (d the largest
// degree) plus the Gram matrix; features take O(H·n) memory.
type WeisfeilerLehman struct {
	// H is the number of relabelling rounds; H = 0 is the vertex histogram.
	// It must be in [0, 64].
	H int
	// Progress, when set, observes the Gram matrix rows.
	Progress Progress

	dict  *wlDictionary
	train []SparseVector
}

// MaxWLHeight bounds WeisfeilerLehman.H: deeper subtrees are unique to a
// node long before that on any real graph.
const MaxWLHeight = 64

var _ Kernel = (*WeisfeilerLehman)(nil)

// Validate checks H.
func (w *WeisfeilerLehman) Validate() error {
	if w.H < 0 || w.H > MaxWLHeight {
		return fmt.Errorf("graphkernels: WeisfeilerLehman H=%d is invalid: it must be in [0, %d]", w.H, MaxWLHeight)
	}
	return nil
}

// Gram returns the Gram matrix of the training graphs.
func (w *WeisfeilerLehman) Gram(ctx context.Context) (*mat.SymDense, error) {
	if w.dict == nil {
		return nil, estimator.NotFitted("graphkernels: WeisfeilerLehman.Gram")
	}
	return SparseGram(ctx, w.train, w.Progress)
}

// Fit builds the label dictionary on graphs and keeps their feature
// vectors (Features).
func (w *WeisfeilerLehman) Fit(ctx context.Context, graphs []Graph) error {
	if err := w.Validate(); err != nil {
		return err
	}
	if len(graphs) == 0 {
		return fmt.Errorf("graphkernels: WeisfeilerLehman: no training graphs")
	}
	if err := checkGraphs("training", graphs); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dict := newWLDictionary(w.H)
	phi, err := wlFeatures(ctx, graphs, w.H, dict.labeler(true))
	if err != nil {
		return err
	}
	w.dict, w.train = dict, phi
	return nil
}

// Features returns the feature vectors of the training graphs (shared; do
// not modify). Coordinates are dictionary ids: the ids of round 0 come
// first, then those of round 1, and so on.
func (w *WeisfeilerLehman) Features() []SparseVector { return w.train }

// Dimension returns the size of the fitted dictionary: the number of
// distinct labels over all rounds of the training graphs.
func (w *WeisfeilerLehman) Dimension() int {
	if w.dict == nil {
		return 0
	}
	return int(w.dict.size)
}

// TransformFeatures returns the feature vectors of new graphs in the fitted
// dictionary; unseen labels get ids from Dimension() on, consistently within
// the call.
func (w *WeisfeilerLehman) TransformFeatures(ctx context.Context, graphs []Graph) ([]SparseVector, error) {
	if w.dict == nil {
		return nil, estimator.NotFitted("graphkernels: WeisfeilerLehman.Transform")
	}
	if err := checkGraphs("new", graphs); err != nil {
		return nil, err
	}
	return wlFeatures(ctx, graphs, w.dict.height, w.dict.labeler(false))
}

// Cross returns k(new_i, train_j) and k(new_i, new_i).
func (w *WeisfeilerLehman) Cross(ctx context.Context, graphs []Graph) (*mat.Dense, []float64, error) {
	phi, err := w.TransformFeatures(ctx, graphs)
	if err != nil {
		return nil, nil, err
	}
	return SparseCross(ctx, phi, w.train, w.Progress)
}

// Transform returns k(new_i, train_j).
func (w *WeisfeilerLehman) Transform(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	return dropSelf(w.Cross(ctx, graphs))
}

// Info is the zero Info: the kernel has no iterative solve.
func (w *WeisfeilerLehman) Info() estimator.Info { return estimator.Info{} }

// Clone returns an unfitted copy of w.
func (w *WeisfeilerLehman) Clone() *WeisfeilerLehman {
	return &WeisfeilerLehman{H: w.H, Progress: w.Progress}
}

// VertexHistogram is the kernel that counts matching node labels:
// φ(G) = label counts, k(G, G') = ⟨φ(G), φ(G')⟩ (Weisfeiler–Lehman of
// height 0).
type VertexHistogram struct {
	// Progress, when set, observes the Gram matrix rows.
	Progress Progress

	wl WeisfeilerLehman
}

var _ Kernel = (*VertexHistogram)(nil)

// Validate accepts every VertexHistogram: it has no hyperparameter.
func (v *VertexHistogram) Validate() error { return nil }

// Fit builds the label dictionary.
func (v *VertexHistogram) Fit(ctx context.Context, graphs []Graph) error {
	v.wl = WeisfeilerLehman{H: 0, Progress: v.Progress}
	return v.wl.Fit(ctx, graphs)
}

// Gram returns the Gram matrix of the training graphs.
func (v *VertexHistogram) Gram(ctx context.Context) (*mat.SymDense, error) {
	v.wl.Progress = v.Progress
	return v.wl.Gram(ctx)
}

// Cross returns k(new_i, train_j) and k(new_i, new_i).
func (v *VertexHistogram) Cross(ctx context.Context, graphs []Graph) (*mat.Dense, []float64, error) {
	v.wl.Progress = v.Progress
	return v.wl.Cross(ctx, graphs)
}

// Transform returns k(new_i, train_j).
func (v *VertexHistogram) Transform(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	return dropSelf(v.Cross(ctx, graphs))
}

// Info is the zero Info.
func (v *VertexHistogram) Info() estimator.Info { return estimator.Info{} }

// Clone returns an unfitted copy of v.
func (v *VertexHistogram) Clone() *VertexHistogram { return &VertexHistogram{Progress: v.Progress} }

// Features returns the label counts of the training graphs.
func (v *VertexHistogram) Features() []SparseVector { return v.wl.Features() }

// wlDictionary maps original labels (round 0) and signatures (rounds
// 1..height) to ids; ids of different rounds never collide.
type wlDictionary struct {
	height  int
	initial map[int]int32
	rounds  []map[string]int32
	size    int32
}

func newWLDictionary(h int) *wlDictionary {
	d := &wlDictionary{height: h, initial: map[int]int32{}, rounds: make([]map[string]int32, h)}
	for r := range d.rounds {
		d.rounds[r] = map[string]int32{}
	}
	return d
}

// wlLabeler looks labels up in a dictionary. When grow is set it adds new
// entries to the dictionary itself (fitting); otherwise new entries go to a
// private overlay, numbered from the dictionary's size (transforming), so
// the dictionary is only read and Transform is safe for concurrent use.
type wlLabeler struct {
	d        *wlDictionary
	grow     bool
	initial  map[int]int32
	rounds   []map[string]int32
	nextFree int32
}

func (d *wlDictionary) labeler(grow bool) *wlLabeler {
	l := &wlLabeler{d: d, grow: grow, nextFree: d.size}
	if !grow {
		l.initial = map[int]int32{}
		l.rounds = make([]map[string]int32, d.height)
		for r := range l.rounds {
			l.rounds[r] = map[string]int32{}
		}
	}
	return l
}

// reserve sizes the maps of the rounds still empty for n new signatures
// each, saving the rehashing as they grow.
func (l *wlLabeler) reserve(n int) {
	ms := l.rounds
	if l.grow {
		ms = l.d.rounds
	}
	for r, m := range ms {
		if len(m) == 0 {
			ms[r] = make(map[string]int32, n)
		}
	}
}

func (l *wlLabeler) fresh() int32 {
	id := l.nextFree
	l.nextFree++
	if l.grow {
		l.d.size = l.nextFree
	}
	return id
}

func (l *wlLabeler) initialID(label int) int32 {
	if id, ok := l.d.initial[label]; ok {
		return id
	}
	m := l.initial
	if l.grow {
		m = l.d.initial
	} else if id, ok := m[label]; ok {
		return id
	}
	id := l.fresh()
	m[label] = id
	return id
}

// signatureID returns the id of a round-r signature (r ≥ 1). The lookup
// with string(key) does not allocate; only new entries copy the key.
func (l *wlLabeler) signatureID(r int, key []byte) int32 {
	if id, ok := l.d.rounds[r-1][string(key)]; ok {
		return id
	}
	m := l.d.rounds[r-1]
	if !l.grow {
		m = l.rounds[r-1]
		if id, ok := m[string(key)]; ok {
			return id
		}
	}
	id := l.fresh()
	m[string(key)] = id
	return id
}

// wlFeatures runs h relabelling rounds over graphs and returns the count
// vectors of rounds 0..h. Node ids are flattened over the graphs, and new
// ids are handed out in the order graph by graph, node by node, as in the
// Python peer (the Gram matrix does not depend on the order). Each round
// builds every node's signature in parallel, then looks them up in the
// dictionary in node order, so ids do not depend on the schedule.
func wlFeatures(ctx context.Context, graphs []Graph, h int, lab *wlLabeler) ([]SparseVector, error) {
	offset := make([]int, len(graphs)+1)
	for g, gr := range graphs {
		offset[g+1] = offset[g] + gr.Adj.Nodes()
	}
	total := offset[len(graphs)]
	// labels[r*total + v] is the label of flattened node v in round r.
	labels := make([]int32, (h+1)*total)
	for g, gr := range graphs {
		for v := 0; v < gr.Adj.Nodes(); v++ {
			labels[offset[g]+v] = lab.initialID(gr.label(v))
		}
	}
	// Signature of node v: 4 bytes per label, its own then its neighbours'
	// (self loops excluded), at keyOff[v]:keyOff[v+1] of keys.
	keyOff := make([]int, total+1)
	work := make([]int, len(graphs)+1)
	for g, gr := range graphs {
		for v := 0; v < gr.Adj.Nodes(); v++ {
			cols, _ := gr.Adj.Row(v)
			d := len(cols)
			if gr.Adj.HasEdge(v, v) {
				d--
			}
			keyOff[offset[g]+v+1] = keyOff[offset[g]+v] + 4*(1+d)
		}
		work[g+1] = keyOff[offset[g+1]]
	}
	keys := make([]byte, keyOff[total])
	if h > 0 {
		lab.reserve(total)
	}
	for r := 1; r <= h; r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cur := labels[(r-1)*total : r*total]
		parallel.Balanced(work, wlParallelBytes, func(lo, hi int) {
			var nb []int32
			for g := lo; g < hi; g++ {
				gr, base := graphs[g], offset[g]
				for v := 0; v < gr.Adj.Nodes(); v++ {
					cols, _ := gr.Adj.Row(v)
					nb = nb[:0]
					for _, c := range cols {
						if int(c) != v {
							nb = append(nb, cur[base+int(c)])
						}
					}
					slices.Sort(nb)
					key := keys[keyOff[base+v]:keyOff[base+v]]
					key = binary.LittleEndian.AppendUint32(key, uint32(cur[base+v]))
					for _, x := range nb {
						key = binary.LittleEndian.AppendUint32(key, uint32(x))
					}
				}
			}
		})
		next := labels[r*total : (r+1)*total]
		for v := range next {
			next[v] = lab.signatureID(r, keys[keyOff[v]:keyOff[v+1]])
		}
	}
	phi := make([]SparseVector, len(graphs))
	parallel.For(len(graphs), 16, func(lo, hi int) {
		for g := lo; g < hi; g++ {
			n := offset[g+1] - offset[g]
			ids := make([]int32, 0, (h+1)*n)
			for r := 0; r <= h; r++ {
				ids = append(ids, labels[r*total+offset[g]:r*total+offset[g+1]]...)
			}
			phi[g] = countVector(ids)
		}
	})
	return phi, nil
}

// wlParallelBytes is the signature volume below which a round is built on
// one goroutine.
const wlParallelBytes = 1 << 16
