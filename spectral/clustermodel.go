package spectral

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/modelfile"
)

// SpectralClusteringKind is the kind of a fitted SpectralClustering in a
// modelfile container, and ClusteringVersion the newest layout of it this
// package reads and writes.
const (
	SpectralClusteringKind = "spectral.SpectralClustering"
	ClusteringVersion      = 1
)

// Info reports the fit under the shared names: Iterations are the
// eigensolver's thick restarts, Products its operator products; Residual
// is the fraction of nodes that k-means moved in its last iteration (0
// when it reached a fixed point).
func (c *SpectralClustering) Info() estimator.Info {
	if c.labels == nil {
		return estimator.Info{}
	}
	return estimator.Info{Iterations: c.km.restarts, Products: c.km.matVecs, Residual: float64(c.km.moved) / float64(len(c.labels))}
}

// Nodes returns the number of fitted nodes, 0 before Fit.
func (c *SpectralClustering) Nodes() int { return len(c.labels) }

// Predict returns the cluster of every queried node: the fitted nodes'
// clusters for estimator.FittedNodes, or new nodes, given by their edges to
// fitted nodes (q.New; q.Features is not used), assigned to clusters: each
// new node x is embedded by the Nyström extension of the
// eigenvectors of S = D^{-1/2} W D^{-1/2} (S u = μu, μ = 1 − λ),
//
//	u_l(x) = (1/μ_l) Σ_j w_xj u_l(j) / √(d_x d_j),   d_x = Σ_j w_xj,
//
// which gives a fitted node its own row when its edges are its graph row;
// the row is normalised as Fit's are, and the node goes to the nearest
// k-means centre (the first on ties). Edges to fitted nodes of degree 0
// and eigenvalues with μ ≤ 1e-12 contribute nothing; a new node with no
// weight at all gets the centre nearest the origin.
func (c *SpectralClustering) Predict(ctx context.Context, q estimator.NodeQuery) ([]int, error) {
	if c.labels == nil {
		return nil, estimator.NotFitted("spectral: SpectralClustering.Predict")
	}
	if q.New == nil {
		return append([]int(nil), c.labels...), nil
	}
	nodes := *q.New
	if err := nodes.Check(len(c.labels)); err != nil {
		return nil, fmt.Errorf("spectral: SpectralClustering.Predict: %w", err)
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	_, k := c.vectors.Dims()
	out := make([]int, nodes.Len())
	u := make([]float64, k)
	for i := range out {
		idx, ws := nodes.Row(i)
		var dx float64
		for p := range idx {
			w := 1.0
			if ws != nil {
				w = ws[p]
			}
			dx += w
		}
		for l := range u {
			u[l] = 0
		}
		if dx > 0 {
			for p, j := range idx {
				dj := c.degrees[j]
				if !(dj > 0) {
					continue
				}
				w := 1.0
				if ws != nil {
					w = ws[p]
				}
				s := w / math.Sqrt(dx*dj)
				row := c.vectors.RawRowView(int(j))
				for l := range u {
					u[l] += s * row[l]
				}
			}
			for l, lam := range c.values {
				if mu := 1 - lam; mu > 1e-12 {
					u[l] /= mu
				} else {
					u[l] = 0
				}
			}
		}
		var ss float64
		for _, v := range u {
			ss += v * v
		}
		if ss > 0 {
			sc := 1 / math.Sqrt(ss)
			for l := range u {
				u[l] *= sc
			}
		}
		best, bc := math.Inf(1), 0
		for q := 0; q < c.Clusters; q++ {
			if dd := sqDist(u, c.centres.RawRowView(q)); dd < best {
				best, bc = dd, q
			}
		}
		out[i] = bc
	}
	return out, nil
}

type clusteringMeta struct {
	Clusters    int            `json:"clusters"`
	Isolated    int            `json:"isolated"`
	Eigen       eigenMeta      `json:"eigen"`
	KMeans      KMeansSettings `json:"kmeans"`
	Nodes       int            `json:"nodes"`
	Inertia     float64        `json:"inertia"`
	KMIter      int            `json:"kmeans_iterations"`
	KMMoved     int            `json:"kmeans_moved"`
	KMConverged bool           `json:"kmeans_converged"`
	Restarts    int            `json:"restarts"`
	MatVecs     int            `json:"matvecs"`
}

// eigenMeta is Settings without Progress.
type eigenMeta struct {
	Tol          float64  `json:"tol"`
	BlockSize    int      `json:"block_size"`
	BasisSize    int      `json:"basis_size"`
	Bounds       Interval `json:"bounds"`
	FilterDegree int      `json:"filter_degree"`
	MaxRestarts  int      `json:"max_restarts"`
	Seed         uint64   `json:"seed"`
}

// clusteringCodec stores a fitted SpectralClustering (kind
// SpectralClusteringKind): the settings, every node's cluster, and what
// Predict needs for new nodes — the eigenvalues, the n×k eigenvectors, the
// fitted nodes' degrees and the k-means centres (the row-normalised
// embedding is recomputed from the eigenvectors on reading). The graph is
// not stored, nor Eigen.Progress: a clustering read keeps its own.
var clusteringCodec = modelfile.Codec[SpectralClustering, clusteringMeta]{Kind: SpectralClusteringKind, Version: ClusteringVersion,
	Fitted: func(c *SpectralClustering) bool { return c.labels != nil },
	Put: func(c *SpectralClustering, f *modelfile.File) (clusteringMeta, error) {
		lab := make([]int32, len(c.labels))
		for i, v := range c.labels {
			lab[i] = int32(v)
		}
		f.PutInt32s("labels", lab)
		f.PutFloat64s("eigenvalues", c.values)
		f.PutDense("vectors", c.vectors)
		f.PutFloat64s("degrees", c.degrees)
		f.PutDense("centres", c.centres)
		e := c.Eigen
		return clusteringMeta{Clusters: c.Clusters, Isolated: int(c.Isolated),
			Eigen:  eigenMeta{Tol: e.Tol, BlockSize: e.BlockSize, BasisSize: e.BasisSize, Bounds: e.Bounds, FilterDegree: e.FilterDegree, MaxRestarts: e.MaxRestarts, Seed: e.Seed},
			KMeans: c.KMeans, Nodes: len(c.labels), Inertia: c.inertia, KMIter: c.km.iterations, KMMoved: c.km.moved, KMConverged: c.km.converged,
			Restarts: c.km.restarts, MatVecs: c.km.matVecs}, nil
	},
	Get: readClustering,
}

func readClustering(f *modelfile.File, meta clusteringMeta, dst *SpectralClustering) error {
	e := meta.Eigen
	out := SpectralClustering{Clusters: meta.Clusters, Isolated: laplacian.IsolatedPolicy(meta.Isolated), KMeans: meta.KMeans,
		Eigen: Settings{Tol: e.Tol, BlockSize: e.BlockSize, BasisSize: e.BasisSize, Bounds: e.Bounds, FilterDegree: e.FilterDegree,
			MaxRestarts: e.MaxRestarts, Seed: e.Seed, Progress: dst.Eigen.Progress}}
	if err := out.Validate(); err != nil {
		return fmt.Errorf("the model file's settings: %w", err)
	}
	n, k := meta.Nodes, meta.Clusters
	if n < 1 || k < 1 || k > n || meta.KMMoved < 0 || meta.KMMoved > n {
		return fmt.Errorf("the model file declares %d clusters of %d nodes", k, n)
	}
	lab, err := f.Int32s("labels")
	if err != nil {
		return err
	}
	if len(lab) != n {
		return fmt.Errorf("the model file has %d labels for %d nodes", len(lab), n)
	}
	out.labels = make([]int, n)
	for i, v := range lab {
		if v < 0 || int(v) >= k {
			return fmt.Errorf("the model file's node %d is in cluster %d, not in [0, %d)", i, v, k)
		}
		out.labels[i] = int(v)
	}
	if out.values, err = f.Float64sLen("eigenvalues", k); err != nil {
		return err
	}
	if out.vectors, err = f.Dense("vectors", n, k); err != nil {
		return err
	}
	if out.degrees, err = f.Float64sLen("degrees", n); err != nil {
		return err
	}
	for i, d := range out.degrees {
		if d < 0 {
			return fmt.Errorf("the model file's degree of node %d is %v < 0", i, d)
		}
	}
	if out.centres, err = f.Dense("centres", k, k); err != nil {
		return err
	}
	out.embedding = mat.DenseCopyOf(out.vectors)
	normalizeRows(out.embedding)
	out.inertia = meta.Inertia
	out.km = kmeansInfo{iterations: meta.KMIter, moved: meta.KMMoved, converged: meta.KMConverged, matVecs: meta.MatVecs, restarts: meta.Restarts}
	*dst = out
	return nil
}

// ModelFile returns the fitted clustering as a modelfile container (kind
// SpectralClusteringKind; see clusteringCodec).
func (c *SpectralClustering) ModelFile() (*modelfile.File, error) { return clusteringCodec.File(c) }

// ReadModelFile replaces c by the clustering in f (see UnmarshalBinary).
func (c *SpectralClustering) ReadModelFile(f *modelfile.File) error {
	return clusteringCodec.Read(f, c)
}

// MarshalBinary encodes the fitted clustering; a clustering read back
// assigns new nodes bitwise as the original does.
func (c *SpectralClustering) MarshalBinary() ([]byte, error) { return clusteringCodec.Marshal(c) }

// UnmarshalBinary replaces c by the clustering in data (Eigen.Progress is
// kept); on an error c is unchanged.
func (c *SpectralClustering) UnmarshalBinary(data []byte) error {
	return clusteringCodec.Unmarshal(data, c)
}

// MarshalJSON refuses: a fitted clustering is not JSON (estimator.ErrJSON).
func (c SpectralClustering) MarshalJSON() ([]byte, error) {
	return nil, fmt.Errorf("spectral: SpectralClustering: %w", estimator.ErrJSON)
}

// UnmarshalJSON refuses (estimator.ErrJSON).
func (c *SpectralClustering) UnmarshalJSON([]byte) error {
	return fmt.Errorf("spectral: SpectralClustering: %w", estimator.ErrJSON)
}
