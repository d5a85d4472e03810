package spectral

import (
	"fmt"

	"github.com/gssl/gssl/laplacian"
)

// MaxKMeansRestarts bounds ClusteringSpec.Restarts: each restart is a
// whole k-means run, and a count from a typo such as 10⁹ would not end.
const MaxKMeansRestarts = 100000

// ClusteringSpec describes a SpectralClustering by names and numbers, as a
// command line, a configuration file or another front end gives it;
// Model builds it for a graph.
type ClusteringSpec struct {
	Clusters int     `json:"clusters"` // k in [1, nodes]; 0 until the caller fills it in (gssl cluster takes the number of classes)
	Restarts int     `json:"restarts"` // k-means++ restarts in [1, MaxKMeansRestarts]
	Tol      float64 `json:"tol"`      // the eigensolver's, in (0, 1), or 0 for DefaultClusteringTol
	Isolated string  `json:"isolated"` // laplacian.ParseIsolated's names
}

// Validate reports the first field outside its valid range (that does not
// depend on the graph) as an *estimator.FieldError.
func (s ClusteringSpec) Validate() error {
	_, err := s.check()
	return err
}

func (s ClusteringSpec) check() (laplacian.IsolatedPolicy, error) {
	switch {
	case s.Clusters < 0:
		return 0, specError("Clusters", s.Clusters, "it must be ≥ 1")
	case s.Restarts < 1 || s.Restarts > MaxKMeansRestarts:
		return 0, specError("Restarts", s.Restarts, fmt.Sprintf("it must be in [1, %d] (k-means++ restarts)", MaxKMeansRestarts))
	}
	return checkTolIsolated(s.Tol, s.Isolated)
}

// Model returns the clustering s describes for a graph of n nodes (set
// its Eigen.Progress as needed), seeded by seed, or the first invalid
// field as an *estimator.FieldError.
func (s ClusteringSpec) Model(n int, seed uint64) (*SpectralClustering, error) {
	iso, err := s.check()
	if err != nil {
		return nil, err
	}
	if s.Clusters < 1 || s.Clusters > n {
		return nil, specError("Clusters", s.Clusters, fmt.Sprintf("it must be in [1, %d] (the number of nodes)", n))
	}
	return &SpectralClustering{Clusters: s.Clusters, Isolated: iso, Eigen: Settings{Tol: s.Tol, Seed: seed},
		KMeans: KMeansSettings{Restarts: s.Restarts, Seed: seed}}, nil
}

// EigenmapSpec describes a LaplacianEigenmap by names and numbers; Model
// builds it for a graph.
type EigenmapSpec struct {
	Dim      int     `json:"dim"`      // coordinates in [1, nodes − 1] (the trivial eigenvector is dropped)
	Tol      float64 `json:"tol"`      // the eigensolver's, in (0, 1), or 0 for DefaultTol
	Isolated string  `json:"isolated"` // laplacian.ParseIsolated's names
}

// Validate reports the first field outside its valid range (that does not
// depend on the graph) as an *estimator.FieldError.
func (s EigenmapSpec) Validate() error {
	if s.Dim < 1 {
		return specError("Dim", s.Dim, "it must be ≥ 1")
	}
	_, err := checkTolIsolated(s.Tol, s.Isolated)
	return err
}

// Model returns the eigenmap s describes for a graph of n nodes (set its
// Eigen.Progress as needed), seeded by seed, or the first invalid field as
// an *estimator.FieldError.
func (s EigenmapSpec) Model(n int, seed uint64) (*LaplacianEigenmap, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.Dim >= n {
		return nil, specError("Dim", s.Dim, fmt.Sprintf("it must be in [1, %d) for %d nodes (the trivial eigenvector is dropped)", n, n))
	}
	iso, _ := laplacian.ParseIsolated(s.Isolated) // checked
	return &LaplacianEigenmap{Dim: s.Dim, Isolated: iso, Eigen: Settings{Tol: s.Tol, Seed: seed}}, nil
}

// checkTolIsolated checks the Tol and Isolated fields the specs share.
func checkTolIsolated(tol float64, isolated string) (laplacian.IsolatedPolicy, error) {
	if tol != 0 && !(tol > 0 && tol < 1) {
		return 0, specError("Tol", tol, "it must be in (0, 1), or 0 for the default")
	}
	iso, err := laplacian.ParseIsolated(isolated)
	if err != nil {
		return 0, specError("Isolated", isolated, "use component (an isolated node is its own component, eigenvalue 0), error, or zero (D^-1/2 := 0)")
	}
	return iso, nil
}
