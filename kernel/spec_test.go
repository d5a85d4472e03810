package kernel

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSpecRoundTrip(t *testing.T) {
	for _, k := range []Kernel{Gaussian{Sigma: 2}, Laplacian{Sigma: 0.5}, Matern{Nu: 2.5, Length: 3}, Linear{C: 1}, Polynomial{Degree: 3, Gamma: 0.5, Coef0: 1}} {
		s, err := SpecOf(k)
		require.NoError(t, err)
		got, err := s.Kernel()
		require.NoError(t, err)
		require.Equal(t, k, got)
	}
	_, err := Spec{Type: "sigmoid"}.Kernel()
	require.ErrorContains(t, err, `"sigmoid"`)
	_, err = Spec{Type: "gaussian", Sigma: -1}.Kernel()
	require.Error(t, err)
}
