package kernel

import "fmt"

// Spec is a kernel by type and parameters, the form in which saved models
// (package modelfile's JSON metadata) store the kernel they were fitted with.
type Spec struct {
	Type   string  `json:"type"`
	Sigma  float64 `json:"sigma,omitempty"`
	Nu     float64 `json:"nu,omitempty"`
	Length float64 `json:"length,omitempty"`
	C      float64 `json:"c,omitempty"`
	Degree int     `json:"degree,omitempty"`
	Gamma  float64 `json:"gamma,omitempty"`
	Coef0  float64 `json:"coef0,omitempty"`
}

// SpecOf returns the spec of k, or an error for a kernel type that has none
// (the kernels of this package have one).
func SpecOf(k Kernel) (Spec, error) {
	switch k := k.(type) {
	case Gaussian:
		return Spec{Type: "gaussian", Sigma: k.Sigma}, nil
	case Laplacian:
		return Spec{Type: "laplacian", Sigma: k.Sigma}, nil
	case Matern:
		return Spec{Type: "matern", Nu: k.Nu, Length: k.Length}, nil
	case Linear:
		return Spec{Type: "linear", C: k.C}, nil
	case Polynomial:
		return Spec{Type: "polynomial", Degree: k.Degree, Gamma: k.Gamma, Coef0: k.Coef0}, nil
	}
	return Spec{}, fmt.Errorf("kernel %T cannot be saved (gaussian, laplacian, matern, linear and polynomial can)", k)
}

// Kernel returns the kernel s describes, validated.
func (s Spec) Kernel() (Kernel, error) {
	var k Kernel
	switch s.Type {
	case "gaussian":
		k = Gaussian{Sigma: s.Sigma}
	case "laplacian":
		k = Laplacian{Sigma: s.Sigma}
	case "matern":
		k = Matern{Nu: s.Nu, Length: s.Length}
	case "linear":
		k = Linear{C: s.C}
	case "polynomial":
		k = Polynomial{Degree: s.Degree, Gamma: s.Gamma, Coef0: s.Coef0}
	default:
		return nil, fmt.Errorf("kernel %q is not one this gssl knows", s.Type)
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	return k, nil
}
