package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
)

// SpectralClustering partitions the nodes of a graph into Clusters groups by
// the algorithm of Ng, Jordan & Weiss (NIPS 2001): the k eigenvectors of
// S = D^{-1/2} W D^{-1/2} for its largest eigenvalues (the smallest of L_sym)
// form U (n×k); each row of U is scaled to unit length; k-means with
// k-means++ seeds and several restarts clusters the rows.
type SpectralClustering struct {
	// Clusters is the number of clusters k; it must lie in [1, n] (it has
	// no default: the number of groups is the question asked).
	Clusters int
	// Isolated says what to do with nodes of degree zero: the zero value,
	// laplacian.IsolatedComponent, makes each its own component (eigenvalue
	// 0 of L_sym, eigenvector e_i); laplacian.IsolatedError reports them;
	// laplacian.IsolatedZero gives them a unit row of L_sym (eigenvalue 1).
	Isolated laplacian.IsolatedPolicy
	// Eigen controls the eigensolver (zero means defaults, except that a
	// zero Tol means DefaultClusteringTol).
	Eigen Settings
	// KMeans controls the k-means step (zero means defaults).
	KMeans KMeansSettings

	labels    []int
	values    []float64
	embedding *mat.Dense
	inertia   float64
	// What assigning a new node needs: the eigenvectors before the row
	// normalisation, the fitted nodes' degrees and the k-means centres.
	vectors *mat.Dense
	degrees []float64
	centres *mat.Dense
	km      kmeansInfo
}

// kmeansInfo is the k-means step's report.
type kmeansInfo struct {
	iterations, moved int
	converged         bool
	matVecs, restarts int // of the eigensolver
}

var _ estimator.NodeClusterer = (*SpectralClustering)(nil)

// DefaultClusteringTol is the eigensolver's tolerance in SpectralClustering
// when Eigen.Tol is 0, looser than DefaultTol: k-means sees only the
// subspace the k eigenvectors span (it is invariant under a rotation of
// the rows), whose error is at most the residual over the gap λ_{k+1} − λ_k
// (Davis–Kahan), and the clusters of gssl cluster --lcc on Cora and Amazon
// Photo are those of DefaultTol for every seed tried, at about 3/4 of the
// operator products (TestSpectralClusteringTolSameClusters).
const DefaultClusteringTol = 1e-6

// Validate checks the hyperparameters that do not depend on the graph.
func (c *SpectralClustering) Validate() error {
	if c.Clusters < 1 {
		return fmt.Errorf("spectral: SpectralClustering: Clusters = %d is invalid: it must be ≥ 1", c.Clusters)
	}
	if err := checkIsolated("SpectralClustering", c.Isolated); err != nil {
		return err
	}
	if err := c.Eigen.Validate(); err != nil {
		return fmt.Errorf("spectral: SpectralClustering: Eigen settings: %w", err)
	}
	if err := c.KMeans.Validate(); err != nil {
		return fmt.Errorf("spectral: SpectralClustering: KMeans.%w", err)
	}
	return nil
}

// Clone returns an unfitted copy with the same hyperparameters.
func (c *SpectralClustering) Clone() *SpectralClustering {
	return &SpectralClustering{Clusters: c.Clusters, Isolated: c.Isolated, Eigen: c.Eigen, KMeans: c.KMeans}
}

// Kind returns SpectralClusteringKind.
func (c *SpectralClustering) Kind() string { return SpectralClusteringKind }

// Fit clusters the nodes of g. When the eigensolver stops at its restart
// cap, Fit returns an *estimator.NotConvergedError wrapping the solver's
// *NotConvergedError and the model stays unfitted (fewer than k
// eigenvectors cannot be clustered into k groups). When k-means stops at
// KMeans.MaxIter before a fixed point, the clustering is kept (it is a
// valid partition) and Fit returns an *estimator.NotConvergedError whose
// Residual is the fraction of nodes that changed cluster in the last
// iteration.
//
// Only x.Graph is used: spectral clustering is a model of the graph alone.
func (c *SpectralClustering) Fit(ctx context.Context, x estimator.Nodes) error {
	if err := c.Validate(); err != nil {
		return err
	}
	g := x.Graph
	c.labels = nil
	if g == nil {
		return errors.New("spectral: SpectralClustering: graph is nil")
	}
	if c.Clusters > g.Nodes() {
		return fmt.Errorf("spectral: SpectralClustering: Clusters = %d is invalid: the graph has %d nodes", c.Clusters, g.Nodes())
	}
	es := c.Eigen
	if es.Tol == 0 {
		es.Tol = DefaultClusteringTol
	}
	r, err := LaplacianEigs(ctx, g, laplacian.Symmetric, laplacian.Options{Isolated: c.Isolated}, c.Clusters, es)
	if err != nil {
		return eigsError("SpectralClustering", err)
	}
	u := mat.DenseCopyOf(r.Vectors)
	normalizeRows(u)
	km, err := KMeans(ctx, u, c.Clusters, c.KMeans)
	if err != nil {
		return fmt.Errorf("spectral: SpectralClustering: %w", err)
	}
	c.labels, c.values, c.embedding, c.inertia = km.Labels, r.Values, u, km.Inertia
	c.vectors, c.degrees, c.centres = r.Vectors, g.Degrees(), km.Centers // r is ours: no copy
	c.km = kmeansInfo{iterations: km.Iterations, moved: km.Moved, converged: km.Converged, matVecs: r.MatVecs, restarts: r.Restarts}
	if !km.Converged {
		n := len(km.Labels)
		return &estimator.NotConvergedError{Model: "spectral: SpectralClustering", Method: "k-means (Lloyd)", Iterations: km.Iterations,
			Residual: float64(km.Moved) / float64(n), Tol: 0,
			Hint: "the residual is the fraction of nodes that changed cluster in the last iteration; the clustering is kept; raise KMeans.MaxIter"}
	}
	return nil
}

// Labels returns the cluster of every node (nil before Fit).
func (c *SpectralClustering) Labels() []int { return c.labels }

// Eigenvalues returns the k smallest eigenvalues of L_sym used (ascending).
func (c *SpectralClustering) Eigenvalues() []float64 { return c.values }

// Embedding returns the row-normalised eigenvector matrix that k-means
// clustered (n×k).
func (c *SpectralClustering) Embedding() *mat.Dense { return c.embedding }

// Inertia returns the k-means objective of the chosen clustering.
func (c *SpectralClustering) Inertia() float64 { return c.inertia }

// eigsError returns the eigensolver's *NotConvergedError as the shared
// *estimator.NotConvergedError (wrapping it), any other error prefixed with
// the model.
func eigsError(model string, err error) error {
	var nc *NotConvergedError
	if errors.As(err, &nc) {
		return &estimator.NotConvergedError{Model: "spectral: " + model, Method: "thick-restart Lanczos", Iterations: nc.Restarts,
			Residual: nc.Residual, Tol: nc.Tol, Hint: "the iterations are restarts; raise Eigen.MaxRestarts or Eigen.Tol", Err: err}
	}
	return fmt.Errorf("spectral: %s: %w", model, err)
}

// normalizeRows scales every non-zero row of u to unit 2-norm.
func normalizeRows(u *mat.Dense) {
	raw := u.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		var ss float64
		for _, v := range row {
			ss += v * v
		}
		if ss == 0 {
			continue
		}
		s := 1 / math.Sqrt(ss)
		for j := range row {
			row[j] *= s
		}
	}
}
