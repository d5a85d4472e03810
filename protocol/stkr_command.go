package protocol

import (
	"context"
	"errors"
	"fmt"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/stkr"
)

// STKRRun is gssl stkr's experiment on a data set: RunSTKRCV on every
// labelled node when the split resolves to none, else RunSTKRBenchmark
// over Seeds on the split of each seed, on the largest component with LCC.
type STKRRun struct {
	Data   *loaders.NodeDataset
	Source string // names Data in split errors
	LCC    bool
	// Split is the parsed split; Sizes its --val and --test (−1: the
	// protocol's sizes, STKRSplitSizes).
	Split eval.SplitSpec
	Sizes eval.SplitSizes
	Grid  STKRGrid
	// Transform is the transform as the user named it, for the log.
	Transform string
	Setting   Setting
	PTest     float64
	Chunks    bool
	Folds     int
	Seeds     []uint64
	// Out and Save say whether predictions or a model are to be written:
	// only the protocol without a split has them.
	Out, Save bool
	// Log, when set, is told what runs and each failed candidate; the
	// other observers are RunSTKRCV's folds (CV) and RunSTKRBenchmark's.
	Log   func(format string, args ...any)
	CV    func(candidates, folds int) func(done, total int)
	Total func(fits int) (setTotal, done func(int))
}

// STKRRunResult is what STKRRun.Run returns: the data set used (the
// largest component with LCC), the report and the runs behind it.
type STKRRunResult struct {
	Used   *loaders.NodeDataset
	Report STKRReport
	CV     *STKRCVRun    // without a split
	Runs   []STKRSeedRun // with one
}

// Used returns the data set the protocol runs on and the largest
// component it was restricted to (nil without LCC).
func (r STKRRun) Used() (*loaders.NodeDataset, *graph.Subgraph, error) {
	if !r.LCC {
		return r.Data, nil, nil
	}
	lcc, err := r.Data.Graph.LargestComponent()
	if err != nil {
		return nil, nil, err
	}
	return r.Data.Restrict(lcc), lcc, nil
}

func (r STKRRun) log(format string, args ...any) {
	if r.Log != nil {
		r.Log(format, args...)
	}
}

// Run runs the protocol on used and lcc (Used's); notes come first among
// the report's notes.
func (r STKRRun) Run(ctx context.Context, used *loaders.NodeDataset, lcc *graph.Subgraph, notes ...string) (STKRRunResult, error) {
	res := STKRRunResult{Used: used}
	task := Task{Graph: used.Graph, Labels: used.Labels, Classes: used.Classes}
	spec := r.Split.Resolve(r.Data.Split != nil)
	if spec.Kind == eval.SplitNone {
		return r.allLabelled(ctx, task, res, notes)
	}
	switch {
	case r.Out:
		return res, errors.New("stkr: --out writes the predictions of the protocol without a split (--split none); a benchmark split reports accuracies")
	case r.Save:
		return res, errors.New("stkr: --save saves the model of the protocol without a split (--split none), fitted on every labelled node; a benchmark split reports accuracies")
	}
	r.log("stkr: %s (%d nodes, %d edges, %d classes), %s, %s, %d seeds", used.Name, used.Graph.Nodes(), used.Graph.Edges(), used.Classes, r.Transform, r.Setting, len(r.Seeds))
	b := STKRBenchmark{Task: task, Setting: r.Setting, PTest: r.PTest, Chunks: r.Chunks, Seeds: r.Seeds, Grid: r.Grid,
		Split: func(seed uint64) (eval.Split, string, int, error) {
			d := r.Data.SplitData(r.Source)
			d.Subgraph = lcc
			splits, err := eval.NewSplitter(spec, d, STKRSplitSizes(spec, used.Classes, used.Graph.Nodes(), r.PTest, r.Sizes))
			if err != nil {
				return eval.Split{}, "", 0, fmt.Errorf("stkr: %w", err)
			}
			sp, dropped, err := splits.Split(seed)
			return sp, splits.Source(), dropped, err
		},
		Failed: func(seed uint64, c *stkr.Classifier, err error) {
			r.log("stkr: seed %d: %s β=%g max-iter=%d: %v", seed, c.Transform, c.Beta, c.Iterations, err)
		},
		Chosen: func(seed uint64, o STKROutcome, best *stkr.Classifier) {
			r.log("stkr: seed %d: test %.4f (%d nodes) val %.4f (%s β=%g, stop after %d, %d iterations, %d products, %.3fs)", seed, o.TestAccuracy, o.TestScored, o.ValAccuracy, best.Transform, best.Beta, best.Iterations, o.Stats.TotalIterations(), o.Stats.MatVecs, o.Seconds)
		},
	}
	if r.Total != nil {
		b.Total, b.Done = r.Total(len(r.Seeds) * len(r.Grid.Candidates()))
	}
	runs, err := RunSTKRBenchmark(ctx, b)
	if err != nil {
		return res, err
	}
	res.Runs, res.Report = runs, SummarizeSTKR(runs, r.Grid.Lap()).Report(r.Setting, notes...)
	return res, nil
}

// allLabelled is the protocol without a split (RunSTKRCV): fit on every
// labelled node, predict the others.
func (r STKRRun) allLabelled(ctx context.Context, task Task, res STKRRunResult, notes []string) (STKRRunResult, error) {
	labelled := res.Used.Labelled()
	switch {
	case r.Setting != Transductive:
		return res, fmt.Errorf("stkr: --setting %s needs a split with test nodes to hide; without a split the fit is transductive", r.Setting)
	case len(r.Seeds) > 1 || r.Chunks:
		return res, errors.New("stkr: --seeds and --test-chunks need a split (--split or --splits); without one every labelled node is trained on")
	case len(labelled) == 0:
		return res, errors.New("stkr: no node is labelled: give --labels (an empty label means unlabelled)")
	}
	cands := len(r.Grid.Candidates())
	ds := res.Used
	r.log("stkr: %s (%d nodes, %d edges, %d classes, %d labelled), %s, %d candidates by cross-validation", ds.Name, ds.Graph.Nodes(), ds.Graph.Edges(), ds.Classes, len(labelled), r.Transform, cands)
	cv := eval.CV{Folds: r.Folds, Seed: r.Seeds[0], Order: ds.IDOrder(labelled)}
	if r.CV != nil {
		cv.Progress = r.CV(cands, r.Folds)
	}
	c, err := RunSTKRCV(ctx, task, cv, r.Grid, func(c *stkr.Classifier, err error) {
		r.log("stkr: %s β=%g max-iter=%d: %v", c.Transform, c.Beta, c.Iterations, err)
	})
	res.CV, res.Report = &c, c.Report(task, r.Seeds[0], notes...)
	if err != nil {
		return res, fmt.Errorf("%w (or give --eta and --ridge)", err)
	}
	return res, nil
}

// STKRRunReport is an STKRRun's report: the data set used, the
// protocol's settings and report, the outputs and the times.
type STKRRunReport struct {
	NodeData
	Transform  string  `json:"transform"`
	Setting    string  `json:"setting"`
	Solver     string  `json:"solver"`
	PTest      float64 `json:"p_test"`
	Labelled   int     `json:"labelled"`
	LCC        bool    `json:"lcc"`
	TestChunks bool    `json:"test_chunks"`
	STKRReport
	Out         string            `json:"out,omitempty"`
	Saved       string            `json:"saved,omitempty"`
	LoadSeconds float64           `json:"load_seconds"`  // reading the input (and its largest component with LCC)
	KNN         *knngraph.Summary `json:"knn,omitempty"` // the graph built from the features
	Seconds     float64           `json:"seconds"`
}

// Describe starts the report of r on used (Used's), read from source.
func (r STKRRun) Describe(source string, used *loaders.NodeDataset) STKRRunReport {
	return STKRRunReport{NodeData: DescribeNodes(source, used), Transform: r.Transform, Setting: r.Setting.String(), Solver: r.Grid.Base.Solver.String(),
		PTest: r.PTest, LCC: r.LCC, TestChunks: r.Chunks, Labelled: len(used.Labelled())}
}
