package eval

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScoreClusters(t *testing.T) {
	clusters := []int{0, 0, 1, 1, 2, 2}
	s := ScoreClusters(clusters, []int{0, 0, 1, 1, -1, -1}, 3)
	assert.Equal(t, []int{2, 2, 2}, s.Sizes)
	assert.Equal(t, 4, s.Scored)
	assert.Equal(t, 1.0, s.ARI, "the labelled nodes' clusters are their classes")
	none := ScoreClusters(clusters, []int{-1, -1, -1, -1, -1, -1}, 3)
	assert.Zero(t, none.Scored)
	assert.True(t, math.IsNaN(none.ARI))
}
