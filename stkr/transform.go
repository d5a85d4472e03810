package stkr

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Transform is a spectral transformation s of the base kernel. The
// implementations are Polynomial (including plain KRR, s(λ) = λ),
// InverseLaplacian and TopD (kernel PCA).
type Transform interface {
	// Validate checks the transform against a bound r on the spectral radius
	// of M and says which parameter is out of range.
	Validate(r float64) error
	String() string
}

// Spectral is a transform given by a scalar function s(λ) on the spectrum of
// M (Polynomial and InverseLaplacian; TopD is data dependent).
type Spectral interface {
	Transform
	Eval(lambda float64) float64
}

// Polynomial is s(λ) = Σ_{p=1}^{q} π_p λ^p with Coeffs[p−1] = π_p. There is
// no constant term (the paper's Assumption 1). It is fitted by Algorithm 1
// of the STKR paper (or a Krylov method on the same n×n system) with
// q products with M per application.
type Polynomial struct {
	Coeffs []float64
}

// Power returns s(λ) = λ^p, the p-step transform (the paper's λ^8 is
// Power(8)).
func Power(p int) Polynomial {
	if p < 1 {
		return Polynomial{} // rejected by Validate
	}
	c := make([]float64, p)
	c[p-1] = 1
	return Polynomial{Coeffs: c}
}

// KRR returns s(λ) = λ: kernel ridge regression with the base kernel, the
// paper's baseline.
func KRR() Polynomial { return Polynomial{Coeffs: []float64{1}} }

// Degree returns q, the largest p with π_p ≠ 0 (0 when there is none).
func (t Polynomial) Degree() int {
	for p := len(t.Coeffs); p > 0; p-- {
		if t.Coeffs[p-1] != 0 {
			return p
		}
	}
	return 0
}

// Validate rejects a polynomial with no non-zero term or a non-finite
// coefficient.
func (t Polynomial) Validate(r float64) error {
	for p, c := range t.Coeffs {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("stkr: polynomial transform: coefficient π_%d = %v is not finite", p+1, c)
		}
	}
	if t.Degree() == 0 {
		return fmt.Errorf("stkr: polynomial transform has no terms: give at least one non-zero coefficient π_p, p ≥ 1")
	}
	return nil
}

// Eval returns s(λ).
func (t Polynomial) Eval(lambda float64) float64 {
	var s float64
	for p := t.Degree(); p >= 1; p-- {
		s = s*lambda + t.Coeffs[p-1]
	}
	return s * lambda
}

// maxAbs bounds |s(λ)| on [−r, r] by Σ |π_p| r^p.
func (t Polynomial) maxAbs(r float64) float64 {
	var s, rp float64 = 0, 1
	for _, c := range t.Coeffs[:t.Degree()] {
		rp *= r
		s += math.Abs(c) * rp
	}
	return s
}

// nonNegative reports whether s(λ) ≥ 0 for every real λ is guaranteed term by
// term: only even powers, with non-negative coefficients. The n×n system
// is then SPD and CG applies.
func (t Polynomial) nonNegative() bool {
	for p, c := range t.Coeffs[:t.Degree()] {
		if c < 0 || (c != 0 && (p+1)%2 == 1) {
			return false
		}
	}
	return true
}

// String returns "krr", "poly:P" for a single power, or the coefficients.
func (t Polynomial) String() string {
	q := t.Degree()
	if q == 0 {
		return "poly:none"
	}
	single := t.Coeffs[q-1] == 1
	for _, c := range t.Coeffs[:q-1] {
		single = single && c == 0
	}
	switch {
	case single && q == 1:
		return "krr"
	case single:
		return "poly:" + strconv.Itoa(q)
	}
	parts := make([]string, q)
	for i, c := range t.Coeffs[:q] {
		parts[i] = strconv.FormatFloat(c, 'g', -1, 64)
	}
	return "poly[" + strings.Join(parts, ",") + "]"
}

// InverseLaplacian is s(λ) = λ/(1 − ηλ) = Σ_{p≥1} η^{p−1} λ^p (the paper's
// Example 1), for 0 < η < 1/λ_max(M). It is fitted through the sparse
// N×N system for θ = (I − ηM)^{-1}[α; 0] (ALGORITHMS.md §4).
type InverseLaplacian struct {
	Eta float64
}

// Validate requires 0 < η < 1/r.
func (t InverseLaplacian) Validate(r float64) error {
	if !(t.Eta > 0 && t.Eta*r < 1) || math.IsInf(t.Eta, 0) {
		return fmt.Errorf("stkr: inverse Laplacian: eta=%v is invalid: it must be inside the open interval (0, 1/λ_max) = (0, %g)", t.Eta, 1/r)
	}
	return nil
}

// Eval returns λ/(1 − ηλ).
func (t InverseLaplacian) Eval(lambda float64) float64 { return lambda / (1 - t.Eta*lambda) }

// String returns "inverse-laplacian(eta=…)".
func (t InverseLaplacian) String() string {
	return "inverse-laplacian(eta=" + strconv.FormatFloat(t.Eta, 'g', -1, 64) + ")"
}

// TopD is kernel PCA with a linear probe (the paper's eq. 9, "SP-topd"): the
// top-D eigenvectors u_k of M (eigenvalues λ_k > 0) give the features
// ψ_k(x) = k(x)ᵀu_k / (√N λ_k), which equal √N·u_k(i) on a visible node i,
// and a ridge regression on the labelled nodes fits the weights.
type TopD struct {
	D int
}

// Validate requires D ≥ 1; D ≤ N is checked at Fit.
func (t TopD) Validate(r float64) error {
	if t.D < 1 {
		return fmt.Errorf("stkr: kernel PCA: d=%d is invalid: it must be at least 1", t.D)
	}
	return nil
}

// String returns "topd:D".
func (t TopD) String() string { return "topd:" + strconv.Itoa(t.D) }

// ParseTransform reads the CLI spelling of a transform: "inverse-laplacian"
// (η given separately, here set to eta), "poly:P" (s = λ^P), "krr"
// (s = λ) or "topd:D".
func ParseTransform(s string, eta float64) (Transform, error) {
	name, arg, hasArg := strings.Cut(s, ":")
	num := func(what string) (int, error) {
		if !hasArg {
			return 0, fmt.Errorf("stkr: transform %q needs %s after a colon, e.g. %s:8", s, what, name)
		}
		v, err := strconv.Atoi(arg)
		if err != nil || v < 1 {
			return 0, fmt.Errorf("stkr: transform %q: %s must be a positive integer", s, what)
		}
		return v, nil
	}
	switch name {
	case "inverse-laplacian", "lap":
		if hasArg {
			return nil, fmt.Errorf("stkr: transform %q takes no argument; give η with --eta", s)
		}
		return InverseLaplacian{Eta: eta}, nil
	case "poly":
		p, err := num("the power p")
		if err != nil {
			return nil, err
		}
		return Power(p), nil
	case "krr":
		if hasArg {
			return nil, fmt.Errorf("stkr: transform %q takes no argument", s)
		}
		return KRR(), nil
	case "topd":
		d, err := num("the dimension d")
		if err != nil {
			return nil, err
		}
		return TopD{D: d}, nil
	}
	return nil, fmt.Errorf("stkr: unknown transform %q: want inverse-laplacian, poly:P, krr or topd:D", s)
}
