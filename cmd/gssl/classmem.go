package main

import (
	"fmt"

	"github.com/gssl/gssl/loaders"
)

// stkrClassBlocks is how many n×c float64 blocks an STKR fit of c classes
// holds at once, counted generously: the one-hot targets, the solution, the
// solver's work blocks and the predictions.
const stkrClassBlocks = 8

// classifyClassBlocks is the same count for gssl classify's models (the
// propagated scores, the probabilities and the corrections of each fold).
const classifyClassBlocks = 8

// checkClassMemory refuses, before any dense block is allocated, a fit
// whose n×c blocks (n nodes, c classes: the labels' distinct values) pass
// --max-memory. need is the fit's estimate in bytes. The message names the
// classes × nodes product and, when nearly every labelled node has a class
// of its own, says that the label column looks like ids.
func checkClassMemory(cmd, maxMemory string, ds *loaders.NodeDataset, need int64) error {
	limit, err := parseBytes("max-memory", maxMemory)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	if need <= limit {
		return nil
	}
	n, c := ds.Graph.Nodes(), ds.Classes
	labelled := 0
	for _, l := range ds.Labels {
		if l >= 0 {
			labelled++
		}
	}
	hint := "fewer classes (merge rare ones), or a machine with more memory"
	if c > 100 && 2*c > labelled {
		hint = fmt.Sprintf("%d distinct labels for %d labelled nodes: is the label column of --labels an id rather than a class?", c, labelled)
	}
	return fmt.Errorf("%s: %d classes × %d nodes: the dense score blocks take %s, %w --max-memory %s; %s (or raise --max-memory)",
		cmd, c, n, formatBytes(need), errTooMuchMemory, formatBytes(limit), hint)
}
