package spectral

import (
	"fmt"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
)

// EigsSpec describes a LaplacianEigs call by names and numbers, as a
// command line, a configuration file or another front end gives it:
// the Eigenpairs smallest eigenpairs of the Laplacian named Laplacian.
// Parse checks it and returns LaplacianEigs's arguments.
type EigsSpec struct {
	Eigenpairs   int     `json:"eigenpairs" flag:"eigenpairs"`       // k ≥ 1 (and at most the nodes, ValidateFor)
	Laplacian    string  `json:"laplacian" flag:"laplacian"`         // sym, rw or un (laplacian.ParseKind's names, not adj)
	Tol          float64 `json:"tol" flag:"tol"`                     // in (0, 1), or 0 for DefaultTol
	BlockSize    int     `json:"block" flag:"block"`                 // ≥ 0, 0 automatic (Settings.BlockSize)
	BasisSize    int     `json:"basis" flag:"basis"`                 // ≥ 0, 0 automatic (Settings.BasisSize)
	FilterDegree int     `json:"filter_degree" flag:"filter-degree"` // ≥ 0, 0 automatic (Settings.FilterDegree)
	Method       string  `json:"method" flag:"method"`               // ParseMethod's names
	Isolated     string  `json:"isolated" flag:"isolated"`           // laplacian.ParseIsolated's names
}

func specError(field string, v any, reason string) error {
	return &estimator.FieldError{Package: "spectral", Field: field, Value: v, Reason: reason}
}

// Validate reports the first field outside its valid range (that does
// not depend on the graph) as an *estimator.FieldError.
func (s EigsSpec) Validate() error {
	_, _, _, err := s.Parse()
	return err
}

// Parse returns the Laplacian, its options and the eigensolver's
// settings (set Seed and Progress on them) s describes, or the first
// invalid field as an *estimator.FieldError.
func (s EigsSpec) Parse() (laplacian.Kind, laplacian.Options, Settings, error) {
	var none Settings
	if s.Eigenpairs < 1 {
		return 0, laplacian.Options{}, none, specError("Eigenpairs", s.Eigenpairs, "it must be ≥ 1")
	}
	for _, v := range []struct {
		field string
		v     int
	}{{"BlockSize", s.BlockSize}, {"BasisSize", s.BasisSize}, {"FilterDegree", s.FilterDegree}} {
		if v.v < 0 {
			return 0, laplacian.Options{}, none, specError(v.field, v.v, "it must be ≥ 0 (0: automatic)")
		}
	}
	iso, err := checkTolIsolated(s.Tol, s.Isolated)
	if err != nil {
		return 0, laplacian.Options{}, none, err
	}
	kind, err := laplacian.ParseKind(s.Laplacian)
	if err != nil || kind == laplacian.NormalizedAdjacency {
		return 0, laplacian.Options{}, none, specError("Laplacian", s.Laplacian, "use sym, rw or un")
	}
	method, err := ParseMethod(s.Method)
	if err != nil {
		return 0, laplacian.Options{}, none, specError("Method", s.Method, "use auto, block, single or subspace")
	}
	return kind, laplacian.Options{Isolated: iso}, Settings{Tol: s.Tol, BlockSize: s.BlockSize, BasisSize: s.BasisSize, FilterDegree: s.FilterDegree, Method: method}, nil
}

// ValidateFor reports, for a graph of n nodes, an Eigenpairs, BasisSize or
// BlockSize beyond the graph, or a BlockSize larger than the BasisSize, as
// an *estimator.FieldError.
func (s EigsSpec) ValidateFor(n int) error {
	if s.Eigenpairs > n {
		return specError("Eigenpairs", s.Eigenpairs, fmt.Sprintf("it must be in [1, %d] (the number of nodes)", n))
	}
	for _, v := range []struct {
		field string
		v     int
	}{{"BasisSize", s.BasisSize}, {"BlockSize", s.BlockSize}} {
		if v.v > n {
			return specError(v.field, v.v, fmt.Sprintf("it must be in [0, %d] (the number of nodes; 0: automatic)", n))
		}
	}
	if s.BlockSize > 0 && s.BasisSize > 0 && s.BlockSize > s.BasisSize {
		return specError("BlockSize", s.BlockSize, fmt.Sprintf("it must be at most the basis size %d", s.BasisSize))
	}
	return nil
}

// BasisVectors bounds the dense vectors of n entries the eigensolver
// holds (its Krylov basis and the blocks around it): the solve needs
// about 8·n·BasisVectors bytes.
func (s EigsSpec) BasisVectors() int64 {
	return int64(max(s.BasisSize, 2*s.Eigenpairs, 24)) + 2*int64(max(s.BlockSize, 4))
}
