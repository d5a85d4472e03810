package protocol

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

// TestPrepareHugeClassCount: a class count taken from a label such as
// 2147483647 used to size the train × Classes targets.
func TestPrepareHugeClassCount(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}}, graph.Options{})
	require.NoError(t, err)
	labels := []int{0, 1, 0, 1_000_000}
	part := Partition{Train: []int{0, 1, 3}, Test: []int{2}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = PrepareSTKR(Task{Graph: g, Labels: labels, Classes: 1_000_001}, part, Transductive)
	runtime.ReadMemStats(&after)
	require.ErrorContains(t, err, "at most half the classes may have no training node")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20))
}
