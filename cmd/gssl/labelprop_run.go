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
	stop   labelprop.StopRule
}

func newLabelpropSetup(opts labelpropOptions) (labelpropSetup, error) {
	var lp labelpropSetup
	var err error
	if err := checkSplitFlag(opts.Split); err != nil {
		return lp, fmt.Errorf("labelprop: %w", err)
	}
	if err := checkSeedCount(opts.Seeds, 1); err != nil {
		return lp, fmt.Errorf("labelprop: %w", err)
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
		if lp.stop, err = labelprop.ParseStopRule(opts.Stop); opts.Stop != "" && err != nil {
			return lp, fmt.Errorf("labelprop: --stop: %w", err)
		}
		if (lp.stop == labelprop.StopLabels || opts.Float32) && lp.solver != labelprop.Chebyshev && lp.solver != labelprop.Auto {
			return lp, fmt.Errorf("labelprop: --stop labels and --float32 need --solver chebyshev or auto (--solver is %s)", opts.Solver)
		}
	case "harmonic":
		if opts.Alpha != "auto" && opts.Alpha != "" {
			return lp, fmt.Errorf("labelprop: --alpha %s applies to --method spreading only; the harmonic function has no a", opts.Alpha)
		}
		if (opts.Stop != "" && opts.Stop != labelprop.StopResidual.String()) || opts.Float32 {
			return lp, fmt.Errorf("labelprop: --stop %s and --float32 apply to --method spreading only", opts.Stop)
		}
		// The flag's default and "cg" (what the harmonic function runs) pass.
		if opts.Solver != "auto" && opts.Solver != "cg" && opts.Solver != "" {
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
	return &labelprop.Spreading{Alpha: a, Solver: lp.solver, Tol: opts.Tol, Classes: classes, ClassMassNormalization: opts.CMN, IsolatedSeeds: iso,
		Stop: lp.stop, Float32: opts.Float32}
}

// memoryBytes is what one fit takes beyond the graph (Spreading's
// MemoryBytes; for the harmonic function, F and CG's three blocks).
func (lp labelpropSetup) memoryBytes(opts labelpropOptions, ds *loaders.NodeDataset) int64 {
	c := int64(max(ds.Classes, 1))
	n := int64(ds.Graph.Nodes())
	if sp, ok := lp.model(opts, int(c), lp.grid[0]).(*labelprop.Spreading); ok {
		return sp.MemoryBytes(ds.Graph)
	}
	return 4*8*n*c + 53*n
}

// fallbackAlpha is a when --alpha auto cannot cross-validate (no class has
// two labels). With one label per class on Cora it is the best of the grid
// (gssl labelprop --split random:1 --seeds 5 --val 0 --alpha A: test
// accuracy 0.47 at 0.9, 0.44 at 0.8, 0.42 at 0.99, 0.40 at 0.5); near 1 the
// scores tend to the degree profile and favour the class of the seed of
// largest degree.
const fallbackAlpha = 0.9

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
// auto (a given a is cross-validated too, for its accuracy; a note says why
// when that is impossible), then one fit on every labelled node.
func labelpropAllLabelled(ctx context.Context, ds *loaders.NodeDataset, lp labelpropSetup, opts labelpropOptions) (labelpropRun, *labelprop.AlphaChoice, string, error) {
	var nodes, classes []int
	for i, l := range ds.Labels {
		if l >= 0 {
			nodes, classes = append(nodes, i), append(classes, l)
		}
	}
	if len(nodes) == 0 {
		return labelpropRun{}, nil, "", errors.New("labelprop: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	if err := checkSeeds(ds, nodes, opts.KeepIsolatedSeeds); err != nil {
		return labelpropRun{}, nil, "", err
	}
	run := labelpropRun{alpha: lp.grid[0], split: eval.Split{Train: nodes}, val: math.NaN(), test: math.NaN(), macroF1: math.NaN()}
	var choice *labelprop.AlphaChoice
	var note string
	if opts.Method == "spreading" {
		// Cross-validation chooses a (auto), or estimates the accuracy of
		// the given one.
		base := lp.model(opts, ds.Classes, lp.grid[0]).(*labelprop.Spreading)
		cv := eval.CV{Folds: opts.Folds, Seed: opts.Seed, Order: idOrder(ds, nodes)}
		c, err := labelprop.ChooseAlpha(ctx, ds.Graph, nodes, classes, base, lp.grid, cv)
		switch {
		case err == nil:
			choice, run.alpha = &c, c.Alpha
		case errors.Is(err, eval.ErrTooFewLabels) && len(lp.grid) > 1:
			run.alpha = fallbackAlpha
			note = fmt.Sprintf("no class has two labels, so a cannot be chosen by cross-validation: a = %g (--alpha sets it)", fallbackAlpha)
		case len(lp.grid) > 1:
			return labelpropRun{}, nil, "", fmt.Errorf("%w (or give --alpha)", err)
		default:
			note = fmt.Sprintf("no cross-validation accuracy: %v", err)
		}
	}
	m := lp.model(opts, ds.Classes, run.alpha)
	t0 := timeNow()
	if err := m.FitIndexed(ctx, ds.Graph, nodes, classes); err != nil {
		return labelpropRun{}, nil, "", fmt.Errorf("labelprop: %w", err)
	}
	run.fitSeconds, run.model, run.info = seconds(t0), m, m.Info()
	return run, choice, note, nil
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
	// The grid is in increasing order (labelprop.AlphaGrid): with the
	// Chebyshev or auto solver each a's solve starts from the previous a's
	// scores (labelprop.Spreading.WarmStart), which takes fewer iterations
	// for the same labels. --solver cg starts from zero, so that its
	// iteration counts stay those of the peer's scipy CG.
	var prev *labelprop.Spreading
	c, err := labelprop.ChooseOnSplit(ctx, ds.Graph, ds.Labels, ds.Classes, sp, lp.grid, func(a float64) labelprop.Classifier {
		m := lp.model(opts, ds.Classes, a)
		if sm, ok := m.(*labelprop.Spreading); ok && (lp.solver == labelprop.Chebyshev || lp.solver == labelprop.Auto) {
			if prev != nil {
				prev.WarmStart = nil // fitted: only the newest model keeps its predecessor alive
			}
			sm.WarmStart, prev = prev, sm
		}
		return m
	})
	if err != nil {
		return labelpropRun{}, fmt.Errorf("labelprop: %w", err)
	}
	run := labelpropRun{split: sp, withSplit: true, alpha: lp.grid[c.Best], model: c.Model, info: c.Model.Info(),
		gridVal: c.GridVal, gridTest: c.GridTest, gridIter: c.GridIterations, gridSecs: c.GridSeconds,
		val: c.Val, test: c.Test, macroF1: c.MacroF1, fitSeconds: c.GridSeconds[c.Best]}
	return run, nil
}
