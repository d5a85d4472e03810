package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeids"
	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/savedmodel"
)

// fileModel hands an encoded container to savedmodel, which adds the data
// set's sections exactly as the CLI's --save does.
type fileModel struct{ f *modelfile.File }

func (m fileModel) ModelFile() (*modelfile.File, error) { return m.f, nil }

// file returns the model's container with the ids of the fitted nodes and
// the class names: the bytes of a .gssl file.
func (e *modelEntry) file() (*modelfile.File, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	s, ok := e.m.(estimator.Saver)
	if !ok {
		return nil, fmt.Errorf("%s cannot be saved: it has no MarshalBinary", e.kind)
	}
	b, err := s.MarshalBinary()
	if err != nil {
		return nil, err
	}
	f, err := modelfile.Unmarshal(b)
	if err != nil {
		return nil, err
	}
	return savedmodel.File(fileModel{f}, savedmodel.Context{IDs: e.ids, ClassNames: e.classNames, Data: e.data})
}

func (e *modelEntry) marshal() ([]byte, error) {
	f, err := e.file()
	if err != nil {
		return nil, err
	}
	return f.MarshalBinary()
}

// save writes the model file at path, atomically.
func (e *modelEntry) save(path string) error {
	f, err := e.file()
	if err != nil {
		return err
	}
	return modelfile.WriteFile(path, f)
}

// unmarshalModel decodes a model file's bytes into a model entry of its
// kind, with the ids and class names the file holds.
func unmarshalModel(b []byte) (*modelEntry, error) {
	f, err := modelfile.Unmarshal(b)
	if err != nil {
		return nil, err
	}
	e, err := modelOfFile(f)
	if err != nil {
		return nil, err
	}
	var c savedmodel.Context
	if f.Has("data.json") {
		js, err := f.Bytes("data.json")
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(js, &c); err != nil {
			return nil, fmt.Errorf("section data.json: %w", err)
		}
	}
	e.classNames, e.data = c.ClassNames, c.Data
	switch {
	case f.Has("data.ids"):
		v, err := f.Strings("data.ids")
		if err == nil {
			e.ids, err = nodeids.FromStrings(v)
		}
		if err != nil {
			return nil, fmt.Errorf("section data.ids: %w", err)
		}
	case f.Has("data.int_ids"):
		v, err := f.Int64s("data.int_ids")
		if err == nil {
			e.ids, err = nodeids.FromInts(v)
		}
		if err != nil {
			return nil, fmt.Errorf("section data.int_ids: %w", err)
		}
	}
	return e, nil
}

// modelOfFile builds the model a file holds: its kind's, or, for a file
// with a calibration (gssl classify and labelprop --conformal, or a saved
// confidence.Classifier), the calibrated classifier of that model, which
// predicts the calibrated probabilities and prediction sets, as gssl
// predict and serve do.
func modelOfFile(f *modelfile.File) (*modelEntry, error) {
	cal, err := confidence.Read(f)
	if err != nil {
		return nil, err
	}
	if cal != nil {
		c := new(confidence.Classifier)
		if err := c.ReadModelFile(f); err != nil {
			return nil, err
		}
		return &modelEntry{kind: conformalKind, m: c, role: roleOf(c)}, nil
	}
	m, err := persist.New(f.Kind)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", modelfile.ErrKind, err)
	}
	if err := m.ReadModelFile(f); err != nil {
		return nil, err
	}
	return &modelEntry{kind: f.Kind, m: m, role: roleOf(m)}, nil
}

func loadModel(path string) (*modelEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	e, err := unmarshalModel(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}

// modelContext is what gssl_model_set_context and gssl_model_info carry
// beyond the model: the class names and the data's name.
type modelContext struct {
	ClassNames []string `json:"class_names"`
	Data       string   `json:"data"`
}

// info describes the model as JSON: kind, role, a classifier's output
// ("probabilities" or "decision_values", as its hyperparameters declare it),
// hyperparameters, the last
// fit's Info, class names and the fitted nodes' ids when they are not
// 0..n−1.
func (e *modelEntry) info() ([]byte, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	params, err := getParams(e.m)
	if err != nil {
		return nil, err
	}
	out := struct {
		Kind            string           `json:"kind"`
		Role            string           `json:"role"`
		Output          string           `json:"output,omitempty"`
		Hyperparameters json.RawMessage  `json:"hyperparameters"`
		Info            *estimator.Info  `json:"info,omitempty"`
		ClassNames      []string         `json:"class_names,omitempty"`
		Data            string           `json:"data,omitempty"`
		IDs             []string         `json:"ids,omitempty"`
		Eigenvalues     []float64        `json:"eigenvalues,omitempty"`
		Calibration     *calibrationInfo `json:"calibration,omitempty"`
	}{Kind: e.kind, Role: e.role.String(), Output: outputName(e.m), Hyperparameters: params, ClassNames: e.classNames, Data: e.data}
	if c, ok := e.m.(calibrated); ok {
		if cal := c.Calibration(); cal != nil {
			out.Calibration = &calibrationInfo{Temperature: cal.Temperature, Smoothing: cal.Smoothing, Logits: cal.Logits,
				Alpha: cal.Conformal.Alpha, Nodes: cal.Conformal.Calibration, Seed: cal.Seed}
			if t := cal.Conformal.Threshold; !math.IsInf(t, 1) {
				out.Calibration.Threshold = &t
			}
		}
	}
	if est, ok := e.m.(estimator.Estimator); ok {
		in := est.Info()
		out.Info = &in
	}
	if e.ids != nil && !e.ids.IsIdentity() {
		out.IDs = e.ids.Strings()
	}
	// The spectral models' eigenvalues (those of the Laplacian or of S that
	// each model's Eigenvalues documents).
	if ev, ok := e.m.(interface{ Eigenvalues() []float64 }); ok {
		out.Eigenvalues = ev.Eigenvalues()
	}
	return json.Marshal(out)
}

// calibrationInfo is a calibrated classifier's calibration in info: the
// temperature and smoothing of its probabilities, and the miscoverage,
// APS score threshold (null for +∞: too few calibration nodes for the
// miscoverage, every class is in every set), number of calibration nodes and seed of its
// prediction sets (confidence.Calibration).
type calibrationInfo struct {
	Temperature float64  `json:"temperature"`
	Smoothing   float64  `json:"smoothing"`
	Logits      bool     `json:"logits"`
	Alpha       float64  `json:"alpha"`
	Threshold   *float64 `json:"threshold"`
	Nodes       int      `json:"nodes"`
	Seed        uint64   `json:"seed"`
}
