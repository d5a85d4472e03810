package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
	"github.com/gssl/gssl/stkr"
)

// stkrSetup is the validated hyperparameter grid of a run.
type stkrSetup struct {
	setting     protocol.Setting
	solver      stkr.Solver
	etas, betas []float64
	counts      []int
	proto       stkr.Transform
	isLap       bool
	cache       *stkr.EigenCache
}

func newSTKRSetup(opts stkrOptions) (*stkrSetup, error) {
	s := &stkrSetup{cache: &stkr.EigenCache{}}
	var err error
	if err := checkSeedCount(opts.Seeds, 1); err != nil {
		return nil, fmt.Errorf("stkr: %w", err)
	}
	if opts.Seed < 0 {
		return nil, fmt.Errorf("stkr: --seed=%d is invalid: it must be ≥ 0", opts.Seed)
	}
	if opts.Folds < 2 {
		return nil, fmt.Errorf("stkr: --folds=%d is invalid: it must be ≥ 2", opts.Folds)
	}
	if err := checkCount("val", opts.Val, 0, "the default size"); err != nil {
		return nil, fmt.Errorf("stkr: %w", err)
	}
	if err := checkCount("test", opts.Test, 0, "the default size"); err != nil {
		return nil, fmt.Errorf("stkr: %w", err)
	}
	if !(opts.PTest >= 0 && opts.PTest < 1) {
		return nil, fmt.Errorf("stkr: --p-test=%v is invalid: it must be in [0, 1) (0 keeps the split's test set)", opts.PTest)
	}
	if _, err := parseSplitFlag(opts.Split); err != nil {
		return nil, fmt.Errorf("stkr: %w", err)
	}
	if opts.Splits != "" {
		if st, err := os.Stat(opts.Splits); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("stkr: --splits %s is not a folder of split files (random20_seed<s>.txt)", opts.Splits)
		}
		if opts.Split != "auto" && opts.Split != "" {
			return nil, fmt.Errorf("stkr: --splits and --split exclude each other: a folder of per-seed split files, or one split")
		}
	}
	if s.setting, err = protocol.ParseSetting(opts.Setting); err != nil {
		return nil, fmt.Errorf("stkr: --setting: %w", err)
	}
	if opts.TestChunks && opts.PTest == 0 {
		return nil, fmt.Errorf("stkr: --test-chunks needs --p-test > 0 (the chunk size is round(p_test·N)); --p-test 0 already scores every test node")
	}
	if s.solver, err = stkr.ParseSolver(opts.Solver); err != nil {
		return nil, fmt.Errorf("stkr: --solver: %w", err)
	}
	if s.etas, err = hyperGrid("eta", opts.Eta, stkr.EtaGrid()); err != nil {
		return nil, err
	}
	if s.betas, err = hyperGrid("ridge", opts.Ridge, stkr.BetaGrid()); err != nil {
		return nil, err
	}
	if s.proto, err = stkr.ParseTransform(opts.Transform, 0); err != nil {
		return nil, fmt.Errorf("stkr: --transform: %w", err)
	}
	if s.counts, err = iterationGrid(opts.MaxIter); err != nil {
		return nil, err
	}
	if _, ok := s.proto.(stkr.TopD); ok && opts.MaxIter == "auto" {
		return nil, fmt.Errorf("stkr: --max-iter auto does not apply to --transform %s (kernel PCA has no iterative solve)", opts.Transform)
	}
	_, s.isLap = s.proto.(stkr.InverseLaplacian)
	if !s.isLap {
		if opts.Eta != "auto" && opts.Eta != "" {
			return nil, fmt.Errorf("stkr: --eta applies only to --transform inverse-laplacian, not %s", opts.Transform)
		}
		s.etas = []float64{math.NaN()}
	}
	if err := checkOutPath("out", opts.Out); err != nil {
		return nil, fmt.Errorf("stkr: %w", err)
	}
	// Reject bad η/β before loading anything, naming the flags.
	for _, r := range s.grid(opts).Candidates() {
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("stkr: --ridge, --tol or --max-iter: %w", err)
		}
		if err := r.Transform.Validate(1); err != nil {
			return nil, fmt.Errorf("stkr: --eta or --transform: %w", err)
		}
	}
	return s, nil
}

// grid is the run's hyperparameter grid; its candidates share an eigen
// cache, so kernel PCA decomposes each visible graph once.
func (s *stkrSetup) grid(opts stkrOptions) protocol.STKRGrid {
	return protocol.STKRGrid{Base: stkr.Regressor{Transform: s.proto, Solver: s.solver, Tol: opts.Tol, Eigen: s.cache},
		Etas: s.etas, Betas: s.betas, Iterations: s.counts}
}

// stkrInput is the loaded data set, restricted to its largest component
// with --lcc (lcc then maps local to loaded ids).
type stkrInput struct {
	ds     *loaders.NodeDataset // the data the models see
	loaded *loaders.NodeDataset // as loaded (split files name its nodes)
	lcc    *graph.Subgraph
	built  *knnBuilt // the KNN graph built from --features, or nil
}

// full returns the data set as loaded, before --lcc.
func (in *stkrInput) full() *loaders.NodeDataset { return in.loaded }

func stkrData(ctx context.Context, opts stkrOptions, stderr io.Writer) (*stkrInput, error) {
	var ds *loaders.NodeDataset
	var err error
	if opts.Images != "" {
		ds, err = imageGraphDataset(ctx, opts.Images, opts.N, opts.Neighbors, stderr)
	} else {
		ds, err = opts.In.load(ctx, stderr)
	}
	if err == nil {
		err = needLabels(ds)
	}
	if err != nil {
		return nil, fmt.Errorf("stkr: %w", err)
	}
	n, c := int64(ds.Graph.Nodes()), int64(max(ds.Classes, 1))
	if err := checkClassMemory("stkr", opts.In.MaxMemory, ds, stkrClassBlocks*8*n*c); err != nil {
		ds.Close()
		return nil, err
	}
	in := &stkrInput{ds: ds, loaded: ds, built: opts.In.built}
	if opts.LCC {
		if in.lcc, err = ds.Graph.LargestComponent(); err != nil {
			return nil, err
		}
		in.ds = restrictDataset(ds, in.lcc)
	}
	return in, nil
}

// stkrResult is the JSON object of one run: the data set and the
// protocol's settings, its report, the outputs and the times.
type stkrResult struct {
	Data       string   `json:"data"`
	Dataset    string   `json:"dataset"`
	Transform  string   `json:"transform"`
	Setting    string   `json:"setting"`
	Solver     string   `json:"solver"`
	PTest      float64  `json:"p_test"`
	Nodes      int      `json:"nodes"`
	Classes    int      `json:"classes"`
	ClassNames []string `json:"class_names"`
	Labelled   int      `json:"labelled"`
	LCC        bool     `json:"lcc"`
	TestChunks bool     `json:"test_chunks"`
	protocol.STKRReport
	Out         string      `json:"out,omitempty"`
	Saved       string      `json:"saved,omitempty"`
	LoadSeconds float64     `json:"load_seconds"`  // reading the input (and its largest component with --lcc)
	KNN         *knnSummary `json:"knn,omitempty"` // the graph built from --features
	Seconds     float64     `json:"seconds"`

	fig stkrFigure // the first selection's grid, for --plot and --report
}

func newSTKRResult(opts stkrOptions, s *stkrSetup, in *stkrInput) (stkrResult, []string) {
	ds := in.ds
	res := stkrResult{Data: opts.In.source(), Dataset: ds.Name, Transform: opts.Transform, Setting: s.setting.String(), Solver: s.solver.String(),
		PTest: opts.PTest, Nodes: ds.Graph.Nodes(), Classes: ds.Classes, LCC: opts.LCC, TestChunks: opts.TestChunks, Labelled: len(labelledNodes(ds))}
	if in.built != nil {
		res.KNN = &in.built.Summary
	}
	if opts.Images != "" {
		res.Data = opts.Images
	}
	for c := 0; c < ds.Classes; c++ {
		res.ClassNames = append(res.ClassNames, className(ds, c))
	}
	var notes []string
	if opts.In.Features != "" && !opts.In.fromPoints() {
		notes = append(notes, "the features are read but not used: STKR's base kernel is the graph's")
	}
	return res, notes
}

// stkrAllLabelled is the protocol without a split (protocol.RunSTKRCV): fit on
// every labelled node, predict the others.
func stkrAllLabelled(ctx context.Context, opts stkrOptions, s *stkrSetup, in *stkrInput, stderr io.Writer) (stkrResult, error) {
	ds := in.ds
	res, notes := newSTKRResult(opts, s, in)
	if s.setting != protocol.Transductive {
		return res, fmt.Errorf("stkr: --setting %s needs a split with test nodes to hide; without a split the fit is transductive", s.setting)
	}
	if opts.Seeds > 1 || opts.TestChunks {
		return res, errors.New("stkr: --seeds and --test-chunks need a split (--split or --splits); without one every labelled node is trained on")
	}
	if res.Labelled == 0 {
		return res, errors.New("stkr: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	g := s.grid(opts)
	logf(stderr, "stkr: %s (%d nodes, %d edges, %d classes, %d labelled), %s, %d candidates by cross-validation", ds.Name, res.Nodes, ds.Graph.Edges(), ds.Classes, res.Labelled, opts.Transform, len(g.Candidates()))
	task := protocol.Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
	cv := eval.CV{Folds: opts.Folds, Seed: uint64(opts.Seed), Order: idOrder(ds, labelledNodes(ds))}
	st := newSteps(stderr, opts.Folds*len(g.Candidates()), "stkr")
	defer st.Finish()
	cv.Progress = func(done, total int) {
		if cands := len(g.Candidates()); done%cands == 0 {
			st.to(done, total, "cross-validation: fold %d of %d done (%d candidates each)", done/cands, total/cands, cands)
			return
		}
		st.to(done, total, "")
	}
	c, err := protocol.RunSTKRCV(ctx, task, cv, g, func(c *stkr.Classifier, err error) {
		logf(stderr, "stkr: %s β=%g max-iter=%d: %v", c.Transform, c.Beta, c.Iterations, err)
	})
	res.STKRReport = c.Report(task, opts.Seed, notes...)
	if err != nil {
		return res, fmt.Errorf("%w (or give --eta and --ridge)", err)
	}
	res.fig = stkrFigure{accuracy: c.Accuracy, best: c.STKRCVChoice.Best, transform: c.Best.Transform, what: "cross-validation accuracy"}
	return res, stkrWrite(opts, in, c, &res)
}

// stkrWrite writes --out and --save of the protocol without a split.
func stkrWrite(opts stkrOptions, in *stkrInput, c protocol.STKRCVRun, res *stkrResult) error {
	ds := in.ds
	if opts.Out != "" {
		if err := writeClassRows(opts.Out, ds, eval.Split{Train: labelledNodes(ds)}, false, c.Labels, c.Probabilities.RawRowView); err != nil {
			return fmt.Errorf("stkr: %w", err)
		}
		res.Out = opts.Out
	}
	if opts.Save != "" {
		opts.In.built = in.built
		if err := saveModel(opts.Save, c.Best, ds, opts.In); err != nil {
			return fmt.Errorf("stkr: %w", err)
		}
		res.Saved = opts.Save
	}
	return nil
}

// stkrBenchmark is the paper's protocol over seeds on a benchmark split.
func stkrBenchmark(ctx context.Context, opts stkrOptions, s *stkrSetup, in *stkrInput, spec eval.SplitSpec, stderr io.Writer) (stkrResult, error) {
	ds := in.ds
	n := ds.Graph.Nodes()
	res, notes := newSTKRResult(opts, s, in)
	if opts.Out != "" {
		return res, errors.New("stkr: --out writes the predictions of the protocol without a split (--split none); a benchmark split reports accuracies")
	}
	if opts.Save != "" {
		return res, errors.New("stkr: --save saves the model of the protocol without a split (--split none), fitted on every labelled node; a benchmark split reports accuracies")
	}
	g := s.grid(opts)
	logf(stderr, "stkr: %s (%d nodes, %d edges, %d classes), %s, %s, %d seeds", ds.Name, n, ds.Graph.Edges(), ds.Classes, opts.Transform, s.setting, opts.Seeds)
	bar := newProgress(stderr, opts.Seeds*len(g.Candidates()), "stkr")
	defer bar.Finish()
	runs, err := protocol.RunSTKRBenchmark(ctx, protocol.STKRBenchmark{
		Task: protocol.Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}, Setting: s.setting,
		PTest: opts.PTest, Chunks: opts.TestChunks, Seeds: eval.SeedRange(opts.Seed, opts.Seeds), Grid: g,
		Split: func(seed int) (eval.Split, string, int, error) { return stkrSplit(in, spec, opts, seed) },
		Total: bar.SetTotal, Done: bar.Add,
		Failed: func(seed int, c *stkr.Classifier, err error) {
			logf(stderr, "stkr: seed %d: %s β=%g max-iter=%d: %v", seed, c.Transform, c.Beta, c.Iterations, err)
		},
		Chosen: func(seed int, o protocol.STKROutcome, best *stkr.Classifier) {
			logf(stderr, "stkr: seed %d: test %.4f (%d nodes) val %.4f (%s β=%g, stop after %d, %d iterations, %d products, %.3fs)", seed, o.TestAccuracy, o.TestScored, o.ValAccuracy, best.Transform, best.Beta, best.Iterations, o.Stats.TotalIterations(), o.Stats.MatVecs, o.Seconds)
		},
	})
	if err != nil {
		return res, err
	}
	res.STKRReport = protocol.SummarizeSTKR(runs, s.isLap).Report(s.setting, notes...)
	res.fig = newSTKRFigure(runs[0].Choices[0], runs[0].Chosen[0], runs[0].Seed)
	return res, nil
}

// stkrSplit returns seed s's train/val/test split (in the ids of in.ds), a
// description of its source and the number of its nodes dropped outside
// the largest component.
func stkrSplit(in *stkrInput, spec eval.SplitSpec, opts stkrOptions, s int) (eval.Split, string, int, error) {
	d := splitData(in.full(), opts.In.source())
	d.Subgraph = in.lcc
	splits, err := eval.NewSplitter(spec, d, protocol.STKRSplitSizes(spec, in.ds.Classes, in.ds.Graph.Nodes(), opts.PTest, eval.SplitSizes{Val: opts.Val, Test: opts.Test}))
	if err != nil {
		return eval.Split{}, "", 0, fmt.Errorf("stkr: %w", err)
	}
	sp, dropped, err := splits.Split(uint64(s))
	if err != nil {
		return eval.Split{}, "", 0, fmt.Errorf("stkr: %w", err)
	}
	return sp, splits.Source(), dropped, nil
}

func printSTKR(w io.Writer, r stkrResult) {
	if r.Protocol == "all-labelled" {
		fmt.Fprintf(w, "STKR %s on %s (%d nodes, %d labelled, %d classes): fit on every labelled node\n", r.Transform, r.Dataset, r.Nodes, r.Labelled, r.Classes)
		fmt.Fprintf(w, "  cv accuracy    %s (%d folds)\n", num(r.CVAccuracy), r.Folds)
	} else {
		fmt.Fprintf(w, "STKR %s on %s, %s setting (%d nodes, %d visible at fit time)\n", r.Transform, r.Dataset, r.Setting, r.Nodes, r.VisibleNodes)
		fmt.Fprintf(w, "  test accuracy  %s ± %s over %d seeds (%d test nodes each, p_test %g)\n", num(r.TestAccuracyMean), num(r.TestAccuracyStd), len(r.Seeds), r.TestNodes, r.PTest)
		fmt.Fprintf(w, "  val accuracy   %s\n", num(r.ValAccuracyMean))
	}
	if r.Refit {
		fmt.Fprintf(w, "  protocol       hyperparameters chosen with val and test hidden, then refitted with val visible (unlabelled)\n")
	}
	if len(r.Eta) > 0 {
		fmt.Fprintf(w, "  chosen η       %v\n", r.Eta)
	}
	fmt.Fprintf(w, "  chosen β       %v\n", r.Beta)
	fmt.Fprintf(w, "  stopped after  %v iterations (0 = solved to the tolerance)\n", r.ChosenIterations)
	fmt.Fprintf(w, "  solver         %s: %.0f iterations, %.0f products with M per fit (mean)\n", r.SolverDetail, r.Iterations, r.MatVecs)
	fmt.Fprintf(w, "  time           %.3f s per fit (mean at the chosen setting), %.2f s in all\n", r.FitSeconds, r.Seconds)
	if r.FailedCandidates > 0 {
		fmt.Fprintf(w, "  failed         %d of %d candidate fits (solver did not converge; see stderr)\n", r.FailedCandidates, r.Candidates)
	}
	if r.NoEvidence > 0 {
		fmt.Fprintf(w, "  no evidence    %d predictions had no positive score and got the most frequent class\n", r.NoEvidence)
	}
	fmt.Fprintf(w, "  splits         %s\n", strings.TrimSpace(r.SplitSource))
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note           %s\n", n)
	}
	if r.Out != "" {
		fmt.Fprintf(w, "  predictions    %d nodes written to %s\n", r.Predicted, r.Out)
	}
	if r.Saved != "" {
		fmt.Fprintf(w, "  model          saved to %s (gssl predict --model %s)\n", r.Saved, r.Saved)
	}
}
