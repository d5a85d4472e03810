package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gssl/gssl/htmlreport"
	"github.com/gssl/gssl/protocol"
)

// TestRunFactsAreTyped: the report's seeds and timings come from the
// results' fields, not from their JSON key names: a count of seeds is not
// a seed, timings whose keys do not end in "seconds" are listed, and a
// result that states nothing ran deterministically.
func TestRunFactsAreTyped(t *testing.T) {
	seeds, _ := runFacts(labelpropResult{protocol.LabelPropRunReport{LabelPropReport: protocol.LabelPropReport{FirstSeed: 7, Seeds: 3, NIsolatedSeeds: 2}}})
	assert.Equal(t, "first_seed = 7 (3 splits: seeds 7..9)", seeds)
	seeds, _ = runFacts(classifyResult{protocol.NodeClassRunReport{Seeds: 2, NodeClassReport: protocol.NodeClassReport{Runs: []protocol.NodeClassRun{{Seed: 4}, {Seed: 5}}}}})
	assert.Equal(t, "seeds = [4 5]", seeds)
	seeds, timings := runFacts(imgpResult{IMGPReport: protocol.IMGPReport{Seed: 3, SecondsLML: 1.5}, Seconds: 2})
	assert.Equal(t, "seed = 3", seeds)
	assert.Contains(t, timings, htmlreport.Timing{Name: "seconds_likelihood", Seconds: 1.5})
	assert.Contains(t, timings, htmlreport.Timing{Name: "seconds", Seconds: 2})
	seeds, _ = runFacts(graphKernelResult{protocol.GraphKernelRunReport{GraphKernelReport: protocol.GraphKernelReport{Seed: 5, Repeats: 2}}})
	assert.Contains(t, seeds, "seeds 5..6")
	seeds, timings = runFacts(struct{ Seed int }{Seed: 9})
	assert.Equal(t, "none (the run is deterministic)", seeds)
	assert.Empty(t, timings)
}
