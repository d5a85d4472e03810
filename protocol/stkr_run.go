package protocol

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/stkr"
)

// DefaultPTest is the paper's p_test, the fraction of all nodes scored
// as test nodes of a split (Appendix D.1, for Cora, CiteSeer and PubMed).
const DefaultPTest = 0.01

// STKRSplitSizes returns the validation and test sizes of a random split
// (spec K per class) of n nodes of the given number of classes in STKR's
// protocol, from asked (−1: the default size): K per class validation
// nodes, as stkr.py draws them, and round(pTest·n) test nodes (at least 1)
// when pTest > 0, since only those are scored. Other splits and sizes ≥ 0
// are returned as asked.
func STKRSplitSizes(spec eval.SplitSpec, classes, n int, pTest float64, asked eval.SplitSizes) eval.SplitSizes {
	if spec.Kind != eval.SplitRandom {
		return asked
	}
	if asked.Val < 0 {
		asked.Val = spec.PerClass * classes
	}
	if asked.Test < 0 && pTest > 0 {
		asked.Test = testSize(n, pTest)
	}
	return asked
}

// STKRGrid is a hyperparameter grid of STKR classifiers: every candidate is a
// clone of Base with η (for the inverse Laplacian), β and the iteration
// count set, η outermost, then β, then the iterations.
type STKRGrid struct {
	// Base holds the hyperparameters every candidate shares (Transform,
	// Solver, Tol, Eigen…). For the inverse Laplacian its η is replaced
	// by each of Etas; other transforms ignore Etas.
	Base       stkr.Regressor
	Etas       []float64
	Betas      []float64
	Iterations []int
}

// Lap reports whether the grid is over the inverse Laplacian's η.
func (g STKRGrid) Lap() bool {
	_, ok := g.Base.Transform.(stkr.InverseLaplacian)
	return ok
}

// Candidates returns fresh, unfitted classifiers for every point of the
// grid. They share Base's Eigen (an EigenCache decomposes each visible
// graph once).
func (g STKRGrid) Candidates() []*stkr.Classifier {
	etas := g.Etas
	if !g.Lap() {
		etas = []float64{math.NaN()}
	}
	var out []*stkr.Classifier
	for _, eta := range etas {
		for _, beta := range g.Betas {
			for _, it := range g.Iterations {
				c := &stkr.Classifier{Regressor: *g.Base.Clone()}
				if g.Lap() {
					c.Transform = stkr.InverseLaplacian{Eta: eta}
				}
				c.Beta, c.Iterations = beta, it
				out = append(out, c)
			}
		}
	}
	return out
}

// STKRCVRun is the outcome of RunSTKRCV.
type STKRCVRun struct {
	STKRCVChoice
	// Candidates are the candidates chosen from (one, the middle of the
	// grid, when FellBack) and Best is Candidates[Best], fitted on every
	// labelled node.
	Candidates []*stkr.Classifier
	Best       *stkr.Classifier
	// FellBack reports that no class had two labels, so nothing could be
	// held out and the middle of the grid was fitted.
	FellBack bool
}

// RunSTKRCV is the protocol without a split: ChooseSTKRCV over the grid's
// candidates, or, when no class has two labels (eval.ErrTooFewLabels),
// the middle of the grid (η 0.9, β 1 for the default grids) fitted on every
// labelled node. failed, when set, is called for each candidate whose
// solver failed on a fold.
func RunSTKRCV(ctx context.Context, task Task, cv eval.CV, g STKRGrid, failed func(c *stkr.Classifier, err error)) (STKRCVRun, error) {
	cands := g.Candidates()
	c, err := ChooseSTKRCV(ctx, task, cv, cands)
	run := STKRCVRun{}
	if errors.Is(err, eval.ErrTooFewLabels) && len(cands) > 1 {
		cands = cands[len(cands)/2 : len(cands)/2+1]
		run.FellBack = true
		c, err = ChooseSTKRCV(ctx, task, cv, cands)
	}
	run.STKRCVChoice, run.Candidates = c, cands
	for i, e := range c.Failed {
		if e != nil && failed != nil {
			failed(cands[i], e)
		}
	}
	if err != nil {
		return run, err
	}
	run.Best = cands[c.Best]
	return run, nil
}

// STKRBenchmark is the paper's protocol repeated over seeds: one split per
// seed, ChooseSTKRSplit on each.
type STKRBenchmark struct {
	Task    Task
	Setting Setting
	// PTest and Chunks are ChooseSTKRSplit's.
	PTest  float64
	Chunks bool
	Seeds  []uint64
	// Split returns seed's split, a description of its source and the
	// number of its nodes that were dropped (outside the graph used).
	Split func(seed uint64) (split eval.Split, source string, dropped int, err error)
	Grid  STKRGrid
	// Observers, each optional: the expected number of candidate fits
	// (once the first seed's chunks are known), the fits done, each failed
	// candidate and each chosen fit.
	Total  func(fits int)
	Done   func(fits int)
	Failed func(seed uint64, c *stkr.Classifier, err error)
	Chosen func(seed uint64, o STKROutcome, best *stkr.Classifier)
}

// STKRSeedRun is one seed of an STKRBenchmark.
type STKRSeedRun struct {
	Seed    uint64
	Source  string
	Dropped int
	STKRSplitRun
}

// RunSTKRBenchmark runs the benchmark's seeds in order. A seed whose split has
// no labelled test node to score is an error, as is a failed ChooseSTKRSplit
// (its runs so far are returned with it).
func RunSTKRBenchmark(ctx context.Context, b STKRBenchmark) ([]STKRSeedRun, error) {
	var out []STKRSeedRun
	n := b.Task.Graph.Nodes()
	ncand := len(b.Grid.Candidates())
	for k, seed := range b.Seeds {
		split, source, dropped, err := b.Split(seed)
		if err != nil {
			return out, err
		}
		if b.Chunks && k == 0 && b.Total != nil { // one fit per chunk: about this many per seed
			if parts, err := TestChunks(n, split, b.PTest, seed); err == nil {
				b.Total(len(b.Seeds) * len(parts) * ncand)
			}
		}
		run, err := ChooseSTKRSplit(ctx, b.Task, split, b.Setting, b.PTest, b.Chunks, seed, b.Grid.Candidates, b.Done)
		names := b.Grid.Candidates()
		for _, c := range run.Choices {
			for i, o := range c.Candidates {
				if o.Err != nil && b.Failed != nil {
					b.Failed(seed, names[i], o.Err)
				}
			}
		}
		sr := STKRSeedRun{Seed: seed, Source: source, Dropped: dropped, STKRSplitRun: run}
		if err != nil {
			out = append(out, sr)
			return out, fmt.Errorf("stkr: seed %d: %w", seed, err)
		}
		if b.Chosen != nil {
			for k, c := range run.Choices {
				b.Chosen(seed, c.Final, run.Chosen[k])
			}
		}
		if run.TestScored == 0 {
			return out, fmt.Errorf("stkr: seed %d: no labelled test node to score", seed)
		}
		out = append(out, sr)
	}
	return out, nil
}

// STKRSummary sums up an STKRBenchmark's runs: per fit (a seed, or a seed's chunk)
// the chosen hyperparameters, and the means over fits of the chosen fits'
// iterations, products and seconds; per seed the test and validation
// accuracy.
type STKRSummary struct {
	Fits, Candidates, Failed, NoEvidence, Dropped int
	// VisibleNodes and TestNodes are the last fit's and the last seed's.
	VisibleNodes, TestNodes int
	SolverDetail            string
	Source                  string
	// Eta (inverse Laplacian only), Beta and ChosenIterations per fit.
	Eta, Beta        []float64
	ChosenIterations []int
	// Means over the fits.
	Iterations, MatVecs, FitSeconds float64
	// Per seed.
	Seeds     []uint64
	Test, Val []float64
}

// SummarizeSTKR returns the STKRSummary of runs of a grid over lap's η (lap false:
// no η recorded).
func SummarizeSTKR(runs []STKRSeedRun, lap bool) STKRSummary {
	var s STKRSummary
	var iters, mvs, secs float64
	for _, r := range runs {
		s.Dropped += r.Dropped
		s.Source = r.Source
		for k, c := range r.Choices {
			s.Candidates += len(c.Candidates)
			for _, o := range c.Candidates {
				if o.Err != nil {
					s.Failed++
				}
			}
			o, best := c.Final, r.Chosen[k]
			s.VisibleNodes = c.Visible
			if l, ok := best.Transform.(stkr.InverseLaplacian); ok && lap {
				s.Eta = append(s.Eta, l.Eta)
			}
			s.Beta = append(s.Beta, best.Beta)
			s.ChosenIterations = append(s.ChosenIterations, best.Iterations)
			iters += float64(o.Stats.TotalIterations())
			mvs += float64(o.Stats.MatVecs)
			secs += o.Seconds
			s.Fits++
			s.NoEvidence += o.NoEvidence
			s.SolverDetail = o.Stats.Solver
		}
		s.Test = append(s.Test, float64(r.TestCorrect)/float64(r.TestScored))
		s.Val = append(s.Val, r.ValAccuracy)
		s.Seeds = append(s.Seeds, r.Seed)
		s.TestNodes = r.TestScored
	}
	if s.Fits > 0 {
		f := float64(s.Fits)
		s.Iterations, s.MatVecs, s.FitSeconds = iters/f, mvs/f, secs/f
	}
	return s
}

// Cells returns the best of the accuracies acc of the grid's candidates
// (in the order of Candidates) over the iteration counts of each cell:
// cells[i][j] for the i-th η (a single row when the transform has no η)
// and the j-th β, NaN where every count's accuracy is NaN (failed fits).
// It returns nil when acc does not hold one accuracy per candidate. The
// candidate k lies in the cell (k / (β·counts), (k / counts) mod β).
func (g STKRGrid) Cells(acc []float64) [][]float64 {
	rows, nb, nc := len(g.Etas), len(g.Betas), len(g.Iterations)
	if !g.Lap() {
		rows = 1
	}
	if len(acc) != rows*nb*nc {
		return nil
	}
	cells := make([][]float64, rows)
	for i := range cells {
		cells[i] = make([]float64, nb)
		for j := range cells[i] {
			best := math.NaN()
			for _, a := range acc[(i*nb+j)*nc : (i*nb+j+1)*nc] {
				if !math.IsNaN(a) && !(a <= best) {
					best = a
				}
			}
			cells[i][j] = best
		}
	}
	return cells
}

// stkrClassBlocks is how many n×c float64 blocks an STKR fit holds at
// once, counted generously (targets, solution, work blocks, predictions).
const stkrClassBlocks = 8

// Bound sets, for the inverse Laplacian, the memory bound (limit bytes)
// within which MINRES solves the classes in batches, and returns the bytes
// a fit on nodes × classes takes: the batched solve's, or the three blocks
// of scores after it when those are more; eight n×c blocks for the other
// transforms.
func (g *STKRGrid) Bound(nodes, classes int, limit int64) int64 {
	block := 8 * int64(nodes) * int64(max(classes, 1))
	if !g.Lap() {
		return stkrClassBlocks * block
	}
	g.Base.MaxMemory = limit
	return max(g.Base.InverseLaplacianBytes(nodes, max(classes, 1)), 3*block)
}
