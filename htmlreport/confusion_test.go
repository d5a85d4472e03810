package htmlreport

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The per-class accuracy is the diagonal over the row sum, by hand.
func TestConfusionTables(t *testing.T) {
	counts := [][]int{{3, 1, 0}, {0, 0, 0}, {2, 2, 4}}
	tables := ConfusionTables(counts, []string{"a", "b", "c"})
	require.Len(t, tables, 2)
	assert.Equal(t, [][]string{{"a", "4", "3", "0.7500"}, {"b", "0", "0", "–"}, {"c", "8", "4", "0.5000"}}, tables[0].Rows)
	assert.Equal(t, []string{"c", "2", "2", "4"}, tables[1].Rows[2])
	assert.Equal(t, []string{"true \\ predicted", "a", "b", "c"}, tables[1].Header)
}
