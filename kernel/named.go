package kernel

import (
	"errors"
	"fmt"
	"strings"
)

// ErrUnknownName is the cause of Named's error for a name it does not know.
var ErrUnknownName = errors.New("it must be gaussian, laplacian, matern12, matern32 or matern52")

// Named returns the stationary kernel of one width that name spells
// (case-insensitive): gaussian or laplacian with σ = width, or the Matérn
// kernel of ν = 1/2, 3/2 or 5/2 (matern12, matern32, matern52) with length
// scale ℓ = width. The kernel is validated.
func Named(name string, width float64) (Kernel, error) {
	var k Kernel
	switch strings.ToLower(name) {
	case "gaussian":
		k = Gaussian{Sigma: width}
	case "laplacian":
		k = Laplacian{Sigma: width}
	case "matern12":
		k = Matern{Nu: 0.5, Length: width}
	case "matern32":
		k = Matern{Nu: 1.5, Length: width}
	case "matern52":
		k = Matern{Nu: 2.5, Length: width}
	default:
		return nil, fmt.Errorf("kernel: %q is invalid: %w", name, ErrUnknownName)
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	return k, nil
}
