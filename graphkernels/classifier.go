package graphkernels

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/svm"
)

// WLClassifierKind is the kind of a fitted WLClassifier in a modelfile
// container, and ModelVersion the newest layout of it this package reads
// and writes (version 2 added Normalize; a version-1 file reads as
// Normalize false).
const (
	WLClassifierKind = "graphkernels.WLClassifier"
	ModelVersion     = 2
)

// WLClassifier is the C-SVM of package svm on the Weisfeiler–Lehman kernel
// of height H: Fit builds the label dictionary and the training graphs'
// feature vectors, and the machine on their Gram matrix; Predict relabels
// new graphs in the fitted dictionary and compares them with the training
// graphs. Everything it needs is stored by MarshalBinary, so a saved
// classifier predicts new graphs by itself.
type WLClassifier struct {
	// H is the number of relabelling rounds, in [0, MaxWLHeight].
	H int
	// C is the SVM's box constraint; 0 means svm.DefaultC.
	C float64
	// Normalize cosine-normalises the kernel, k(G, G')/√(k(G, G)·k(G', G')),
	// with the formulas of Cosine (NormalizeGram, NormalizeCross), so the
	// classifier is the machine gssl graphkernel --normalize evaluates.
	Normalize bool
	// Settings control the SMO solves.
	Settings svm.Settings

	wl    *WeisfeilerLehman
	svc   *svm.SVC
	train []SparseVector // the training graphs' features
	diag  []float64      // k(G_j, G_j) of the training graphs, with Normalize
}

// Machine is the kernel machine fitted on a Gram matrix of graphs (by
// the graph-classification protocol of package eval, and by gssl
// graphkernel).
type Machine int

const (
	// SVM is the C-SVM of package svm (one-vs-one, SMO), the machine of
	// WLClassifier.
	SVM Machine = iota
	// Ridge is the kernel ridge classifier of package svm.
	Ridge
)

var _ GraphClassifier = (*WLClassifier)(nil)

// Validate checks H, C and Settings.
func (c *WLClassifier) Validate() error {
	if err := (&WeisfeilerLehman{H: c.H}).Validate(); err != nil {
		return err
	}
	if err := (&svm.SVC{C: c.C, Settings: c.Settings}).Validate(); err != nil {
		return fmt.Errorf("graphkernels: WLClassifier: %w", err)
	}
	return nil
}

// Fit trains on graphs and their classes (one per graph, ≥ 0; at least two
// distinct). When an SMO solve stops at its cap the classifier is kept and
// Fit returns the *estimator.NotConvergedError.
func (c *WLClassifier) Fit(ctx context.Context, graphs []Graph, labels []int) error {
	if err := c.Validate(); err != nil {
		return err
	}
	wl := &WeisfeilerLehman{H: c.H}
	if err := wl.Fit(ctx, graphs); err != nil {
		return err
	}
	if len(labels) != len(graphs) {
		return fmt.Errorf("graphkernels: WLClassifier: %d graphs but %d labels", len(graphs), len(labels))
	}
	k, err := SparseGram(ctx, wl.train, nil)
	if err != nil {
		return err
	}
	var diag []float64
	if c.Normalize {
		// As Cosine.Fit: the raw diagonal, then the Gram scaled in place.
		diag = make([]float64, len(graphs))
		for i := range diag {
			diag[i] = k.At(i, i)
		}
		NormalizeGram(k)
	}
	s := &svm.SVC{C: c.C, Settings: c.Settings}
	fitErr := s.Fit(ctx, k, labels)
	var nc *estimator.NotConvergedError
	if fitErr != nil && !errors.As(fitErr, &nc) {
		return fitErr
	}
	c.wl, c.svc, c.train, c.diag = wl, s, wl.train, diag
	return fitErr
}

// Classes returns the classes seen at Fit, ascending (nil before Fit).
func (c *WLClassifier) Classes() []int {
	if c.svc == nil {
		return nil
	}
	return slices.Clone(c.svc.Classes())
}

// TrainingGraphs returns the number of graphs the classifier was fitted on.
func (c *WLClassifier) TrainingGraphs() int { return len(c.train) }

// cross returns the kernel between the feature vectors phi and the
// training graphs, normalised as at Fit.
func (c *WLClassifier) cross(ctx context.Context, phi []SparseVector) (*mat.Dense, error) {
	cross, self, err := SparseCross(ctx, phi, c.train, nil)
	if err != nil {
		return nil, err
	}
	if c.Normalize {
		NormalizeCross(cross, self, c.diag)
	}
	return cross, nil
}

// Decision returns the decision value of every one-vs-one machine (see
// svm.SVC.Decision) for each graph; nil graphs are the training graphs,
// from their stored feature vectors.
func (c *WLClassifier) Decision(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	if c.svc == nil {
		return nil, estimator.NotFitted("graphkernels: WLClassifier")
	}
	phi := c.train
	if graphs != nil {
		var err error
		if phi, err = c.wl.TransformFeatures(ctx, graphs); err != nil {
			return nil, err
		}
	}
	if len(phi) == 0 {
		return &mat.Dense{}, nil
	}
	cross, err := c.cross(ctx, phi)
	if err != nil {
		return nil, err
	}
	return c.svc.Decision(cross)
}

// Votes returns the votes of the one-vs-one machines for every class
// 0..C−1 from decision values Decision returned (see svm.SVC.Votes).
func (c *WLClassifier) Votes(dec *mat.Dense) *mat.Dense { return c.svc.Votes(dec) }

// Predict returns, for each graph, the votes of the one-vs-one machines
// for every class 0..C−1: the predicted class is the row's first maximum
// (estimator.Argmax), the smallest of the most voted classes. nil graphs
// are the training graphs.
func (c *WLClassifier) Predict(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	dec, err := c.Decision(ctx, graphs)
	if err != nil {
		return nil, err
	}
	if dec.IsEmpty() {
		return dec, nil
	}
	return c.svc.Votes(dec), nil
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (c *WLClassifier) Output() estimator.Output { return estimator.DecisionValues }

// Info reports the SMO iterations summed over the machines.
func (c *WLClassifier) Info() estimator.Info {
	if c.svc == nil {
		return estimator.Info{}
	}
	return estimator.Info{Iterations: c.svc.Iterations()}
}

// Kind returns WLClassifierKind.
func (c *WLClassifier) Kind() string { return WLClassifierKind }

// Clone returns an unfitted copy of c.
func (c *WLClassifier) Clone() *WLClassifier {
	return &WLClassifier{H: c.H, C: c.C, Normalize: c.Normalize, Settings: c.Settings}
}

type wlClassifierMeta struct {
	H         int     `json:"h"`
	C         float64 `json:"c"`
	Normalize bool    `json:"normalize,omitempty"`
	Tol       float64 `json:"tol"`
	MaxIter   int     `json:"max_iter"`
	Size      int     `json:"dictionary_size"`
	Graphs    int     `json:"graphs"`
	Initial   int     `json:"initial_labels"`
	Keys      int     `json:"signatures"`
}

// wlClassifierCodec stores a fitted WLClassifier (kind WLClassifierKind):
// the WL dictionary — the round-0 labels with their ids (wl.initial_labels,
// wl.initial_ids) and every round's signatures (wl.keys, their byte offsets
// wl.key_offsets, rounds wl.key_rounds and ids wl.key_ids) in sorted order
// —, the training graphs' feature vectors (wl.train_offsets, wl.train_idx,
// wl.train_val) and the SVM (svm, a nested svm.SVC model file).
var wlClassifierCodec = modelfile.Codec[WLClassifier, wlClassifierMeta]{Kind: WLClassifierKind, Version: ModelVersion,
	Fitted: func(c *WLClassifier) bool { return c.svc != nil },
	Put:    putWLClassifier,
	Get:    readWLClassifier,
}

func putWLClassifier(c *WLClassifier, f *modelfile.File) (wlClassifierMeta, error) {
	d := c.wl.dict
	labels := make([]int, 0, len(d.initial))
	for l := range d.initial {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	il := make([]int64, len(labels))
	ii := make([]int32, len(labels))
	for p, l := range labels {
		il[p], ii[p] = int64(l), d.initial[l]
	}
	var keys []byte
	var offs []int64
	var rounds, ids []int32
	offs = append(offs, 0)
	for r, m := range d.rounds {
		ks := make([]string, 0, len(m))
		for k := range m {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			keys = append(keys, k...)
			offs = append(offs, int64(len(keys)))
			rounds, ids = append(rounds, int32(r)), append(ids, m[k])
		}
	}
	toff := []int64{0}
	var tidx []int32
	var tval []float64
	for _, v := range c.train {
		tidx, tval = append(tidx, v.Idx...), append(tval, v.Val...)
		toff = append(toff, int64(len(tidx)))
	}
	svc, err := c.svc.ModelFile()
	if err != nil {
		return wlClassifierMeta{}, err
	}
	f.PutInt64s("wl.initial_labels", il)
	f.PutInt32s("wl.initial_ids", ii)
	f.PutBytes("wl.keys", keys)
	f.PutInt64s("wl.key_offsets", offs)
	f.PutInt32s("wl.key_rounds", rounds)
	f.PutInt32s("wl.key_ids", ids)
	f.PutInt64s("wl.train_offsets", toff)
	f.PutInt32s("wl.train_idx", tidx)
	f.PutFloat64s("wl.train_val", tval)
	if err := f.PutNested("svm", svc); err != nil {
		return wlClassifierMeta{}, err
	}
	return wlClassifierMeta{H: c.H, C: c.C, Normalize: c.Normalize, Tol: c.Settings.Tol, MaxIter: c.Settings.MaxIter, Size: int(d.size),
		Graphs: len(c.train), Initial: len(labels), Keys: len(ids)}, nil
}

func readWLClassifier(f *modelfile.File, meta wlClassifierMeta, dst *WLClassifier) error {
	if meta.Normalize && f.KindVersion < 2 {
		return fmt.Errorf("the model file's layout version %d has no normalisation, yet its metadata sets it", f.KindVersion)
	}
	out := WLClassifier{H: meta.H, C: meta.C, Normalize: meta.Normalize, Settings: svm.Settings{Tol: meta.Tol, MaxIter: meta.MaxIter}}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's %w", err)
	}
	sec, err := readWLSections(f)
	if err != nil {
		return err
	}
	d, err := sec.dictionary(meta)
	if err != nil {
		return err
	}
	train, err := sec.features(meta, d.size)
	if err != nil {
		return err
	}
	s := &svm.SVC{}
	if err := s.ReadModelFile(sec.svm); err != nil {
		return fmt.Errorf("the model file's SVM: %w", err)
	}
	if s.Items() != meta.Graphs {
		return badWLFile("SVM was trained on %d items, the file has %d graphs", s.Items(), meta.Graphs)
	}
	if meta.Normalize {
		// The counts are integers, so their sums are exact: these are the
		// diagonal Fit read off the Gram matrix, bit for bit.
		out.diag = make([]float64, len(train))
		for g, v := range train {
			out.diag[g] = v.Dot(v)
		}
	}
	out.wl = &WeisfeilerLehman{H: meta.H, dict: d, train: train}
	out.svc, out.train = s, train
	*dst = out
	return nil
}

// badWLFile is an error about a WL classifier's model file.
func badWLFile(format string, args ...any) error {
	return fmt.Errorf("the model file's "+format, args...)
}

// wlSections are the sections of a WL classifier's model file: the
// dictionary (round-0 labels and ids, signature keys with their offsets,
// rounds and ids), the training graphs' features (CSR-like) and the SVM.
type wlSections struct {
	il, offs, toff  []int64
	ii, rounds, ids []int32
	tidx            []int32
	keys            []byte
	tval            []float64
	svm             *modelfile.File
}

func readWLSections(f *modelfile.File) (wlSections, error) {
	var s wlSections
	var err [10]error
	s.il, err[0] = f.Int64s("wl.initial_labels")
	s.ii, err[1] = f.Int32s("wl.initial_ids")
	s.keys, err[2] = f.Bytes("wl.keys")
	s.offs, err[3] = f.Int64s("wl.key_offsets")
	s.rounds, err[4] = f.Int32s("wl.key_rounds")
	s.ids, err[5] = f.Int32s("wl.key_ids")
	s.toff, err[6] = f.Int64s("wl.train_offsets")
	s.tidx, err[7] = f.Int32s("wl.train_idx")
	s.tval, err[8] = f.Float64s("wl.train_val")
	s.svm, err[9] = f.Nested("svm")
	return s, errors.Join(err[:]...)
}

// dictionary checks the dictionary sections against meta and builds the
// dictionary: every id a round-0 label's or a signature's, once.
func (s *wlSections) dictionary(meta wlClassifierMeta) (*wlDictionary, error) {
	if len(s.il) != meta.Initial || len(s.ii) != meta.Initial || len(s.ids) != meta.Keys || len(s.rounds) != meta.Keys || len(s.offs) != meta.Keys+1 {
		return nil, badWLFile("dictionary arrays do not match its %d labels and %d signatures", meta.Initial, meta.Keys)
	}
	// Every id of the dictionary is a round-0 label's or a signature's,
	// once: the size is their number (bounded by the sections).
	if meta.Size < 1 || meta.Size != meta.Initial+meta.Keys || meta.Size > math.MaxInt32 || meta.Graphs < 1 {
		return nil, badWLFile("dictionary of %d labels (%d round-0 labels and %d signatures) for %d graphs is invalid", meta.Size, meta.Initial, meta.Keys, meta.Graphs)
	}
	size := int32(meta.Size)
	d := newWLDictionary(meta.H)
	d.size = size
	seen := make([]bool, size)
	use := func(id int32) error {
		if id < 0 || id >= size || seen[id] {
			return badWLFile("dictionary id %d is out of [0, %d) or repeated", id, size)
		}
		seen[id] = true
		return nil
	}
	for p, l := range s.il {
		if l < math.MinInt || l > math.MaxInt {
			return nil, badWLFile("label %d is out of range", l)
		}
		if _, dup := d.initial[int(l)]; dup {
			return nil, badWLFile("label %d is repeated", l)
		}
		if err := use(s.ii[p]); err != nil {
			return nil, err
		}
		d.initial[int(l)] = s.ii[p]
	}
	if s.offs[0] != 0 || s.offs[len(s.offs)-1] != int64(len(s.keys)) {
		return nil, badWLFile("signature offsets do not span the %d key bytes", len(s.keys))
	}
	for p := range s.ids {
		lo, hi := s.offs[p], s.offs[p+1]
		if hi < lo || hi > int64(len(s.keys)) || s.rounds[p] < 0 || int(s.rounds[p]) >= meta.H {
			return nil, badWLFile("signature %d (bytes %d..%d, round %d) is invalid", p, lo, hi, s.rounds[p])
		}
		m := d.rounds[s.rounds[p]]
		k := string(s.keys[lo:hi])
		if _, dup := m[k]; dup {
			return nil, badWLFile("signature %d is repeated in round %d", p, s.rounds[p])
		}
		if err := use(s.ids[p]); err != nil {
			return nil, err
		}
		m[k] = s.ids[p]
	}
	return d, nil
}

// features checks the training graphs' feature sections against meta and
// a dictionary of size ids, and returns the feature vectors.
func (s *wlSections) features(meta wlClassifierMeta, size int32) ([]SparseVector, error) {
	toff, tidx, tval := s.toff, s.tidx, s.tval
	if len(toff) != meta.Graphs+1 || toff[0] != 0 || toff[len(toff)-1] != int64(len(tidx)) || len(tval) != len(tidx) {
		return nil, badWLFile("feature arrays do not match its %d graphs", meta.Graphs)
	}
	train := make([]SparseVector, meta.Graphs)
	for g := range train {
		lo, hi := toff[g], toff[g+1]
		if hi < lo {
			return nil, badWLFile("feature offsets decrease at graph %d", g)
		}
		if hi > int64(len(tidx)) {
			return nil, badWLFile("feature offsets run past the %d stored features at graph %d", len(tidx), g)
		}
		v := SparseVector{Idx: tidx[lo:hi], Val: tval[lo:hi]}
		for k, id := range v.Idx {
			if id < 0 || id >= size || (k > 0 && id <= v.Idx[k-1]) {
				return nil, badWLFile("graph %d's feature indices are not increasing in [0, %d)", g, size)
			}
		}
		train[g] = v
	}
	return train, nil
}

// ModelFile returns the fitted classifier as a modelfile container (kind
// WLClassifierKind; see wlClassifierCodec).
func (c *WLClassifier) ModelFile() (*modelfile.File, error) { return wlClassifierCodec.File(c) }

// ReadModelFile replaces c by the classifier in f; on an error c is
// unchanged.
func (c *WLClassifier) ReadModelFile(f *modelfile.File) error { return wlClassifierCodec.Read(f, c) }

// MarshalBinary encodes the fitted classifier; one read back predicts
// bitwise the same.
func (c *WLClassifier) MarshalBinary() ([]byte, error) { return wlClassifierCodec.Marshal(c) }

// UnmarshalBinary replaces c by the classifier in data; on an error c is
// unchanged.
func (c *WLClassifier) UnmarshalBinary(data []byte) error {
	return wlClassifierCodec.Unmarshal(data, c)
}

// MarshalJSON refuses (estimator.ErrJSON).
func (c WLClassifier) MarshalJSON() ([]byte, error) { return nil, notJSON("WLClassifier") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (c *WLClassifier) UnmarshalJSON([]byte) error { return notJSON("WLClassifier") }
