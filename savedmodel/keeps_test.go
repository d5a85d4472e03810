package savedmodel

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/stkr"
)

// The models that predict new nodes from their edges keep the points of
// their KNN graph; those that read a point's features do not.
func TestKeepsPoints(t *testing.T) {
	for _, m := range []Model{new(labelprop.Spreading), new(labelprop.Harmonic), new(stkr.Regressor), new(stkr.Classifier)} {
		assert.True(t, KeepsPoints(m), "%T", m)
	}
	for _, m := range []Model{new(gp.Regressor), new(nodeclass.SGC)} {
		assert.False(t, KeepsPoints(m), "%T", m)
	}
}
