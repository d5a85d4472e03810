package spectral

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
)

func TestEigsSpecParse(t *testing.T) {
	kind, opts, s, err := EigsSpec{Eigenpairs: 5, Laplacian: "rw", Tol: 1e-9, BlockSize: 2, BasisSize: 30, FilterDegree: 7, Method: "block", Isolated: "zero"}.Parse()
	require.NoError(t, err)
	assert.Equal(t, laplacian.RandomWalk, kind)
	assert.Equal(t, laplacian.Options{Isolated: laplacian.IsolatedZero}, opts)
	assert.Equal(t, Settings{Tol: 1e-9, BlockSize: 2, BasisSize: 30, FilterDegree: 7, Method: Block}, s)
	require.NoError(t, s.Validate())
}

func TestEigsSpecNamesTheField(t *testing.T) {
	ok := EigsSpec{Eigenpairs: 3, Laplacian: "sym", Method: "auto", Isolated: "component"}
	require.NoError(t, ok.Validate())
	require.NoError(t, ok.ValidateFor(3))
	for _, c := range []struct {
		edit  func(*EigsSpec)
		n     int // > 0: ValidateFor(n)
		field string
	}{
		{func(s *EigsSpec) { s.Eigenpairs = 0 }, 0, "Eigenpairs"},
		{func(s *EigsSpec) { s.BlockSize = -1 }, 0, "BlockSize"},
		{func(s *EigsSpec) { s.BasisSize = -1 }, 0, "BasisSize"},
		{func(s *EigsSpec) { s.FilterDegree = -1 }, 0, "FilterDegree"},
		{func(s *EigsSpec) { s.Tol = 1 }, 0, "Tol"},
		{func(s *EigsSpec) { s.Laplacian = "adj" }, 0, "Laplacian"},
		{func(s *EigsSpec) { s.Laplacian = "lap" }, 0, "Laplacian"},
		{func(s *EigsSpec) { s.Isolated = "maybe" }, 0, "Isolated"},
		{func(s *EigsSpec) { s.Method = "arnoldi" }, 0, "Method"},
		{func(s *EigsSpec) { s.Eigenpairs = 4 }, 3, "Eigenpairs"},
		{func(s *EigsSpec) { s.BasisSize = 4 }, 3, "BasisSize"},
		{func(s *EigsSpec) { s.BlockSize = 4 }, 3, "BlockSize"},
		{func(s *EigsSpec) { s.BlockSize, s.BasisSize = 3, 2 }, 3, "BlockSize"},
	} {
		s := ok
		c.edit(&s)
		err := s.Validate()
		if c.n > 0 {
			require.NoError(t, err, "%+v", s)
			err = s.ValidateFor(c.n)
		}
		var fe *estimator.FieldError
		require.True(t, errors.As(err, &fe), "%+v: %v", s, err)
		assert.Equal(t, c.field, fe.Field, "%+v", s)
	}
}
