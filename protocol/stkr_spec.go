package protocol

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/stkr"
)

// MaxSTKRIterations bounds each count of STKRGridSpec.MaxIter: every
// iteration is a pass over the graph, so a count from a typo such as 10⁹
// would run without end; the paper's grid stops at 256.
const MaxSTKRIterations = 100000

// STKRGridSpec describes an STKRGrid by names and numbers, as a command
// line, a configuration file or another front end gives it; Grid builds
// it. "auto" (or "") for Eta, Ridge and MaxIter is the paper's grid of
// that hyperparameter (stkr.EtaGrid, stkr.BetaGrid, stkr.IterationsGrid;
// "" for MaxIter is 0 alone).
type STKRGridSpec struct {
	Transform string  `json:"transform" flag:"transform"` // stkr.ParseTransform's names
	Eta       string  `json:"eta" flag:"eta"`             // η of the inverse Laplacian in (0, 1/λ_max) ⊂ (0, 1), or auto
	Ridge     string  `json:"ridge" flag:"ridge"`         // β, finite and > 0, or auto
	MaxIter   string  `json:"max_iter" flag:"max-iter"`   // auto, a count in [0, MaxSTKRIterations] (0 solves to Tol) or a comma-separated list of counts
	Solver    string  `json:"solver" flag:"solver"`       // stkr.ParseSolver's names
	Tol       float64 `json:"tol" flag:"tol"`             // in (0, 1), or 0 for the default
}

func stkrSpecError(field string, v any, reason string) error {
	return &estimator.FieldError{Package: "stkr", Field: field, Value: v, Reason: reason}
}

// Validate reports the first field outside its valid range as an
// *estimator.FieldError.
func (s STKRGridSpec) Validate() error {
	_, err := s.Grid()
	return err
}

// Grid returns the grid s describes, its Base sharing a fresh
// stkr.EigenCache, or the first invalid field as an
// *estimator.FieldError.
func (s STKRGridSpec) Grid() (STKRGrid, error) {
	g := STKRGrid{Base: stkr.Regressor{Tol: s.Tol, Eigen: &stkr.EigenCache{}}}
	var err error
	if g.Base.Solver, err = stkr.ParseSolver(s.Solver); err != nil {
		return g, stkrSpecError("Solver", s.Solver, "want one of auto, cg, minres, gmres, richardson")
	}
	if g.Base.Transform, err = stkr.ParseTransform(s.Transform, 0); err != nil {
		reason := strings.TrimPrefix(err.Error(), "stkr: ")
		for _, head := range []string{"unknown transform %q: ", "transform %q: "} { // the value is in the error's head
			reason = strings.TrimPrefix(reason, fmt.Sprintf(head, s.Transform))
		}
		return g, stkrSpecError("Transform", s.Transform, reason)
	}
	if s.Tol != 0 && !(s.Tol > 0 && s.Tol < 1) {
		return g, stkrSpecError("Tol", s.Tol, "it must be in (0, 1), or 0 for the default")
	}
	if g.Etas, err = hyperGrid(s.Eta, stkr.EtaGrid(), func(x float64) bool { return x > 0 && x < 1 }); err != nil {
		return g, stkrSpecError("Eta", s.Eta, "it must be a number inside the open interval (0, 1/λ_max) ⊂ (0, 1), or auto")
	}
	if g.Betas, err = hyperGrid(s.Ridge, stkr.BetaGrid(), func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }); err != nil {
		return g, stkrSpecError("Ridge", s.Ridge, "it must be a finite number > 0, or auto")
	}
	if g.Iterations, err = iterationGrid(s.MaxIter); err != nil {
		return g, stkrSpecError("MaxIter", s.MaxIter, fmt.Sprintf("want auto, an integer in [0, %d] (0 = solve to the tolerance) or a comma-separated list of them", MaxSTKRIterations))
	}
	if _, ok := g.Base.Transform.(stkr.TopD); ok && s.MaxIter != "" && s.MaxIter != "0" {
		return g, stkrSpecError("MaxIter", s.MaxIter, fmt.Sprintf("it does not apply to the transform %s: kernel PCA has no iterative solve", s.Transform))
	}
	if !g.Lap() && s.Eta != "auto" && s.Eta != "" {
		return g, stkrSpecError("Eta", s.Eta, fmt.Sprintf("it applies only to the inverse-laplacian transform, not %s", s.Transform))
	}
	for _, c := range g.Candidates() { // what the checks above do not cover
		if err := c.Validate(); err != nil {
			return g, err
		}
	}
	return g, nil
}

var errNotInGrid = fmt.Errorf("not a value")

// hyperGrid reads "auto" (or "": grid) or one number for which ok holds.
func hyperGrid(v string, grid []float64, ok func(float64) bool) ([]float64, error) {
	if v == "auto" || v == "" {
		return grid, nil
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !ok(x) {
		return nil, errNotInGrid
	}
	return []float64{x}, nil
}

// iterationGrid reads "auto" (stkr.IterationsGrid), "" (0 alone), one
// count in [0, MaxSTKRIterations] or a comma-separated list of them.
func iterationGrid(v string) ([]int, error) {
	switch v {
	case "auto":
		return stkr.IterationsGrid(), nil
	case "":
		return []int{0}, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > MaxSTKRIterations {
			return nil, errNotInGrid
		}
		out = append(out, n)
	}
	return out, nil
}

// STKRSettingSpec describes how an STKR benchmark hides and scores the
// test nodes (STKRBenchmark's Setting, PTest and Chunks) by names and
// numbers; Parse checks it.
type STKRSettingSpec struct {
	Setting    string  `json:"setting" flag:"setting"`         // ParseSetting's names
	PTest      float64 `json:"p_test" flag:"p-test"`           // the fraction of all nodes scored, in [0, 1); 0 keeps the split's test set
	TestChunks bool    `json:"test_chunks" flag:"test-chunks"` // score every test node in chunks of round(PTest·N); needs PTest > 0
}

// Parse returns the setting s names, or the first invalid field as an
// *estimator.FieldError.
func (s STKRSettingSpec) Parse() (Setting, error) {
	switch {
	case !(s.PTest >= 0 && s.PTest < 1):
		return 0, stkrSpecError("PTest", s.PTest, "it must be in [0, 1) (0 keeps the split's test set)")
	case s.TestChunks && s.PTest == 0:
		return 0, stkrSpecError("PTest", s.PTest, "test chunks need it > 0 (the chunk size is round(p_test·N)); 0 already scores every test node")
	}
	setting, err := ParseSetting(s.Setting)
	if err != nil {
		return 0, stkrSpecError("Setting", s.Setting, "want "+strings.Join(settingNames, ", "))
	}
	return setting, nil
}
