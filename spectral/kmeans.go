package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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

// lloyd runs one k-means++ initialisation and Lloyd iterations. The
// assignment step skips the rows whose nearest centre cannot have changed
// (Hamerly's bounds, see bounds): the labels, centres, inertia and counts
// are bitwise those of computing every distance in every iteration.
func lloyd(ctx context.Context, x *mat.Dense, k, maxIter int, rng *rand.Rand) (*KMeansResult, error) {
	n, d := x.Dims()
	centers := mat.NewDense(k, d, nil)
	dist := make([]float64, n)
	seedCenters(x, centers, dist, rng)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = -1
	}
	counts := make([]int, k)
	res := &KMeansResult{Labels: labels, Centers: centers}
	b := newBounds(x, k)
	for it := 0; it < maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		changed := b.assign(x, centers, labels, dist)
		res.Iterations, res.Moved = it+1, changed
		if changed == 0 && it > 0 {
			res.Converged = true
			break
		}
		b.old.Copy(centers)
		sumClusters(x, centers, labels, counts)
		if slices.Contains(counts, 0) {
			b.exact(x, b.old, labels, dist) // the re-seeding reads every distance
		}
		meansOrReseed(x, centers, counts, dist)
		b.move(centers, labels)
	}
	if !res.Converged {
		b.assign(x, centers, labels, dist)
	}
	b.exact(x, centers, labels, dist)
	for _, v := range dist {
		res.Inertia += v
	}
	return res, nil
}

// seedCenters draws the k-means++ seeds into the rows of centers; dist is
// scratch of one entry per row of x.
func seedCenters(x, centers *mat.Dense, dist []float64, rng *rand.Rand) {
	n, d := x.Dims()
	k, _ := centers.Dims()
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+d] }
	center := func(c int) []float64 { return cr.Data[c*cr.Stride : c*cr.Stride+d] }
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
}

// sumClusters sets the rows of centers to the sums of the rows of x in
// each cluster and counts to their sizes.
func sumClusters(x, centers *mat.Dense, labels, counts []int) {
	centers.Zero()
	clear(counts)
	for i, c := range labels {
		counts[c]++
		cc := centers.RawRowView(c)
		for j, v := range x.RawRowView(i) {
			cc[j] += v
		}
	}
}

// meansOrReseed divides the sums of sumClusters by the sizes, and re-seeds
// an empty cluster with the row farthest from its centre (dist: every
// row's squared distance to its centre before the update; the chosen
// row's is then 0).
func meansOrReseed(x, centers *mat.Dense, counts []int, dist []float64) {
	for c, cnt := range counts {
		cc := centers.RawRowView(c)
		if cnt == 0 {
			far := 0
			for i := range dist {
				if dist[i] > dist[far] {
					far = i
				}
			}
			copy(cc, x.RawRowView(far))
			dist[far] = 0
			continue
		}
		for j := range cc {
			cc[j] /= float64(cnt)
		}
	}
}

// bounds are Hamerly's bounds for Lloyd's assignment step (Hamerly, "Making
// k-means even faster", SDM 2010): per row an upper bound u_i on the
// distance to its own centre a and a lower bound l_i on the distance to
// every other centre, per centre half the distance s_a to its nearest other
// centre. The nearest centre of row i is still a when u_i < max(s_a, l_i),
// and then no distance is computed. After an update that moves centre c by
// p_c, u_i grows by p_a and l_i falls by max_c p_c. A row is skipped only
// when u_i + slack < max(s_a, l_i), slack = 1e-9·max_i ‖x_i‖ far above the
// rounding of the bounds and of the squared distances (relative 1e-15 of
// distances at most 2·max_i ‖x_i‖ over at most a few hundred iterations),
// so every skipped row would have kept its label, the first nearest centre,
// in the plain computation too.
type bounds struct {
	upper, lower []float64 // per row
	half, moved  []float64 // per centre
	old          *mat.Dense
	slack        float64
	changes      []int // per chunk of rowGrain rows
}

func newBounds(x *mat.Dense, k int) *bounds {
	n, d := x.Dims()
	var r2 float64
	for i := 0; i < n; i++ {
		r2 = math.Max(r2, mat.Dot(x.RowView(i), x.RowView(i)))
	}
	return &bounds{upper: make([]float64, n), lower: make([]float64, n), half: make([]float64, k), moved: make([]float64, k),
		old: mat.NewDense(k, d, nil), slack: 1e-9 * math.Sqrt(r2), changes: make([]int, (n+rowGrain-1)/rowGrain)}
}

// assign sets each label to the nearest centre (the first on ties), dist
// to the squared distance of the rows it computes, and the bounds; it
// returns how many labels changed. Rows labelled −1 are computed.
func (b *bounds) assign(x, centers *mat.Dense, labels []int, dist []float64) int {
	n, d := x.Dims()
	k, _ := centers.Dims()
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	center := func(c int) []float64 { return cr.Data[c*cr.Stride : c*cr.Stride+d] }
	for c := range b.half {
		b.half[c] = math.Inf(1)
		for o := range k {
			if o != c {
				b.half[c] = math.Min(b.half[c], math.Sqrt(sqDist(center(c), center(o)))/2)
			}
		}
	}
	clear(b.changes)
	parallel.For(len(b.changes), 1, func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			for i := ch * rowGrain; i < min(n, (ch+1)*rowGrain); i++ {
				xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
				a := labels[i]
				if a >= 0 {
					m := math.Max(b.half[a], b.lower[i])
					if b.upper[i]+b.slack < m {
						continue
					}
					da := sqDist(xi, center(a))
					if b.upper[i] = math.Sqrt(da); b.upper[i]+b.slack < m {
						dist[i] = da
						continue
					}
				}
				best, second, bc := math.Inf(1), math.Inf(1), 0
				for c := 0; c < k; c++ {
					dd := sqDist(xi, center(c))
					if dd < best {
						best, second, bc = dd, best, c
					} else if dd < second {
						second = dd
					}
				}
				if a != bc {
					b.changes[ch]++
				}
				labels[i], dist[i], b.upper[i], b.lower[i] = bc, best, math.Sqrt(best), math.Sqrt(second)
			}
		}
	})
	total := 0
	for _, c := range b.changes {
		total += c
	}
	return total
}

// move updates the bounds for the centres' move from b.old to centers.
func (b *bounds) move(centers *mat.Dense, labels []int) {
	var most float64
	for c := range b.moved {
		b.moved[c] = math.Sqrt(sqDist(b.old.RawRowView(c), centers.RawRowView(c)))
		most = math.Max(most, b.moved[c])
	}
	for i, a := range labels {
		b.upper[i] += b.moved[a]
		b.lower[i] -= most
	}
}

// exact sets dist to the squared distance of every row to its centre.
func (b *bounds) exact(x, centers *mat.Dense, labels []int, dist []float64) {
	for i, a := range labels {
		dist[i] = sqDist(x.RawRowView(i), centers.RawRowView(a))
	}
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		t := v - b[i]
		s += t * t
	}
	return s
}
