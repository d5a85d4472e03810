package spectral

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

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
// Restarts run in parallel over the cores, or one after the other with the
// rows of each assignment step split over the cores when there are fewer
// restarts than cores; the result is the same either way.
func KMeans(ctx context.Context, x *mat.Dense, k int, s KMeansSettings) (*KMeansResult, error) {
	if x == nil || x.IsEmpty() {
		return nil, errors.New("spectral: KMeans: no data")
	}
	n, _ := x.Dims()
	if k < 1 || k > n {
		return nil, fmt.Errorf("spectral: KMeans: k = %d is invalid: it must lie in [1, %d] (the number of rows)", k, n)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("spectral: KMeans: %w", err)
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
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
	cfg := lloydConfig{k: k, maxIter: s.MaxIter, slack: boundSlack(x), parallelRows: s.Restarts < parallel.Workers()}
	if hasAVX2 {
		cfg.xt = transposeRows(x)
	}
	best, err := bestRestart(ctx, x, cfg, s)
	if err != nil {
		return nil, fmt.Errorf("spectral: KMeans: %w", err)
	}
	return best, nil
}

// bestRestart runs the s.Restarts restarts and returns the one of smallest
// inertia, the first on ties. Only the best run so far is kept besides the
// runs in progress: n labels per restart add up on graphs of millions of
// nodes. A restart runs in the storage of one that lost, reset, when there
// is one (the fewer allocations, the fewer garbage collections). With cfg.parallelRows the restarts run one after the other, else
// in parallel, claimed one at a time so that long and short runs balance.
func bestRestart(ctx context.Context, x *mat.Dense, cfg lloydConfig, s KMeansSettings) (*KMeansResult, error) {
	var (
		mu       sync.Mutex
		best     *KMeansResult
		bestWork *lloydWork
		spare    []*lloydWork // the storage of finished runs that lost
		first    = -1         // the restart of best
		errs     = make([]error, s.Restarts)
	)
	run := func(r int) {
		mu.Lock()
		var w *lloydWork
		if len(spare) > 0 {
			w, spare = spare[len(spare)-1], spare[:len(spare)-1]
		}
		mu.Unlock()
		if w == nil {
			n, d := x.Dims()
			w = newLloydWork(n, cfg.k, d, cfg)
		} else {
			w.reset(cfg)
		}
		res, err := lloydWith(ctx, x, cfg, rand.New(rand.NewPCG(s.Seed, uint64(r))), w)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil:
			errs[r] = err
			spare = append(spare, w)
		case best == nil || res.Inertia < best.Inertia || (res.Inertia == best.Inertia && r < first):
			if bestWork != nil {
				spare = append(spare, bestWork)
			}
			best, bestWork, first = res, w, r
		default:
			spare = append(spare, w)
		}
	}
	if cfg.parallelRows {
		for r := 0; r < s.Restarts; r++ {
			run(r)
		}
	} else {
		parallel.Chunks(s.Restarts, 1, func(r, _, _ int) { run(r) })
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return best, nil
}

// lloydConfig are the settings of one k-means run.
type lloydConfig struct {
	k, maxIter   int
	slack        float64 // of the bounds (boundSlack)
	parallelRows bool    // split the assignment step over the cores
	// xt, when set, holds the rows transposed (transposeRows), for the
	// seeding's distances on the AVX2 kernel (seedDists).
	xt []float64
}

// transposeRows returns the n×d rows of x transposed: coordinate j of row
// i at [j·n + i].
func transposeRows(x *mat.Dense) []float64 {
	n, d := x.Dims()
	xt := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			xt[j*n+i] = v
		}
	}
	return xt
}

// boundSlack is the margin of the bounds' tests (see bounds): 1e-9 of the
// largest row norm of x.
func boundSlack(x *mat.Dense) float64 {
	var r2 float64
	n, _ := x.Dims()
	for i := 0; i < n; i++ {
		var ss float64
		for _, v := range x.RawRowView(i) {
			ss += v * v
		}
		r2 = math.Max(r2, ss)
	}
	return 1e-9 * math.Sqrt(r2)
}

// lloyd runs one k-means++ initialisation and Lloyd iterations. The
// seeding finds every row's nearest seed (the k-means++ draws need the
// distances), so it makes the first assignment itself, skipping the seeds
// that cannot be a row's nearest (all computed, on the AVX2 kernel, when
// cfg.xt holds the rows transposed); later assignment steps skip the rows whose
// nearest centre cannot have changed and the centres that cannot be a
// row's nearest (Hamerly's and Elkan's bounds, see bounds): the labels,
// centres, inertia and counts are bitwise those of computing every
// distance in every iteration.
func lloyd(ctx context.Context, x *mat.Dense, cfg lloydConfig, rng *rand.Rand) (*KMeansResult, error) {
	n, d := x.Dims()
	return lloydWith(ctx, x, cfg, rng, newLloydWork(n, cfg.k, d, cfg))
}

// lloydWith is lloyd in the storage of w (new or reset for cfg), which the
// result's labels and centres share.
func lloydWith(ctx context.Context, x *mat.Dense, cfg lloydConfig, rng *rand.Rand, w *lloydWork) (*KMeansResult, error) {
	n := len(w.labels)
	centers, dist, labels, b, counts := w.centers, w.dist, w.labels, w.b, w.counts
	if cfg.xt != nil && len(w.dd) != n {
		w.dd = make([]float64, n)
	}
	seedCenters(x, cfg.xt, centers, dist, labels, b.lower, w.dd, cfg.slack, rng)
	b.start(dist)
	res := &KMeansResult{Labels: labels, Centers: centers}
	for it := 0; it < cfg.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		changed := n // the seeding assigned every row
		if it > 0 {
			changed = b.assign(x, centers, labels, dist)
		}
		res.Iterations, res.Moved = it+1, changed
		if changed == 0 && it > 0 {
			res.Converged = true
			break
		}
		b.old.Copy(centers)
		w.sumClusters(x, centers, labels, counts)
		if slices.Contains(counts, 0) {
			exactDist(x, b.old, labels, dist) // the re-seeding reads every distance
		}
		meansOrReseed(x, centers, counts, dist)
		b.move(centers)
	}
	if !res.Converged {
		b.assign(x, centers, labels, dist)
	}
	exactDist(x, centers, labels, dist)
	for _, v := range dist {
		res.Inertia += v
	}
	return res, nil
}

// lloydWork is the storage of one k-means run: the result's labels and
// centres, the distances, the counts and the bounds. reset makes it as
// newLloydWork does, so that a run in reused storage is bitwise a run in
// new storage; bestRestart reuses the storage of the runs that lost.
type lloydWork struct {
	centers *mat.Dense
	dist    []float64
	labels  []int
	counts  []int
	b       *bounds
	acc     []float64 // k×8 sums of lloydWork.sumClusters; nil off its kernel
	dd      []float64 // per row, scratch of seedCenters with transposed rows
}

func newLloydWork(n, k, d int, cfg lloydConfig) *lloydWork {
	w := &lloydWork{centers: mat.NewDense(k, d, nil), dist: make([]float64, n), labels: make([]int, n),
		counts: make([]int, k), b: newBounds(n, k, d, cfg)}
	if hasAVX2 && d <= 8 {
		w.acc = make([]float64, k*8)
	}
	return w
}

// reset zeroes w and sets the bounds' settings from cfg, as newLloydWork.
func (w *lloydWork) reset(cfg lloydConfig) {
	w.centers.Zero()
	clear(w.dist)
	clear(w.labels)
	clear(w.counts)
	w.b.reset(cfg)
}

// seedCenters draws the k-means++ seeds into the rows of centers. Every
// row's squared distance to every seed is computed on the way, so it also
// assigns the rows as the assignment step would: labels to the nearest
// seed (the first on ties), dist to the squared distance to it and second
// to the squared distance to the next nearest (+Inf for k = 1), or a lower
// bound on it when offerSeed skips a distance (slack: that of bounds).
// With the rows transposed in xt (lloydConfig.xt), every distance is
// computed, on the AVX2 kernel, into dd (scratch of n).
func seedCenters(x *mat.Dense, xt []float64, centers *mat.Dense, dist []float64, labels []int, second, dd []float64, slack float64, rng *rand.Rand) {
	n, _ := x.Dims()
	k, _ := centers.Dims()
	for i := range dist {
		dist[i], labels[i], second[i] = math.Inf(1), 0, math.Inf(1)
	}
	far := make([]float64, k)
	seed := rng.IntN(n)
	for c := 0; c < k; c++ {
		if c > 0 {
			seed = pickSeed(dist, rng)
		}
		cc := centers.RawRowView(c)
		copy(cc, x.RawRowView(seed))
		if xt != nil {
			seedDists(dd, xt, cc)
			offerDists(dd, c, dist, labels, second)
			continue
		}
		for a := range far {
			far[a] = -1 // never skip
			if h := (math.Sqrt(sqDist(centers.RawRowView(a), cc)) - slack) / 2; a < c && h > 0 {
				far[a] = h * h
			}
		}
		offerSeed(x, cc, c, far, dist, labels, second)
	}
}

// seedDists sets dd[i] to the squared distance of row i of the transposed
// rows xt (coordinate j of row i at xt[j·n + i], n = len(dd)) to center,
// bitwise sqDist's.
func seedDists(dd, xt, center []float64) {
	n, d := len(dd), len(center)
	body := 0
	if hasAVX2 && d > 0 {
		body = n &^ 7
	}
	if body > 0 {
		sqDistsAVX2(body, d, &xt[0], n, &center[0], &dd[0])
	}
	for i := body; i < n; i++ {
		var s float64
		for j, v := range center {
			t := xt[j*n+i] - v
			s += t * t
		}
		dd[i] = s
	}
}

// offerDists is offerSeed with every row's squared distance to seed c
// given in dd (none skipped).
func offerDists(dd []float64, c int, dist []float64, labels []int, second []float64) {
	dd, labels, second = dd[:len(dist)], labels[:len(dist)], second[:len(dist)]
	for i, near := range dist {
		d := dd[i]
		l := labels[i]
		if d < near {
			l = c
		}
		labels[i] = l
		second[i] = min(second[i], max(near, d))
		dist[i] = min(near, d)
	}
}

// offerSeed updates seedCenters' assignment with seed c: dist, labels and
// second for rows nearer to it than to their nearest seed so far (the
// first on ties), second for rows nearer to it than to their second. A row
// whose nearest seed a has dist < far[a] = ((d(a, c) − slack)/2)² is not
// compared with c (Elkan's test): then d(x, c) ≥ d(a, c) − d(x, a) >
// d(x, a) + slack, far above rounding, so the comparison would have kept
// its label and dist, and far[a] < d(x, c)² is a lower bound for second.
func offerSeed(x *mat.Dense, center []float64, c int, far, dist []float64, labels []int, second []float64) {
	raw := x.RawMatrix()
	xd, xs, d := raw.Data, raw.Stride, raw.Cols
	center = center[:d]
	labels, second = labels[:len(dist)], second[:len(dist)]
	for i, near := range dist {
		l := labels[i]
		if t := far[l]; near < t {
			second[i] = min(second[i], t)
			continue
		}
		dd := sqDist(xd[i*xs:i*xs+d], center)
		if dd < near {
			l = c
		}
		labels[i] = l
		// Branch-free: second' = min(second, max(near, dd)), dist' =
		// min(near, dd) (the squared distances are ≥ 0, never NaN).
		second[i] = min(second[i], max(near, dd))
		dist[i] = min(near, dd)
	}
}

// pickSeed draws a row with probability proportional to dist (uniformly
// when every entry is 0).
func pickSeed(dist []float64, rng *rand.Rand) int {
	var total float64
	for _, v := range dist {
		total += v
	}
	if !(total > 0) {
		return rng.IntN(len(dist))
	}
	u := rng.Float64() * total
	for i, v := range dist {
		if u -= v; u < 0 {
			return i
		}
	}
	return len(dist) - 1
}

// sumClusters sets the rows of centers to the sums of the rows of x in
// each cluster and counts to their sizes.
func sumClusters(x, centers *mat.Dense, labels, counts []int) {
	centers.Zero()
	clear(counts)
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	d := raw.Cols
	for i, c := range labels {
		counts[c]++
		xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
		cc := cr.Data[c*cr.Stride : c*cr.Stride+d]
		for j, v := range xi {
			cc[j] += v
		}
	}
}

// sumClusters is the package's sumClusters, on the AVX2 kernel for rows of
// at most 8 entries: each row is added whole to its cluster's row of w.acc
// (8 entries a row), in the order of the rows, so each entry of a sum is
// added as sumClusters adds it, bitwise.
func (w *lloydWork) sumClusters(x, centers *mat.Dense, labels, counts []int) {
	raw := x.RawMatrix()
	n, d := raw.Rows, raw.Cols
	if w.acc == nil || n == 0 {
		sumClusters(x, centers, labels, counts)
		return
	}
	clear(w.acc)
	clear(counts)
	// The kernel reads 8 entries a row: the last rows, short of them, are
	// added here.
	whole := 0
	if len(raw.Data) >= 8 {
		whole = min(n, (len(raw.Data)-8)/raw.Stride+1)
	}
	if whole > 0 {
		sumRowsAVX2(whole, &raw.Data[0], raw.Stride, &labels[0], &w.acc[0], &counts[0])
	}
	for i := whole; i < n; i++ {
		c := labels[i]
		counts[c]++
		acc := w.acc[c*8 : c*8+d]
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			acc[j] += v
		}
	}
	for c := range counts {
		copy(centers.RawRowView(c), w.acc[c*8:c*8+d])
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

// exactDist sets dist to the squared distance of every row to its centre.
func exactDist(x, centers *mat.Dense, labels []int, dist []float64) {
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	d := raw.Cols
	for i, a := range labels {
		dist[i] = sqDist(raw.Data[i*raw.Stride:i*raw.Stride+d], cr.Data[a*cr.Stride:a*cr.Stride+d])
	}
}

func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		t := v - b[i]
		s += t * t
	}
	return s
}
