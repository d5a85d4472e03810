package imgp

import (
	"errors"
	"github.com/gssl/gssl/estimator"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/knngraph"
)

// A Spec's regressor has the fields written by hand; each invalid field
// is named.
func TestSpecRegressor(t *testing.T) {
	s := Spec{K: 8, Nu: 2, Eigenpairs: 20, LearningRate: 0.05, Probes: 2, Distance: "mean", Procedure: "paper", Approximate: true}
	r, err := s.Regressor(7)
	require.NoError(t, err)
	want := &Regressor{K: 8, Nu: 2, Eigenpairs: 20, Iterations: -1, LearningRate: 0.05, Probes: 2, Distance: MeanNeighbour,
		Procedure: ProcedurePaper, Seed: 7, Approximate: &knngraph.Descent{Seed: 7}}
	assert.Equal(t, want, r)
	require.NoError(t, r.Validate())
	for field, edit := range map[string]func(*Spec){
		"K": func(s *Spec) { s.K = 0 }, "Nu": func(s *Spec) { s.Nu = 0 }, "Eigenpairs": func(s *Spec) { s.Eigenpairs = -1 },
		"MaxIter": func(s *Spec) { s.MaxIter = -1 }, "LearningRate": func(s *Spec) { s.LearningRate = 0 },
		"Probes": func(s *Spec) { s.Probes = 0 }, "Distance": func(s *Spec) { s.Distance = "far" }, "Procedure": func(s *Spec) { s.Procedure = "x" },
	} {
		bad := s
		edit(&bad)
		var se *estimator.FieldError
		require.True(t, errors.As(bad.Validate(), &se), field)
		assert.Equal(t, field, se.Field)
	}
}
