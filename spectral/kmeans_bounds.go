package spectral

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/parallel"
)

// maxPairedCentres is the largest k for which the assignment step keeps
// the k×k distances between the centres (Elkan's test in the full scan);
// above it every distance of a row's full scan is computed.
var maxPairedCentres = 256

// bounds are Hamerly's bounds for Lloyd's assignment step (Hamerly, "Making
// k-means even faster", SDM 2010): per row an upper bound u_i on the
// distance to its own centre a and a lower bound l_i on the distance to
// every other centre, per centre half the distance s_a to its nearest other
// centre. The nearest centre of row i is still a when u_i < max(s_a, l_i),
// and then no distance is computed. After an update that moves centre c by
// p_c, u_i grows by p_a and l_i falls by max_c p_c. A row that fails the
// test is compared with every centre, except that centre c is skipped when
// d(b, c) − d_i > d_i, where b is the nearest centre so far at distance d_i
// (Elkan, "Using the triangle inequality to accelerate k-means", ICML 2003:
// then d(x_i, c) ≥ d(b, c) − d_i > d_i), and then d(b, c) − d_i stands for
// d(x_i, c) in the new l_i. Every test keeps a margin slack = 1e-9·max_i
// ‖x_i‖, far above the rounding of the bounds and of the squared distances
// (relative 1e-15 of distances at most 2·max_i ‖x_i‖ over at most a few
// hundred iterations), so every skipped row would have kept its label, and
// every skipped centre would have lost to the chosen one, in the plain
// computation too: the labels are the first nearest centres, bitwise.
type bounds struct {
	upper, lower []float64 // per row
	half, moved  []float64 // per centre
	between      []float64 // k×k distances between the centres; nil for k > maxPairedCentres
	old          *mat.Dense
	slack        float64
	parallel     bool  // split the rows over the cores
	changes      []int // per chunk of rowGrain rows
}

func newBounds(n, k, d int, cfg lloydConfig) *bounds {
	b := &bounds{upper: make([]float64, n), lower: make([]float64, n), half: make([]float64, k), moved: make([]float64, k),
		old: mat.NewDense(k, d, nil), slack: cfg.slack, parallel: cfg.parallelRows, changes: make([]int, (n+rowGrain-1)/rowGrain)}
	if k <= maxPairedCentres {
		b.between = make([]float64, k*k)
	}
	return b
}

// start sets the bounds from the seeding's assignment: dist holds the
// squared distances to the nearest seed, lower those to the next nearest.
func (b *bounds) start(dist []float64) {
	for i, v := range dist {
		b.upper[i], b.lower[i] = math.Sqrt(v), math.Sqrt(b.lower[i])
	}
}

// assign sets each label to the nearest centre (the first on ties), dist
// to the squared distance of the rows it computes, and the bounds; it
// returns how many labels changed.
func (b *bounds) assign(x, centers *mat.Dense, labels []int, dist []float64) int {
	n, _ := x.Dims()
	b.centreDistances(centers)
	body := func(lo, hi int) {
		for ch := lo; ch < hi; ch++ {
			b.changes[ch] = b.assignRows(x, centers, labels, dist, ch*rowGrain, min(n, (ch+1)*rowGrain))
		}
	}
	if b.parallel {
		parallel.For(len(b.changes), 1, body)
	} else {
		body(0, len(b.changes))
	}
	total := 0
	for _, c := range b.changes {
		total += c
	}
	return total
}

// centreDistances sets half and, for k ≤ maxPairedCentres, between.
func (b *bounds) centreDistances(centers *mat.Dense) {
	k, _ := centers.Dims()
	for c := range b.half {
		b.half[c] = math.Inf(1)
	}
	for c := 0; c < k; c++ {
		for o := c + 1; o < k; o++ {
			dd := math.Sqrt(sqDist(centers.RawRowView(c), centers.RawRowView(o)))
			b.half[c], b.half[o] = math.Min(b.half[c], dd/2), math.Min(b.half[o], dd/2)
			if b.between != nil {
				b.between[c*k+o], b.between[o*k+c] = dd, dd
			}
		}
	}
}

// assignRows is assign on the rows [lo, hi); it returns how many labels
// changed.
func (b *bounds) assignRows(x, centers *mat.Dense, labels []int, dist []float64, lo, hi int) int {
	raw, cr := x.RawMatrix(), centers.RawMatrix()
	d := raw.Cols
	changed := 0
	for i := lo; i < hi; i++ {
		a := labels[i]
		m := b.half[a]
		if l := b.lower[i]; l > m {
			m = l
		}
		if b.upper[i]+b.slack < m {
			continue
		}
		xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
		da := sqDist(xi, cr.Data[a*cr.Stride:a*cr.Stride+d])
		if u := math.Sqrt(da); u+b.slack < m {
			b.upper[i], dist[i] = u, da
			continue
		}
		bc, best, lower := b.nearest(xi, cr, a, da)
		if bc != a {
			changed++
		}
		labels[i], dist[i], b.upper[i], b.lower[i] = bc, best, math.Sqrt(best), lower
	}
	return changed
}

// nearest returns the nearest centre to xi (the first on ties), its
// squared distance, and a lower bound on the distance to every other
// centre, starting from centre a at squared distance da.
func (b *bounds) nearest(xi []float64, cr blas64.General, a int, da float64) (int, float64, float64) {
	k, d := cr.Rows, cr.Cols
	bc, best, r := a, da, math.Sqrt(da)
	lower := math.Inf(1)
	for c := 0; c < k; c++ {
		if c == a {
			continue
		}
		if b.between != nil {
			if far := b.between[bc*k+c] - r; far > r+b.slack {
				lower = min(lower, far-b.slack) // d(x_i, c) ≥ far − slack
				continue
			}
		}
		dd := sqDist(xi, cr.Data[c*cr.Stride:c*cr.Stride+d])
		if dd < best || (dd == best && c < bc) {
			lower = min(lower, r)
			bc, best, r = c, dd, math.Sqrt(dd)
		} else {
			lower = min(lower, math.Sqrt(dd))
		}
	}
	return bc, best, lower
}

// move updates the bounds for the centres' move from b.old to centers.
func (b *bounds) move(centers *mat.Dense, labels []int) {
	var most float64
	for c := range b.moved {
		b.moved[c] = math.Sqrt(sqDist(b.old.RawRowView(c), centers.RawRowView(c)))
		most = math.Max(most, b.moved[c])
	}
	upper, lower := b.upper[:len(labels)], b.lower[:len(labels)]
	for i, a := range labels {
		upper[i] += b.moved[a]
		lower[i] -= most
	}
}
