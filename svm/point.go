package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/kernel"
	"github.com/gssl/gssl/modelfile"
)

// PointSVCKind is the kind of a fitted PointSVC in a modelfile container,
// and ModelVersion the newest layout of it this package reads and writes.
const (
	PointSVCKind = "svm.PointSVC"
	ModelVersion = 1
)

// PointSVC is SVC on points with a kernel on them (what gssl svm fits): Fit
// builds the Gram matrix of the training points, and the fitted model keeps
// only its support vectors' points, so it predicts new points by itself and
// saves itself.
type PointSVC struct {
	// Kernel on the points; it must be one of kernel.Gaussian, Laplacian,
	// Matern, Linear or Polynomial to be saved.
	Kernel kernel.Kernel
	// C is the box constraint, C > 0; 0 means DefaultC.
	C float64
	// Settings control each binary SMO solve.
	Settings Settings

	svm *SVC       // its training items are the support points
	x   *mat.Dense // the support points, one per row; nil when there are none
	sv  []int      // their rows in the training points
	d   int        // the points' dimension
}

// Validate checks the hyperparameters.
func (p *PointSVC) Validate() error {
	if p.Kernel == nil {
		return errors.New("svm: PointSVC needs a Kernel")
	}
	if err := p.Kernel.Validate(); err != nil {
		return fmt.Errorf("svm: PointSVC: %w", err)
	}
	return (&SVC{C: p.C, Settings: p.Settings}).Validate()
}

// Fit trains on the rows of x and their classes (one per row, ≥ 0; at
// least two distinct). Like SVC.Fit it returns a *NotConvergedError, with
// the model fitted from the last iterates, when a solve stops at its cap.
func (p *PointSVC) Fit(ctx context.Context, x *mat.Dense, labels []int) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if x == nil || x.IsEmpty() {
		return errors.New("svm: PointSVC: no training points")
	}
	g, err := kernel.Gram(p.Kernel, x, x)
	if err != nil {
		return fmt.Errorf("svm: PointSVC: %w", err)
	}
	n, _ := x.Dims()
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	s := &SVC{C: p.C, Settings: p.Settings}
	fitErr := s.Fit(ctx, SubGram(g, all), labels)
	var nc *NotConvergedError
	if fitErr != nil && !errors.As(fitErr, &nc) {
		return fitErr
	}
	// Renumber the machines' support vectors into the support points.
	seen := map[int]int{}
	var sv []int
	for _, pm := range s.pairs {
		for _, i := range pm.sv {
			if _, ok := seen[i]; !ok {
				seen[i] = 0
				sv = append(sv, i)
			}
		}
	}
	slices.Sort(sv)
	for k, i := range sv {
		seen[i] = k
	}
	for q := range s.pairs {
		pm := &s.pairs[q]
		for k, i := range pm.sv {
			pm.sv[k] = seen[i]
		}
	}
	s.nTrain = len(sv)
	_, d := x.Dims()
	pts := mat.NewDense(max(len(sv), 1), d, nil)
	for k, i := range sv {
		pts.SetRow(k, x.RawRowView(i))
	}
	if len(sv) == 0 {
		pts = nil // every α is 0: the decision values are the biases
	}
	p.svm, p.x, p.sv, p.d = s, pts, sv, d
	return fitErr
}

// Features returns the dimension of the points, 0 before Fit.
func (p *PointSVC) Features() int {
	if p.svm == nil {
		return 0
	}
	return p.d
}

// Classes returns the classes seen at Fit, ascending (nil before Fit).
func (p *PointSVC) Classes() []int {
	if p.svm == nil {
		return nil
	}
	return p.svm.Classes()
}

// SupportIndices returns the training rows that are a support vector of
// some binary machine, ascending.
func (p *PointSVC) SupportIndices() []int { return slices.Clone(p.sv) }

// SupportVectors returns the number of support points.
func (p *PointSVC) SupportVectors() int { return len(p.sv) }

// Iterations returns the SMO iterations summed over the binary machines.
func (p *PointSVC) Iterations() int {
	if p.svm == nil {
		return 0
	}
	return p.svm.Iterations()
}

// Info reports the fit under the shared names: Iterations are the SMO
// iterations over every binary machine.
func (p *PointSVC) Info() estimator.Info { return estimator.Info{Iterations: p.Iterations()} }

// cross returns k(x_r, support point j).
func (p *PointSVC) cross(x *mat.Dense) (*mat.Dense, error) {
	if p.svm == nil {
		return nil, estimator.NotFitted("svm: PointSVC")
	}
	if x == nil || x.IsEmpty() {
		return nil, errors.New("svm: PointSVC: no points to predict")
	}
	if _, d := x.Dims(); d != p.d {
		return nil, fmt.Errorf("svm: PointSVC: the points have %d coordinates, the model was fitted on %d", d, p.d)
	}
	m, _ := x.Dims()
	if p.x == nil {
		return mat.NewDense(m, 1, nil), nil // no support points: nothing is read
	}
	return kernel.Gram(p.Kernel, x, p.x)
}

// Decision returns the decision value of every binary machine at each row
// of x (see SVC.Decision).
func (p *PointSVC) Decision(x *mat.Dense) (*mat.Dense, error) {
	k, err := p.cross(x)
	if err != nil {
		return nil, err
	}
	if p.x == nil {
		s := *p.svm
		s.nTrain = 1
		return s.Decision(k)
	}
	return p.svm.Decision(k)
}

// Predict returns, for each row of x, the votes of the one-vs-one machines
// for every class 0..C−1 (C = 1 + the largest class seen at Fit; a class
// not seen has no votes): the predicted class is the row's first maximum
// (estimator.Argmax), the smallest of the classes with the most votes, as
// SVC.Predict decides. Decision has the machines' decision values. ctx is
// checked once.
func (p *PointSVC) Predict(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dec, err := p.Decision(x)
	if err != nil {
		return nil, err
	}
	return p.svm.Votes(dec), nil
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (p *PointSVC) Output() estimator.Output { return estimator.DecisionValues }

// Kind returns PointSVCKind.
func (p *PointSVC) Kind() string { return PointSVCKind }

// Clone returns an unfitted copy of p with the same hyperparameters.
func (p *PointSVC) Clone() *PointSVC {
	return &PointSVC{Kernel: p.Kernel, C: p.C, Settings: p.Settings}
}

var _ estimator.PointClassifier = (*PointSVC)(nil)

type pointSVCMeta struct {
	Kernel   kernel.Spec `json:"kernel"`
	C        float64     `json:"c"`
	Tol      float64     `json:"tol"`
	MaxIter  int         `json:"max_iter"`
	Classes  []int       `json:"classes"`
	Features int         `json:"features"`
	Support  int         `json:"support"`
	Pairs    int         `json:"pairs"`
}

// pointSVCCodec stores a PointSVC: the kernel and its parameters, C, the
// classes, the support points and their training rows, and for each binary
// machine its classes, support vectors (indices into the support points),
// α_i y_i, bias and iterations.
var pointSVCCodec = modelfile.Codec[PointSVC, pointSVCMeta]{Kind: PointSVCKind, Version: ModelVersion,
	Fitted: func(p *PointSVC) bool { return p.svm != nil },
	Put: func(p *PointSVC, f *modelfile.File) (pointSVCMeta, error) {
		kj, err := kernel.SpecOf(p.Kernel)
		if err != nil {
			return pointSVCMeta{}, fmt.Errorf("svm: MarshalBinary: %w", err)
		}
		var pts []float64
		if p.x != nil {
			pts = mat.DenseCopyOf(p.x).RawMatrix().Data
		}
		f.PutFloat64s("support_points", pts)
		f.PutInts("support_rows", p.sv)
		p.svm.putMachines(f)
		return pointSVCMeta{Kernel: kj, C: p.C, Tol: p.Settings.Tol, MaxIter: p.Settings.MaxIter, Classes: p.svm.classes,
			Features: p.d, Support: len(p.sv), Pairs: len(p.svm.pairs)}, nil
	},
	Get: readPointSVC,
}

func readPointSVC(f *modelfile.File, meta pointSVCMeta, dst *PointSVC) error {
	k, err := meta.Kernel.Kernel()
	if err != nil {
		return fmt.Errorf("the model file's kernel: %w", err)
	}
	out := PointSVC{Kernel: k, C: meta.C, Settings: Settings{Tol: meta.Tol, MaxIter: meta.MaxIter}}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's settings: %w", err)
	}
	if err := checkClasses(meta.Classes); err != nil {
		return err
	}
	d, ns := meta.Features, meta.Support
	if d < 1 || ns < 0 || meta.Pairs != len(meta.Classes)*(len(meta.Classes)-1)/2 || ns > math.MaxInt/d {
		return fmt.Errorf("the model file declares %d classes, %d machines and %d support points of %d features", len(meta.Classes), meta.Pairs, ns, d)
	}
	pts, err := f.Float64sLen("support_points", ns*d)
	if err != nil {
		return err
	}
	if out.sv, err = f.Indices("support_rows", math.MaxInt32+1); err != nil {
		return err
	}
	if len(out.sv) != ns {
		return fmt.Errorf("the model file has %d support rows for %d support points", len(out.sv), ns)
	}
	if out.svm, err = readMachines(f, meta.Classes, ns, out.C, out.Settings); err != nil {
		return err
	}
	out.d = d
	if ns > 0 {
		out.x = mat.NewDense(ns, d, pts)
	} else {
		out.sv = []int{}
	}
	*dst = out
	return nil
}

func toInt64(v []int) []int64 {
	out := make([]int64, len(v))
	for i, x := range v {
		out[i] = int64(x)
	}
	return out
}

// ModelFile returns the fitted model as a modelfile container (kind
// PointSVCKind).
func (p *PointSVC) ModelFile() (*modelfile.File, error) { return pointSVCCodec.File(p) }

// ReadModelFile replaces p by the model in f; on an error p is unchanged.
func (p *PointSVC) ReadModelFile(f *modelfile.File) error { return pointSVCCodec.Read(f, p) }

// MarshalBinary encodes the fitted model; a model read back predicts
// bitwise the same.
func (p *PointSVC) MarshalBinary() ([]byte, error) { return pointSVCCodec.Marshal(p) }

// UnmarshalBinary replaces p by the model in data; on an error p is
// unchanged.
func (p *PointSVC) UnmarshalBinary(data []byte) error { return pointSVCCodec.Unmarshal(data, p) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (p PointSVC) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("svm: PointSVC: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (p *PointSVC) UnmarshalJSON([]byte) error {
	return fmt.Errorf("svm: PointSVC: %w", estimator.ErrJSON)
}
