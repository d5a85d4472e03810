package spectral

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
)

func TestClusteringSpecModel(t *testing.T) {
	c, err := ClusteringSpec{Clusters: 3, Restarts: 5, Tol: 1e-8, Isolated: "zero"}.Model(10, 7)
	require.NoError(t, err)
	want := &SpectralClustering{Clusters: 3, Isolated: laplacian.IsolatedZero, Eigen: Settings{Tol: 1e-8, Seed: 7}, KMeans: KMeansSettings{Restarts: 5, Seed: 7}}
	assert.Equal(t, want, c)
	require.NoError(t, c.Validate())
}

func TestEigenmapSpecModel(t *testing.T) {
	e, err := EigenmapSpec{Dim: 2, Isolated: "component"}.Model(3, 4)
	require.NoError(t, err)
	assert.Equal(t, &LaplacianEigenmap{Dim: 2, Isolated: laplacian.IsolatedComponent, Eigen: Settings{Seed: 4}}, e)
}

func TestClusteringAndEigenmapSpecsNameTheField(t *testing.T) {
	okC := ClusteringSpec{Clusters: 2, Restarts: 1, Isolated: "component"}
	okE := EigenmapSpec{Dim: 2, Isolated: "error"}
	for _, c := range []struct {
		err   func() error
		field string
	}{
		{func() error { s := okC; s.Clusters = -1; return s.Validate() }, "Clusters"},
		{func() error { s := okC; s.Restarts = 0; return s.Validate() }, "Restarts"},
		{func() error { s := okC; s.Restarts = MaxKMeansRestarts + 1; return s.Validate() }, "Restarts"},
		{func() error { s := okC; s.Tol = 2; return s.Validate() }, "Tol"},
		{func() error { s := okC; s.Isolated = "drop"; return s.Validate() }, "Isolated"},
		{func() error { _, err := okC.Model(1, 0); return err }, "Clusters"},
		{func() error { s := okC; s.Clusters = 0; _, err := s.Model(5, 0); return err }, "Clusters"},
		{func() error { s := okE; s.Dim = 0; return s.Validate() }, "Dim"},
		{func() error { s := okE; s.Tol = -1; return s.Validate() }, "Tol"},
		{func() error { s := okE; s.Isolated = ""; return s.Validate() }, "Isolated"},
		{func() error { _, err := okE.Model(2, 0); return err }, "Dim"},
	} {
		var fe *estimator.FieldError
		err := c.err()
		require.True(t, errors.As(err, &fe), "%v", err)
		assert.Equal(t, c.field, fe.Field, "%v", err)
	}
	require.NoError(t, okC.Validate())
	require.NoError(t, okE.Validate())
}
