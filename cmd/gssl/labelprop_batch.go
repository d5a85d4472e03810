package main

import (
	"fmt"

	"github.com/gssl/gssl/labelprop"
)

// limitClassBatches gives a label spreading model the --max-memory bound:
// its block CG solve then runs the classes in batches when all of them at
// once would pass it (labelprop.Spreading.MaxMemory), and its MemoryBytes,
// which checkClassMemory compares with the bound, counts the batches.
func limitClassBatches(m labelprop.Classifier, maxMemory string) error {
	sp, ok := m.(*labelprop.Spreading)
	if !ok {
		return nil
	}
	limit, err := parseBytes("max-memory", maxMemory)
	if err != nil {
		return fmt.Errorf("labelprop: %w", err)
	}
	sp.MaxMemory = limit
	return nil
}
