package linbp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// PropagationKind is Propagation's kind in a modelfile container, and
// PropagationVersion the layout this package reads and writes. Layout 1
// held the same sections, but its Predict returned the centred beliefs B:
// a calibration stored beside it (package confidence) maps B, not the
// probabilities Predict now returns, so it is refused.
const (
	PropagationKind    = "linbp.Propagation"
	PropagationVersion = 2
)

// maxDim bounds the declared numbers of nodes and classes, so that their
// product cannot overflow an int before the sections' lengths are compared
// with it.
const maxDim = 1 << 28

type paramsMeta struct {
	Alpha   float64 `json:"alpha"`
	Tol     float64 `json:"tol"`
	MaxIter int     `json:"max_iter"`
}

type propagationMeta struct {
	Hyperparameters paramsMeta `json:"hyperparameters"`
	Nodes           int        `json:"nodes"`
	Classes         int        `json:"classes"`
	Iterations      int        `json:"iterations"`
}

// codec stores a fitted Propagation: the hyperparameters and the numbers
// of nodes, classes and iterations in the metadata; the fitted nodes'
// centred beliefs B (n×c; Predict returns their probabilities) in section
// "beliefs", the centred compatibility matrix Ĥ (c×c) in "compatibility"
// and the last relative change in "residual". Not the graph: the model predicts its
// fitted nodes only, and so does the model read back.
var codec = modelfile.Codec[Propagation, propagationMeta]{Kind: PropagationKind, Version: PropagationVersion, Oldest: PropagationVersion,
	Fitted: func(m *Propagation) bool { return m.fit != nil },
	Put: func(m *Propagation, f *modelfile.File) (propagationMeta, error) {
		fit := m.fit
		n, c := fit.beliefs.Dims()
		meta := propagationMeta{Hyperparameters: paramsMeta{Alpha: m.Alpha, Tol: m.Tol, MaxIter: m.MaxIter},
			Nodes: n, Classes: c, Iterations: fit.info.Iterations}
		f.PutDense("beliefs", fit.beliefs)
		f.PutDense("compatibility", fit.compat)
		f.PutFloat64s("residual", []float64{fit.info.Residual})
		return meta, nil
	},
	Get: read,
}

func read(f *modelfile.File, meta propagationMeta, dst *Propagation) error {
	hp := meta.Hyperparameters
	out := Propagation{Alpha: hp.Alpha, Tol: hp.Tol, MaxIter: hp.MaxIter}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's hyperparameters: %w", err)
	}
	if meta.Nodes < 1 || meta.Nodes > maxDim {
		return fmt.Errorf("the model file declares nodes = %d: it must be in [1, %d]", meta.Nodes, maxDim)
	}
	if meta.Classes < 2 || meta.Classes > maxDim {
		return fmt.Errorf("the model file declares classes = %d: it must be in [2, %d]", meta.Classes, maxDim)
	}
	if meta.Iterations < 0 {
		return fmt.Errorf("the model file declares %d iterations", meta.Iterations)
	}
	// Dense compares each section's length with the declared shape before
	// using it: nothing is allocated that the file does not hold.
	b, err := f.Dense("beliefs", meta.Nodes, meta.Classes)
	if err != nil {
		return err
	}
	if err := checkBeliefs(b); err != nil {
		return err
	}
	h, err := f.Dense("compatibility", meta.Classes, meta.Classes)
	if err != nil {
		return err
	}
	res, err := f.Float64sLen("residual", 1)
	if err != nil {
		return err
	}
	info := estimator.Info{Iterations: meta.Iterations, Residual: res[0], Products: meta.Iterations}
	out.fit = &fitted{beliefs: b, compat: h, info: info}
	*dst = out
	return nil
}

// checkBeliefs refuses a row of centred beliefs that does not sum to 0
// (to modelfile.SumTol relative to the sum of its magnitudes): the beliefs
// are E + aABĤ with the rows of E and Ĥ summing to 0, and Predict's
// probabilities 1/c + b are a distribution only then. A row that passes
// has an entry ≥ 0 > −1/c (a row of negatives sums to minus its
// magnitude), so its probabilities never divide by 0.
func checkBeliefs(b *mat.Dense) error {
	n, _ := b.Dims()
	for i := 0; i < n; i++ {
		row := b.RawRowView(i)
		sum, mag := 0.0, 0.0
		for _, v := range row {
			sum += v
			mag += math.Abs(v)
		}
		if !(math.Abs(sum) <= modelfile.SumTol*max(mag, 1)) {
			return fmt.Errorf("model file, section \"beliefs\": row %d sums to %.6g, not 0: it is not a row of centred beliefs", i, sum)
		}
	}
	return nil
}

// ModelFile returns the fitted model as a modelfile container (kind
// PropagationKind; see codec).
func (m *Propagation) ModelFile() (*modelfile.File, error) { return codec.File(m) }

// ReadModelFile replaces m by the model in f; on an error m is unchanged.
func (m *Propagation) ReadModelFile(f *modelfile.File) error { return codec.Read(f, m) }

// MarshalBinary encodes the fitted model (kind PropagationKind).
func (m *Propagation) MarshalBinary() ([]byte, error) { return codec.Marshal(m) }

// UnmarshalBinary replaces m by the model in data; on an error m is
// unchanged.
func (m *Propagation) UnmarshalBinary(data []byte) error { return codec.Unmarshal(data, m) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (m Propagation) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("linbp: Propagation: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (m *Propagation) UnmarshalJSON([]byte) error {
	return fmt.Errorf("linbp: Propagation: %w", estimator.ErrJSON)
}

// Kind returns PropagationKind.
func (m *Propagation) Kind() string { return PropagationKind }
