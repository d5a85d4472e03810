package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// SVC is a C-support vector classifier on a precomputed kernel. With more
// than two classes it trains one binary machine per pair of classes
// (one-vs-one, as LIBSVM and scikit-learn's SVC) and predicts by majority
// vote, ties going to the smaller class.
type SVC struct {
	// C is the box constraint, C > 0; 0 means DefaultC.
	C float64
	// Settings control each binary SMO solve.
	Settings Settings

	classes []int
	pairs   []pairMachine
	nTrain  int
}

// pairMachine is the binary machine of classes (a, b): +1 for a, −1 for b.
type pairMachine struct {
	a, b  int       // class indices into classes
	sv    []int     // training indices with α > 0
	coef  []float64 // α_i y_i of those
	bias  float64   // b
	iters int
}

// DefaultC is the box constraint of SVC and PointSVC when C is 0.
const DefaultC = 1.0

func (s *SVC) cValue() float64 {
	if s.C == 0 {
		return DefaultC
	}
	return s.C
}

// Validate checks the hyperparameters.
func (s *SVC) Validate() error {
	if c := s.C; c < 0 || math.IsNaN(c) || math.IsInf(c, 0) {
		return fmt.Errorf("svm: C=%v is invalid: it must be finite and > 0 (0 means %v)", c, DefaultC)
	}
	return s.Settings.validate()
}

// MaxClass is the largest class label the classifiers take: their
// predictions have one column per class from 0 to the largest, so a label
// bounds the memory of every prediction and of a model file's reader.
const MaxClass = 1<<16 - 1

// Fit trains on the n×n Gram matrix k of the training items and their
// classes (ints in 0..MaxClass; at least two distinct). Each pair's SMO
// solve works on the sub-Gram matrix of its two classes. When a pair's
// solve stops at Settings.MaxIter, Fit keeps its last iterate, trains the
// other pairs and returns a *NotConvergedError (the model predicts).
func (s *SVC) Fit(ctx context.Context, k mat.Symmetric, labels []int) error {
	if err := s.Validate(); err != nil {
		return err
	}
	n := k.SymmetricDim()
	if len(labels) != n {
		return fmt.Errorf("svm: SVC: the Gram matrix is %d×%d but there are %d labels", n, n, len(labels))
	}
	for i, l := range labels {
		if l < 0 {
			return fmt.Errorf("svm: SVC: label %d of item %d is negative; every training item needs a class", l, i)
		}
		if l > MaxClass {
			return fmt.Errorf("svm: SVC: label %d of item %d is above %d: number the classes from 0 (Predict has one column per class up to the largest)", l, i, MaxClass)
		}
	}
	classes := slices.Compact(slices.Sorted(slices.Values(labels)))
	if len(classes) < 2 {
		return fmt.Errorf("svm: SVC needs at least two classes in the training labels, got %v", classes)
	}
	src, err := newGramSource(k)
	if err != nil {
		return err
	}
	byClass := make([][]int, len(classes))
	for i, l := range labels {
		c, _ := slices.BinarySearch(classes, l)
		byClass[c] = append(byClass[c], i)
	}
	var pairs []pairMachine
	var notConverged error
	for a := 0; a < len(classes); a++ {
		for b := a + 1; b < len(classes); b++ {
			idx := append(slices.Clone(byClass[a]), byClass[b]...)
			m := len(idx)
			y := make([]float64, m)
			for p := range y {
				y[p] = -1
				if p < len(byClass[a]) {
					y[p] = 1
				}
			}
			d, err := smo(ctx, src.rows(idx), m, y, s.cValue(), s.Settings)
			var nc *NotConvergedError
			if errors.As(err, &nc) {
				// Keep the last iterate, as the contract says, and report
				// the first pair that stopped at its cap.
				if notConverged == nil {
					notConverged = fmt.Errorf("svm: SVC classes %d and %d: %w", classes[a], classes[b], err)
				}
			} else if err != nil {
				return fmt.Errorf("svm: SVC classes %d and %d: %w", classes[a], classes[b], err)
			}
			pm := pairMachine{a: a, b: b, bias: d.B, iters: d.Iterations}
			for p, al := range d.Alpha {
				if al > 0 {
					pm.sv = append(pm.sv, idx[p])
					pm.coef = append(pm.coef, al*y[p])
				}
			}
			pairs = append(pairs, pm)
		}
	}
	s.classes, s.pairs, s.nTrain = classes, pairs, n
	return notConverged
}

// Classes returns the classes seen at Fit, ascending.
func (s *SVC) Classes() []int { return s.classes }

// SupportVectors returns the number of distinct training items that are a
// support vector of some binary machine.
func (s *SVC) SupportVectors() int {
	seen := map[int]bool{}
	for _, p := range s.pairs {
		for _, i := range p.sv {
			seen[i] = true
		}
	}
	return len(seen)
}

// Iterations returns the SMO iterations summed over the binary machines.
func (s *SVC) Iterations() int {
	t := 0
	for _, p := range s.pairs {
		t += p.iters
	}
	return t
}

// Decision returns, for each row of cross (m × n_train: k(x, x_j) for the
// training items), the decision value of every binary machine, in the
// order (0,1), (0,2), …, (1,2), …; positive means the first class.
func (s *SVC) Decision(cross mat.Matrix) (*mat.Dense, error) {
	if s.pairs == nil {
		return nil, estimator.NotFitted("svm: SVC.Decision")
	}
	m, n := cross.Dims()
	if n != s.nTrain {
		return nil, fmt.Errorf("svm: SVC: the kernel matrix has %d columns but the machine was trained on %d items", n, s.nTrain)
	}
	out := mat.NewDense(m, len(s.pairs), nil)
	for r := 0; r < m; r++ {
		for p, pm := range s.pairs {
			v := pm.bias
			for q, i := range pm.sv {
				v += pm.coef[q] * cross.At(r, i)
			}
			out.Set(r, p, v)
		}
	}
	return out, nil
}

// Votes returns, for the decision values dec that Decision returned, the
// votes of the one-vs-one machines for every class 0..C−1 (C = 1 + the
// largest class seen at Fit; a class not seen has none): the row's first
// maximum (estimator.Argmax) is the class Predict returns.
func (s *SVC) Votes(dec *mat.Dense) *mat.Dense {
	m, _ := dec.Dims()
	votes := mat.NewDense(m, s.classes[len(s.classes)-1]+1, nil)
	for r := 0; r < m; r++ {
		for q, pm := range s.pairs {
			c := s.classes[pm.b]
			if dec.At(r, q) > 0 {
				c = s.classes[pm.a]
			}
			votes.Set(r, c, votes.At(r, c)+1)
		}
	}
	return votes
}

// Predict returns, for each row of cross (m × n_train: k(x, x_j) for the
// training items), the votes of the one-vs-one machines for every class
// 0..C−1 (Votes): the predicted class is the row's first maximum
// (estimator.Argmax), the smallest of the most voted classes. ctx is
// checked once.
func (s *SVC) Predict(ctx context.Context, cross mat.Matrix) (*mat.Dense, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dec, err := s.Decision(cross)
	if err != nil {
		return nil, err
	}
	return s.Votes(dec), nil
}

// Output declares that Predict returns decision values, not probabilities
// (estimator.OutputDeclarer).
func (s *SVC) Output() estimator.Output { return estimator.DecisionValues }

// SVC is a classifier on a precomputed kernel: fitted on the Gram matrix
// of the training items, it predicts items from their kernel rows to them.
var _ estimator.Classifier[mat.Symmetric, mat.Matrix] = (*SVC)(nil)

// Info reports the SMO iterations summed over the binary machines.
func (s *SVC) Info() estimator.Info { return estimator.Info{Iterations: s.Iterations()} }

// Kind returns SVCKind.
func (s *SVC) Kind() string { return SVCKind }

// Clone returns an unfitted copy of s with the same hyperparameters.
func (s *SVC) Clone() *SVC { return &SVC{C: s.C, Settings: s.Settings} }
