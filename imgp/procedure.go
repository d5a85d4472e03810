package imgp

import "fmt"

// Procedure is how Regressor.Fit chooses the hyperparameters that
// predictions use.
type Procedure int

const (
	// ProcedureRefit trains α, κ, s and σ_ε² on the GMRF likelihood as the
	// paper does, then re-maximises κ, s and σ_ε² on the exact likelihood
	// of the rank-L model that predictions use (doc.go, "Rank-L refit").
	// With few labels it predicts better than the paper's procedure and
	// than the Euclidean GP (BENCHMARKS.md, Gaussian processes); it is the
	// default.
	ProcedureRefit Procedure = iota
	// ProcedurePaper keeps the hyperparameters of the full-rank GMRF
	// likelihood (Fichera et al. 2023: the paper's procedure).
	ProcedurePaper
)

// String returns "refit" or "paper".
func (p Procedure) String() string {
	switch p {
	case ProcedureRefit:
		return "refit"
	case ProcedurePaper:
		return "paper"
	}
	return fmt.Sprintf("Procedure(%d)", int(p))
}

// ParseProcedure maps "refit" and "paper" to their Procedure.
func ParseProcedure(s string) (Procedure, error) {
	switch s {
	case "refit":
		return ProcedureRefit, nil
	case "paper":
		return ProcedurePaper, nil
	}
	return 0, fmt.Errorf("imgp: procedure %q is invalid: want refit or paper", s)
}
