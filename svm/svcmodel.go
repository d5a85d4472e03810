package svm

import (
	"fmt"
	"math"
	"slices"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// SVCKind is the kind of a fitted SVC (on a precomputed kernel) in a
// modelfile container (layout ModelVersion). The file holds the machines
// over the training items' indices, not the items: predicting needs the
// kernel between new items and the training items (see PointSVC for
// points, graphkernels.WLClassifier for graphs).
const SVCKind = "svm.SVC"

// putMachines stores the binary machines: per machine (a, b), in the order
// (0,1), (0,2), …, its classes, iterations and number of support vectors,
// then their indices, α_i y_i and the biases.
func (s *SVC) putMachines(f *modelfile.File) {
	var head, idx []int64
	var coef, bias []float64
	for _, pm := range s.pairs {
		head = append(head, int64(pm.a), int64(pm.b), int64(pm.iters), int64(len(pm.sv)))
		idx = append(idx, toInt64(pm.sv)...)
		coef = append(coef, pm.coef...)
		bias = append(bias, pm.bias)
	}
	f.PutInt64s("machines", head)
	f.PutInt64s("machine_sv", idx)
	f.PutFloat64s("machine_coef", coef)
	f.PutFloat64s("machine_bias", bias)
}

// readMachines reads what putMachines wrote, for a machine over items
// training items.
func readMachines(f *modelfile.File, classes []int, items int, c float64, settings Settings) (*SVC, error) {
	nc := len(classes)
	np := nc * (nc - 1) / 2
	head, err := f.Int64s("machines")
	if err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	idx, err := f.Int64s("machine_sv")
	if err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	coef, err := f.Float64s("machine_coef")
	if err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	bias, err := f.Float64s("machine_bias")
	if err != nil {
		return nil, fmt.Errorf("svm: %w", err)
	}
	if len(head) != 4*np || len(bias) != np || len(idx) != len(coef) {
		return nil, fmt.Errorf("svm: the model file's machines are inconsistent: %d header values, %d biases, %d indices and %d coefficients for %d machines", len(head), len(bias), len(idx), len(coef), np)
	}
	s := &SVC{C: c, Settings: settings, classes: slices.Clone(classes), nTrain: items}
	pos, q := 0, 0
	for a := 0; a < nc; a++ {
		for b := a + 1; b < nc; b++ {
			h := head[4*q : 4*q+4]
			cnt := h[3]
			if h[0] != int64(a) || h[1] != int64(b) || h[2] < 0 || cnt < 0 || cnt > int64(len(idx)-pos) {
				return nil, fmt.Errorf("svm: the model file's machine %d has header %v, want classes %d and %d and at most %d support vectors", q, h, a, b, len(idx)-pos)
			}
			pm := pairMachine{a: a, b: b, iters: int(h[2]), bias: bias[q], sv: make([]int, cnt), coef: coef[pos : pos+int(cnt)]}
			for k := range pm.sv {
				v := idx[pos+k]
				if v < 0 || v >= int64(items) {
					return nil, fmt.Errorf("svm: the model file's machine %d lists support vector %d, not in [0, %d)", q, v, items)
				}
				pm.sv[k] = int(v)
			}
			for _, v := range append([]float64{pm.bias}, pm.coef...) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("svm: the model file's machine %d has a coefficient or bias %v", q, v)
				}
			}
			s.pairs = append(s.pairs, pm)
			pos += int(cnt)
			q++
		}
	}
	if pos != len(idx) {
		return nil, fmt.Errorf("svm: the model file has %d support vector indices, its machines use %d", len(idx), pos)
	}
	return s, nil
}

func checkClasses(classes []int) error {
	nc := len(classes)
	if nc < 2 || !slices.IsSorted(classes) || len(slices.Compact(slices.Clone(classes))) != nc || classes[0] < 0 || classes[nc-1] > MaxClass {
		return fmt.Errorf("svm: the model file's classes %v are not at least two distinct, ascending and in 0..%d", classes, MaxClass)
	}
	return nil
}

type svcMeta struct {
	C       float64 `json:"c"`
	Tol     float64 `json:"tol"`
	MaxIter int     `json:"max_iter"`
	Classes []int   `json:"classes"`
	Items   int     `json:"items"`
}

// Items returns the number of training items, 0 before Fit.
func (s *SVC) Items() int { return s.nTrain }

// svcCodec stores an SVC: its settings, classes and machines.
var svcCodec = modelfile.Codec[SVC, svcMeta]{Kind: SVCKind, Version: ModelVersion,
	Fitted: func(s *SVC) bool { return s.pairs != nil },
	Put: func(s *SVC, f *modelfile.File) (svcMeta, error) {
		s.putMachines(f)
		return svcMeta{C: s.C, Tol: s.Settings.Tol, MaxIter: s.Settings.MaxIter, Classes: s.classes, Items: s.nTrain}, nil
	},
	Get: func(f *modelfile.File, meta svcMeta, dst *SVC) error {
		settings := Settings{Tol: meta.Tol, MaxIter: meta.MaxIter}
		if err := (&SVC{C: meta.C, Settings: settings}).Validate(); err != nil {
			return fmt.Errorf("the model file's settings: %w", err)
		}
		if err := checkClasses(meta.Classes); err != nil {
			return err
		}
		if meta.Items < 1 {
			return fmt.Errorf("the model file declares %d training items", meta.Items)
		}
		out, err := readMachines(f, meta.Classes, meta.Items, meta.C, settings)
		if err != nil {
			return err
		}
		*dst = *out
		return nil
	},
}

// ModelFile returns the fitted machine as a modelfile container (kind
// SVCKind).
func (s *SVC) ModelFile() (*modelfile.File, error) { return svcCodec.File(s) }

// ReadModelFile replaces s by the machine in f; on an error s is unchanged.
func (s *SVC) ReadModelFile(f *modelfile.File) error { return svcCodec.Read(f, s) }

// MarshalBinary encodes the fitted machine; one read back decides bitwise
// the same on the same kernel rows.
func (s *SVC) MarshalBinary() ([]byte, error) { return svcCodec.Marshal(s) }

// UnmarshalBinary replaces s by the machine in data; on an error s is
// unchanged.
func (s *SVC) UnmarshalBinary(data []byte) error { return svcCodec.Unmarshal(data, s) }

// MarshalJSON refuses: a fitted model is not JSON (estimator.ErrJSON).
func (s SVC) MarshalJSON() ([]byte, error) { return nil, fmt.Errorf("svm: SVC: %w", estimator.ErrJSON) }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (s *SVC) UnmarshalJSON([]byte) error { return fmt.Errorf("svm: SVC: %w", estimator.ErrJSON) }
