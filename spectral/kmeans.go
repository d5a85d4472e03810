package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// Defaults of KMeansSettings.
const (
	// DefaultKMeansRestarts is the number of k-means++ initialisations when
	// Restarts is 0.
	DefaultKMeansRestarts = 10
	// DefaultKMeansMaxIter caps Lloyd iterations per restart when MaxIter
	// is 0.
	DefaultKMeansMaxIter = 300
)

// KMeansSettings control KMeans. The zero value is usable.
type KMeansSettings struct {
	// Restarts is the number of k-means++ initialisations; the run with the
	// smallest inertia wins (the first on ties). 0 means DefaultKMeansRestarts.
	Restarts int
	// MaxIter caps Lloyd iterations per restart; 0 means DefaultKMeansMaxIter. A restart
	// stops early when no point changes cluster.
	MaxIter int
	// Seed seeds the initialisations: restart r draws from
	// rand.NewPCG(Seed, r), so results do not depend on the number of cores.
	Seed uint64
}

// Validate checks the settings: Restarts and MaxIter ≥ 0.
func (s KMeansSettings) Validate() error {
	if s.Restarts < 0 {
		return fmt.Errorf("Restarts = %d is invalid: it must be ≥ 0 (0 means %d)", s.Restarts, DefaultKMeansRestarts)
	}
	if s.MaxIter < 0 {
		return fmt.Errorf("MaxIter = %d is invalid: it must be ≥ 0 (0 means %d)", s.MaxIter, DefaultKMeansMaxIter)
	}
	return nil
}

// KMeansResult is a clustering of the rows of a matrix.
type KMeansResult struct {
	Labels     []int      // cluster of each row, in [0, k)
	Centers    *mat.Dense // k×d cluster means
	Inertia    float64    // Σ_i ‖x_i − c_{label i}‖²
	Iterations int        // Lloyd iterations of the winning restart
	Converged  bool       // whether the winning restart reached a fixed point
	Moved      int        // rows that changed cluster in its last iteration (0 when converged)
}

// KMeans clusters the rows of x (n×d) into k clusters by Lloyd's algorithm
// from k-means++ seeds (Arthur & Vassilvitskii 2007): the first centre is a
// uniformly random row, each next one a row drawn with probability
// proportional to its squared distance to the nearest centre so far. A
// cluster that empties is re-seeded with the row farthest from its centre.
// Restarts run in parallel over the cores.
func KMeans(ctx context.Context, x *mat.Dense, k int, s KMeansSettings) (*KMeansResult, error) {
	if x == nil || x.IsEmpty() {
		return nil, errors.New("spectral: KMeans: no data")
	}
	n, d := x.Dims()
	if k < 1 || k > n {
		return nil, fmt.Errorf("spectral: KMeans: k = %d is invalid: it must lie in [1, %d] (the number of rows)", k, n)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("spectral: KMeans: %w", err)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("spectral: KMeans: x[%d, %d] = %v is not finite", i, j, v)
			}
		}
	}
	if s.Restarts == 0 {
		s.Restarts = DefaultKMeansRestarts
	}
	if s.MaxIter == 0 {
		s.MaxIter = DefaultKMeansMaxIter
	}
	if ctx == nil {
		ctx = context.Background()
	}
	// Each worker keeps only the best of its restarts (the earlier on ties),
	// so that at most one labelling per worker is held besides the runs in
	// progress: n labels per restart add up on graphs of millions of nodes.
	runs := make([]*KMeansResult, s.Restarts)
	errs := make([]error, s.Restarts)
	parallel.For(s.Restarts, 1, func(lo, hi int) {
		kept := -1
		for r := lo; r < hi; r++ {
			runs[r], errs[r] = lloyd(ctx, x, k, s.MaxIter, rand.New(rand.NewPCG(s.Seed, uint64(r))))
			switch {
			case errs[r] != nil:
			case kept < 0 || runs[r].Inertia < runs[kept].Inertia:
				if kept >= 0 {
					runs[kept] = nil
				}
				kept = r
			default:
				runs[r] = nil
			}
		}
	})
	var best *KMeansResult
	for r, run := range runs {
		if errs[r] != nil {
			return nil, fmt.Errorf("spectral: KMeans: %w", errs[r])
		}
		if run != nil && (best == nil || run.Inertia < best.Inertia) {
			best = run
		}
	}
	return best, nil
}

// lloyd runs one k-means++ initialisation and Lloyd iterations.
func lloyd(ctx context.Context, x *mat.Dense, k, maxIter int, rng *rand.Rand) (*KMeansResult, error) {
	n, d := x.Dims()
	raw := x.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+d] }
	centers := mat.NewDense(k, d, nil)
	cr := centers.RawMatrix()
	center := func(c int) []float64 { return cr.Data[c*cr.Stride : c*cr.Stride+d] }
	// k-means++ seeding.
	dist := make([]float64, n)
	copy(center(0), row(rng.IntN(n)))
	for i := range dist {
		dist[i] = sqDist(row(i), center(0))
	}
	for c := 1; c < k; c++ {
		var total float64
		for _, v := range dist {
			total += v
		}
		pick := 0
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range dist {
				u -= v
				if u < 0 {
					pick = i
					break
				}
				pick = i
			}
		} else {
			pick = rng.IntN(n)
		}
		copy(center(c), row(pick))
		for i := range dist {
			dist[i] = math.Min(dist[i], sqDist(row(i), center(c)))
		}
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	counts := make([]int, k)
	res := &KMeansResult{Labels: labels, Centers: centers}
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		changed := assign(x, centers, labels, dist)
		res.Iterations, res.Moved = it+1, changed
		if changed == 0 && it > 0 {
			res.Converged = true
			break
		}
		// Update: means of the clusters; re-seed empty ones.
		centers.Zero()
		for c := range counts {
			counts[c] = 0
		}
		for i, c := range labels {
			counts[c]++
			cc := center(c)
			for j, v := range row(i) {
				cc[j] += v
			}
		}
		for c := 0; c < k; c++ {
			if counts[c] == 0 {
				far := 0
				for i := range dist {
					if dist[i] > dist[far] {
						far = i
					}
				}
				copy(center(c), row(far))
				dist[far] = 0
				continue
			}
			cc := center(c)
			for j := range cc {
				cc[j] /= float64(counts[c])
			}
		}
	}
	if !res.Converged {
		assign(x, centers, labels, dist)
	}
	for _, v := range dist {
		res.Inertia += v
	}
	return res, nil
}

// assign sets each label to the nearest centre (the first on ties) and dist
// to the squared distance; it returns how many labels changed.
func assign(x, centers *mat.Dense, labels []int, dist []float64) int {
	n, d := x.Dims()
	k, _ := centers.Dims()
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	changes := make([]int, (n+rowGrain-1)/rowGrain)
	parallel.For(len(changes), 1, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			for i := ch * rowGrain; i < min(n, (ch+1)*rowGrain); i++ {
				xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
				best, bc := math.Inf(1), 0
				for c := 0; c < k; c++ {
					if dd := sqDist(xi, cr.Data[c*cr.Stride:c*cr.Stride+d]); dd < best {
						best, bc = dd, c
					}
				}
				if labels[i] != bc {
					changes[ch]++
				}
				labels[i], dist[i] = bc, best
			}
		}
	})
	total := 0
	for _, c := range changes {
		total += c
	}
	return total
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		t := v - b[i]
		s += t * t
	}
	return s
}
