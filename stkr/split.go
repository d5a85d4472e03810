package stkr

import (
	"context"
	"fmt"

	"github.com/gssl/gssl/eval"
)

// SplitRun is the outcome of ChooseSplit on one split.
type SplitRun struct {
	// Partitions are the partitions fitted: one, or one per test chunk.
	Partitions []Partition
	// Choices[k] is Choose's outcome on Partitions[k] and Chosen[k] its
	// chosen regressor (fitted; the refit in the Inductive setting).
	Choices []Choice
	Chosen  []*Classifier
	// TestCorrect and TestScored sum the right and the scored test
	// predictions over the partitions.
	TestCorrect, TestScored int
	// ValAccuracy is the mean over the partitions of the chosen
	// candidate's validation accuracy (NaN without validation nodes).
	ValAccuracy float64
}

// TestAccuracy is TestCorrect/TestScored.
func (r SplitRun) TestAccuracy() float64 {
	if r.TestScored == 0 {
		return 0
	}
	return float64(r.TestCorrect) / float64(r.TestScored)
}

// ChooseSplit runs the paper's protocol (Appendix D.1) on one
// train/val/test split of task's nodes: the split becomes a partition with
// round(pTest·N) test nodes drawn with seed (NewPartition; pTest 0 keeps
// the split's test set) or, with chunks, one partition per chunk of its
// test nodes (TestChunks), and Choose picks and scores a candidate on each.
// candidates returns fresh regressors for each partition; done, when set,
// is called after each partition with the number of candidates fitted.
// On an error the partitions done so far are returned with it (their
// Choices hold the failed candidates' errors).
func ChooseSplit(ctx context.Context, task Task, split eval.Split, setting Setting, pTest float64, chunks bool, seed uint64,
	candidates func() []*Classifier, done func(fits int)) (SplitRun, error) {
	var run SplitRun
	n := task.Graph.Nodes()
	var err error
	if chunks {
		run.Partitions, err = TestChunks(n, split, pTest, seed)
	} else {
		var p Partition
		p, err = NewPartition(n, split, pTest, seed)
		run.Partitions = []Partition{p}
	}
	if err != nil {
		return SplitRun{}, err
	}
	var val float64
	for k, part := range run.Partitions {
		cands := candidates()
		c, err := Choose(ctx, task, part, setting, cands)
		run.Choices = append(run.Choices, c)
		if done != nil {
			done(len(cands))
		}
		if err != nil {
			return run, fmt.Errorf("partition %d of %d: %w", k+1, len(run.Partitions), err)
		}
		run.Chosen = append(run.Chosen, cands[c.Best])
		run.TestCorrect += c.Final.TestCorrect
		run.TestScored += c.Final.TestScored
		val += c.Final.ValAccuracy
	}
	run.ValAccuracy = val / float64(len(run.Partitions))
	return run, nil
}
