package spectral

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
)

// Summarize counts one zero eigenvalue per component, measures
// orthogonality in the D inner product for L_rw, and refuses a
// non-finite pair.
func TestSummarize(t *testing.T) {
	// Two triangles: two components, eigenvalues 0, 0 then 1.5 (L_rw of a
	// triangle: 0, 1.5, 1.5).
	g, err := graph.FromEdges(6, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 0, W: 1}, {U: 3, V: 4, W: 2}, {U: 4, V: 5, W: 2}, {U: 5, V: 3, W: 2}}, graph.Options{})
	require.NoError(t, err)
	r, err := LaplacianEigs(context.Background(), g, laplacian.RandomWalk, laplacian.Options{}, 3, Settings{})
	require.NoError(t, err)
	s, err := Summarize(r, laplacian.RandomWalk, g)
	require.NoError(t, err)
	assert.Equal(t, 2, s.ZeroFound)
	assert.InDelta(t, 1.5, s.Eigenvalues[2], 1e-10)
	assert.Equal(t, r.Orthogonality(g.Degrees()), s.Orthogonality)
	assert.Equal(t, r.MaxResidual(), s.MaxResidual)
	r.Values[1] = math.Inf(1)
	_, err = Summarize(r, laplacian.RandomWalk, g)
	assert.ErrorContains(t, err, "eigenvalue 1 is +Inf")
}

func TestParseMethod(t *testing.T) {
	for s, want := range map[string]Method{"": Auto, "auto": Auto, "block": Block, "single": SingleVector, "single-vector": SingleVector} {
		m, err := ParseMethod(s)
		require.NoError(t, err)
		assert.Equal(t, want, m)
		if s != "" && s != "single" {
			assert.Equal(t, s, m.String())
		}
	}
	_, err := ParseMethod("lobpcg")
	assert.ErrorContains(t, err, `"lobpcg"`)
}
