package main

import (
	"fmt"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

// experiment checks the options and returns the protocol they ask for
// (without its data, which is loaded after) and the parsed --split.
func (opts labelpropOptions) experiment() (protocol.LabelPropExperiment, eval.SplitSpec, error) {
	var exp protocol.LabelPropExperiment
	spec, err := parseSplitFlag(opts.Split)
	if err != nil {
		return exp, spec, fmt.Errorf("labelprop: %w", err)
	}
	if err := checkSeedCount(opts.Seeds, 1); err != nil {
		return exp, spec, fmt.Errorf("labelprop: %w", err)
	}
	if opts.Seeds > 1 && !spec.Seeded() {
		return exp, spec, fmt.Errorf("labelprop: --seeds %d needs --split random:K or per-class:T,V; the other protocols are deterministic", opts.Seeds)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"val", opts.Val}, {"test", opts.Test}} {
		if err := checkCount(c.name, c.v, 0, "the default size"); err != nil {
			return exp, spec, fmt.Errorf("labelprop: %w", err)
		}
	}
	if opts.Folds < 2 {
		return exp, spec, fmt.Errorf("labelprop: --folds %d is invalid: it must be ≥ 2", opts.Folds)
	}
	if exp.Model, exp.Grid, err = opts.model(); err != nil {
		return exp, spec, err
	}
	for _, c := range []struct{ flag, path string }{{"out", opts.Out}, {"save", opts.Save}} {
		if err := checkOutPath(c.flag, c.path); err != nil {
			return exp, spec, fmt.Errorf("labelprop: %w", err)
		}
	}
	if err := opts.Plots.check(); err != nil {
		return exp, spec, fmt.Errorf("labelprop: %w", err)
	}
	exp.Seeds = eval.SeedRange(opts.Seed, opts.Seeds)
	exp.CV = eval.CV{Folds: opts.Folds, Seed: opts.Seed}
	return exp, spec, nil
}

// model returns the base model of --method and its flags, and the values
// of a to choose from (nil for the harmonic function).
func (opts labelpropOptions) model() (labelprop.Classifier, []float64, error) {
	iso := labelprop.IsolatedSeedError
	if opts.KeepIsolatedSeeds {
		iso = labelprop.IsolatedSeedKeep
	}
	if opts.Tol != 0 && !(opts.Tol > 0 && opts.Tol < 1) {
		return nil, nil, fmt.Errorf("labelprop: --tol %v is invalid: it must be inside (0, 1), or 0 for the default", opts.Tol)
	}
	switch opts.Method {
	case "spreading":
		grid, err := parseAlpha(opts.Alpha)
		if err != nil {
			return nil, nil, err
		}
		m := &labelprop.Spreading{Tol: opts.Tol, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso, Float32: opts.Float32}
		if m.Solver, err = labelprop.ParseSolver(opts.Solver); err != nil {
			return nil, nil, fmt.Errorf("labelprop: --solver: %w", err)
		}
		if m.Stop, err = labelprop.ParseStopRule(opts.Stop); opts.Stop != "" && err != nil {
			return nil, nil, fmt.Errorf("labelprop: --stop: %w", err)
		}
		if (m.Stop == labelprop.StopLabels || m.Float32) && m.Solver != labelprop.Chebyshev && m.Solver != labelprop.Auto {
			return nil, nil, fmt.Errorf("labelprop: --stop labels and --float32 need --solver chebyshev or auto (--solver is %s)", opts.Solver)
		}
		return m, grid, nil
	case "harmonic":
		if opts.Alpha != "auto" && opts.Alpha != "" {
			return nil, nil, fmt.Errorf("labelprop: --alpha %s applies to --method spreading only; the harmonic function has no a", opts.Alpha)
		}
		if (opts.Stop != "" && opts.Stop != labelprop.StopResidual.String()) || opts.Float32 {
			return nil, nil, fmt.Errorf("labelprop: --stop %s and --float32 apply to --method spreading only", opts.Stop)
		}
		// The flag's default and "cg" (what the harmonic function runs) pass.
		if opts.Solver != "auto" && opts.Solver != "cg" && opts.Solver != "" {
			return nil, nil, fmt.Errorf("labelprop: --solver %s applies to --method spreading only; the harmonic function is solved by CG", opts.Solver)
		}
		return &labelprop.Harmonic{Tol: opts.Tol, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso}, nil, nil
	}
	return nil, nil, fmt.Errorf("labelprop: --method %q is invalid: want spreading or harmonic", opts.Method)
}

// labelpropMemoryBytes is what one fit of m takes beyond the graph.
func labelpropMemoryBytes(m labelprop.Classifier, ds *loaders.NodeDataset) int64 {
	if sp, ok := m.(*labelprop.Spreading); ok {
		return sp.MemoryBytes(ds.Graph)
	}
	return m.(*labelprop.Harmonic).MemoryBytes(ds.Graph)
}

// setClasses gives the model the data set's class count.
func setClasses(m labelprop.Classifier, classes int) {
	switch m := m.(type) {
	case *labelprop.Spreading:
		m.Classes = classes
	case *labelprop.Harmonic:
		m.Classes = classes
	}
}
