package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
)

// labelpropSetup is the validated model settings of a run.
type labelpropSetup struct {
	grid   []float64 // values of a to choose from ({0} for harmonic)
	auto   bool      // --alpha auto
	solver labelprop.Solver
}

func newLabelpropSetup(opts labelpropOptions) (labelpropSetup, error) {
	var lp labelpropSetup
	var err error
	if err := checkSplitFlag(opts.Split); err != nil {
		return lp, fmt.Errorf("labelprop: %w", err)
	}
	if opts.Seeds < 1 {
		return lp, fmt.Errorf("labelprop: --seeds %d is invalid: it must be ≥ 1", opts.Seeds)
	}
	if sp, _ := parseSplitSpec(opts.Split, false); opts.Seeds > 1 && sp.kind != "random" {
		return lp, fmt.Errorf("labelprop: --seeds %d needs --split random:K; the other protocols are deterministic", opts.Seeds)
	}
	for _, c := range []struct {
		name string
		v    int
	}{{"val", opts.Val}, {"test", opts.Test}} {
		if err := checkCount(c.name, c.v, 0, "the default size"); err != nil {
			return lp, fmt.Errorf("labelprop: %w", err)
		}
	}
	if opts.Folds < 2 {
		return lp, fmt.Errorf("labelprop: --folds %d is invalid: it must be ≥ 2", opts.Folds)
	}
	switch opts.Method {
	case "spreading":
		if lp.grid, lp.auto, err = parseAlpha(opts.Alpha); err != nil {
			return lp, err
		}
		if lp.solver, err = labelprop.ParseSolver(opts.Solver); err != nil {
			return lp, fmt.Errorf("labelprop: --solver: %w", err)
		}
	case "harmonic":
		if opts.Alpha != "auto" && opts.Alpha != "" {
			return lp, fmt.Errorf("labelprop: --alpha %s applies to --method spreading only; the harmonic function has no a", opts.Alpha)
		}
		// The flag's default and "cg" (what the harmonic function runs) pass.
		if opts.Solver != "chebyshev" && opts.Solver != "cg" && opts.Solver != "" {
			return lp, fmt.Errorf("labelprop: --solver %s applies to --method spreading only; the harmonic function is solved by CG", opts.Solver)
		}
		lp.grid = []float64{0}
	default:
		return lp, fmt.Errorf("labelprop: --method %q is invalid: want spreading or harmonic", opts.Method)
	}
	if opts.Tol != 0 && !(opts.Tol > 0 && opts.Tol < 1) {
		return lp, fmt.Errorf("labelprop: --tol %v is invalid: it must be inside (0, 1), or 0 for the default", opts.Tol)
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return lp, fmt.Errorf("labelprop: %w", err)
	}
	return lp, nil
}

// model returns an unfitted model with spreading weight a.
func (lp labelpropSetup) model(opts labelpropOptions, classes int, a float64) labelprop.Classifier {
	iso := labelprop.IsolatedSeedError
	if opts.KeepIsolatedSeeds {
		iso = labelprop.IsolatedSeedKeep
	}
	if opts.Method == "harmonic" {
		return &labelprop.Harmonic{Tol: opts.Tol, Classes: classes, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso}
	}
	return &labelprop.Spreading{Alpha: a, Solver: lp.solver, Tol: opts.Tol, Classes: classes, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso}
}

// labelpropRun is the outcome of one fit protocol (one split, or every
// labelled node).
type labelpropRun struct {
	alpha      float64   // chosen a (spreading)
	gridVal    []float64 // validation accuracy per a of the grid
	gridTest   []float64 // test accuracy per a of the grid
	gridIter   []int     // iterations per a of the grid
	gridSecs   []float64 // fit seconds per a of the grid
	val, test  float64   // accuracies of the chosen model (NaN without nodes)
	macroF1    float64   // on the test nodes
	info       labelprop.Info
	fitSeconds float64 // the chosen model's fit and labels
	model      labelprop.Classifier
	split      eval.Split
	withSplit  bool // a benchmark split (else: trained on every labelled node)
}

// checkSeeds refuses labelled training nodes of degree 0 unless they may
// keep their label, naming the flag.
func checkSeeds(ds *loaders.NodeDataset, train []int, keep bool) error {
	if keep {
		return nil
	}
	for _, v := range train {
		if ds.Graph.Degree(v) == 0 {
			return fmt.Errorf("labelprop: training node %s is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds to keep it", nodeID(ds, v))
		}
	}
	return nil
}

// labelpropAllLabelled is the protocol without a split: a chosen by
// cross-validation over the labelled nodes (labelprop.ChooseAlpha) when
// auto, then one fit on every labelled node.
func labelpropAllLabelled(ctx context.Context, ds *loaders.NodeDataset, lp labelpropSetup, opts labelpropOptions) (labelpropRun, *labelprop.AlphaChoice, error) {
	var nodes, classes []int
	for i, l := range ds.Labels {
		if l >= 0 {
			nodes, classes = append(nodes, i), append(classes, l)
		}
	}
	if len(nodes) == 0 {
		return labelpropRun{}, nil, errors.New("labelprop: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	if err := checkSeeds(ds, nodes, opts.KeepIsolatedSeeds); err != nil {
		return labelpropRun{}, nil, err
	}
	run := labelpropRun{alpha: lp.grid[0], split: eval.Split{Train: nodes}, val: math.NaN(), test: math.NaN(), macroF1: math.NaN()}
	var choice *labelprop.AlphaChoice
	if lp.auto && len(lp.grid) > 1 {
		base := lp.model(opts, ds.Classes, lp.grid[0]).(*labelprop.Spreading)
		cv := eval.CV{Folds: opts.Folds, Seed: opts.Seed, Order: idOrder(ds, nodes)}
		c, err := labelprop.ChooseAlpha(ctx, ds.Graph, nodes, classes, base, lp.grid, cv)
		if err != nil {
			return labelpropRun{}, nil, fmt.Errorf("%w (or give --alpha)", err)
		}
		choice, run.alpha = &c, c.Alpha
	}
	m := lp.model(opts, ds.Classes, run.alpha)
	t0 := timeNow()
	if err := m.Fit(ctx, ds.Graph, nodes, classes); err != nil {
		return labelpropRun{}, nil, fmt.Errorf("labelprop: %w", err)
	}
	run.fitSeconds, run.model, run.info = seconds(t0), m, m.Info()
	return run, choice, nil
}

// labelpropSplits runs the benchmark protocol on every seed's split.
func labelpropSplits(ctx context.Context, ds *loaders.NodeDataset, spec splitSpec, lp labelpropSetup, opts labelpropOptions, stderr io.Writer) ([]labelpropRun, error) {
	var fixed *eval.Split
	switch spec.kind {
	case "planetoid":
		if ds.Split == nil {
			return nil, fmt.Errorf("labelprop: %s has no split_planetoid.txt; use --split none, random:K or a split file", opts.In.source())
		}
		fixed = ds.Split
	case "file":
		sp, err := readSplitFile(spec.path, ds)
		if err != nil {
			return nil, fmt.Errorf("labelprop: %w", err)
		}
		fixed = sp
	}
	val, test := randomSizes(ds.Labels, spec.perClass, opts.Val, opts.Test, 500)
	bar := newProgress(stderr, opts.Seeds, "labelprop")
	defer bar.Finish()
	seeds := eval.Seeds(opts.Seeds)
	for k := range seeds {
		seeds[k] += opts.Seed
	}
	return eval.RunSeeds(ctx, seeds, func(ctx context.Context, seed uint64) (labelpropRun, error) {
		sp := fixed
		if sp == nil {
			r, err := eval.RandomPerClass(ds.Labels, spec.perClass, val, test, seed)
			if err != nil {
				return labelpropRun{}, fmt.Errorf("labelprop: --split %s (--val %d, --test %d): %w", opts.Split, val, test, err)
			}
			sp = &r
		}
		return labelpropOnSplit(ctx, ds, *sp, lp, opts)
	}, func(int) { bar.Add(1) })
}

// readSplitFile reads a split file for ds; a node whose label is unknown
// (−1) in any part is an error, since it can be neither trained on nor
// scored.
func readSplitFile(path string, ds *loaders.NodeDataset) (*eval.Split, error) {
	if ds.IDs != nil && !ds.IDs.IsIdentity() {
		// A split file names nodes 0..n−1, which are not the user's ids.
		return nil, fmt.Errorf("%s: a split file names the nodes 0..n-1, and this data set has its own ids; use --split none or random:K", path)
	}
	sp, err := loaders.ReadSplit(path, len(ds.Labels))
	if err != nil {
		return nil, err
	}
	for _, part := range []struct {
		name  string
		nodes []int
	}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
		for _, i := range part.nodes {
			if ds.Labels[i] < 0 {
				return nil, fmt.Errorf("%s: %s node %s has no label (−1): a split may list only labelled nodes", path, part.name, nodeID(ds, i))
			}
		}
	}
	return sp, nil
}

// labelpropOnSplit fits one model per value of the grid, chooses on the
// validation nodes when auto, and scores the chosen model.
func labelpropOnSplit(ctx context.Context, ds *loaders.NodeDataset, sp eval.Split, lp labelpropSetup, opts labelpropOptions) (labelpropRun, error) {
	if len(sp.Train) == 0 {
		return labelpropRun{}, errors.New("labelprop: the split has no training node")
	}
	if lp.auto && len(lp.grid) > 1 && len(sp.Val) == 0 {
		return labelpropRun{}, errors.New("labelprop: --alpha auto needs validation nodes to choose a, and the split has none; give --alpha, or --split none to choose it by cross-validation")
	}
	if err := checkSeeds(ds, sp.Train, opts.KeepIsolatedSeeds); err != nil {
		return labelpropRun{}, err
	}
	c, err := labelprop.ChooseOnSplit(ctx, ds.Graph, ds.Labels, ds.Classes, sp, lp.grid, func(a float64) labelprop.Classifier {
		return lp.model(opts, ds.Classes, a)
	})
	if err != nil {
		return labelpropRun{}, fmt.Errorf("labelprop: %w", err)
	}
	run := labelpropRun{split: sp, withSplit: true, alpha: lp.grid[c.Best], model: c.Model, info: c.Model.Info(),
		gridVal: c.GridVal, gridTest: c.GridTest, gridIter: c.GridIterations, gridSecs: c.GridSeconds,
		val: c.Val, test: c.Test, macroF1: c.MacroF1, fitSeconds: c.GridSeconds[c.Best]}
	return run, nil
}
