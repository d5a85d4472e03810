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

// maxScanCentres is the largest k for which a row that fails Hamerly's test
// is compared with every centre at once by scanRow rather than centre by
// centre behind Elkan's test (BenchmarkLloydAssignPaths on unit rows in k
// dimensions: the scan as fast or faster up to k = 32, Elkan's test faster
// at 64).
var maxScanCentres = 32

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
// For k ≤ maxScanCentres a row that fails the test (and, without the AVX2
// kernel, the test again with its exact distance to a) is compared with
// every centre at once instead (scanRow: the centres packed in blocks, the
// distances of a block summed side by side), with no test per centre and no
// square root but the nearest's and the second nearest's, the new l_i: on
// the kernel a block's distances and their nearest and second take a few
// dozen instructions, less than the exact distance to a and its test.
type bounds struct {
	upper, lower []float64 // per row
	half, moved  []float64 // per centre; moved is the move not yet applied to the rows' bounds
	most         float64   // max_c moved[c]
	between      []float64 // k×k distances between the centres; nil for k > maxPairedCentres
	old          *mat.Dense
	slack        float64
	packed       []float64 // the centres for scanRow (packCentres); nil for k > maxScanCentres
	todo         []int     // per row, scratch of candidates
	parallel     bool      // split the rows over the cores
	changes      []int     // per chunk of rowGrain rows
}

func newBounds(n, k, d int, cfg lloydConfig) *bounds {
	b := &bounds{upper: make([]float64, n), lower: make([]float64, n), half: make([]float64, k), moved: make([]float64, k),
		old: mat.NewDense(k, d, nil), slack: cfg.slack, parallel: cfg.parallelRows, changes: make([]int, (n+rowGrain-1)/rowGrain)}
	b.todo = make([]int, n)
	switch {
	case k <= maxScanCentres:
		b.packed = make([]float64, (k+scanBlock-1)/scanBlock*scanBlock*d)
	case k <= maxPairedCentres:
		b.between = make([]float64, k*k)
	}
	return b
}

// reset makes b as newBounds does with cfg (the same n, k and d).
func (b *bounds) reset(cfg lloydConfig) {
	clear(b.upper)
	clear(b.lower)
	clear(b.half)
	clear(b.moved)
	b.most = 0
	clear(b.between)
	b.old.Zero()
	b.slack, b.parallel = cfg.slack, cfg.parallelRows
	clear(b.packed)
	clear(b.todo)
	clear(b.changes)
}

// start sets the bounds from the seeding's assignment: dist holds the
// squared distances to the nearest seed, lower those to the next nearest
// (or lower bounds on them).
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
	if b.packed != nil {
		b.packCentres(centers)
	}
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
	clear(b.moved) // applied
	b.most = 0
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
	k := cr.Rows
	changed := 0
	direct := b.packed != nil && hasAVX2 // scan without the second test
	if direct && k <= scanBlock && d > 0 {
		return b.assignBlock(raw, labels, dist, b.candidates(labels, lo, hi))
	}
	for _, i := range b.candidates(labels, lo, hi) {
		a := labels[i]
		xi := raw.Data[i*raw.Stride : i*raw.Stride+d]
		var (
			bc          int
			best, lower float64
		)
		if !direct {
			m := b.half[a]
			if l := b.lower[i]; l > m {
				m = l
			}
			da := sqDist(xi, cr.Data[a*cr.Stride:a*cr.Stride+d])
			if u := math.Sqrt(da); u+b.slack < m {
				b.upper[i], dist[i] = u, da
				continue
			}
			if b.packed == nil {
				bc, best, lower = b.nearest(xi, cr, a, da)
			}
		}
		if b.packed != nil {
			var second float64
			bc, best, second = scanRow(xi, b.packed, k)
			lower = math.Sqrt(second)
		}
		if bc != a {
			changed++
		}
		labels[i], dist[i], b.upper[i], b.lower[i] = bc, best, math.Sqrt(best), lower
	}
	return changed
}

// assignBlock is assignRows on the candidate rows cand when the centres
// fit in one block of the AVX2 scan: scanRow without its loop over blocks.
func (b *bounds) assignBlock(raw blas64.General, labels []int, dist []float64, cand []int) int {
	changed := 0
	d, p := raw.Cols, &b.packed[0]
	for _, i := range cand {
		bc, best, second := scanBlockAVX2(d, &raw.Data[i*raw.Stride], p)
		if bc != labels[i] {
			changed++
		}
		labels[i], dist[i], b.upper[i], b.lower[i] = bc, best, math.Sqrt(best), math.Sqrt(second)
	}
	return changed
}

// candidates applies the centres' last move to the bounds of the rows of
// [lo, hi) and returns those that fail Hamerly's test (their nearest centre
// may have changed), listed in b.todo[lo:hi] without a branch per row: the
// test's outcome is hard to predict.
func (b *bounds) candidates(labels []int, lo, hi int) []int {
	todo := b.todo[lo:hi]
	upper, lower := b.upper[lo:hi], b.lower[lo:hi]
	upper, lower = upper[:len(todo)], lower[:len(todo)]
	half, moved, most, slack := b.half, b.moved, b.most, b.slack
	moved = moved[:len(half)]
	m := 0
	for r, a := range labels[lo:hi] {
		upper[r] += moved[a]
		lower[r] -= most
		// Skip when upper + slack < max(half[a], lower).
		u := upper[r] + slack
		keep := 0
		if !(u < half[a]) {
			keep = 1
		}
		if u < lower[r] {
			keep = 0
		}
		todo[m] = lo + r
		m += keep
	}
	return todo[:m]
}

// scanBlock is the number of centres scanRow compares a row with at once.
const scanBlock = 8

// packCentres copies the centres into b.packed in blocks of scanBlock
// centres, coordinate-major: packed[q·scanBlock·d + j·scanBlock + r] is
// coordinate j of centre q·scanBlock + r, NaN past the last centre (no
// comparison with it holds).
func (b *bounds) packCentres(centers *mat.Dense) {
	k, d := centers.Dims()
	for c := 0; c < len(b.packed)/d; c++ {
		q, r := c/scanBlock, c%scanBlock
		for j := 0; j < d; j++ {
			v := math.NaN()
			if c < k {
				v = centers.At(c, j)
			}
			b.packed[q*scanBlock*d+j*scanBlock+r] = v
		}
	}
}

// scanRow returns the first nearest of the k centres packed by packCentres
// to xi, its squared distance and the second smallest squared distance
// (+Inf for k = 1). Each distance is summed in the order of sqDist, so it
// is bitwise sqDist's.
func scanRow(xi, packed []float64, k int) (int, float64, float64) {
	d := len(xi)
	bc, best, second := 0, math.Inf(1), math.Inf(1)
	for c := 0; c < k; c += scanBlock {
		p := packed[c*d : (c+scanBlock)*d]
		if !hasAVX2 || d == 0 {
			for r, dd := range scanBlockGo(xi, p) {
				bc, best, second = offer(c+r, dd, bc, best, second)
			}
			continue
		}
		// The block's own nearest and second, merged as offering its
		// centres in order would (both are ≥ its nearest).
		r, bb, bs := scanBlockAVX2(d, &xi[0], &p[0])
		if bb < best {
			bc, best, second = c+r, bb, min(best, bs)
		} else {
			second = min(second, bb)
		}
	}
	return bc, best, second
}

// scanBlockGo returns the squared distances of xi to the scanBlock centres
// packed in p, as scanBlockAVX2.
func scanBlockGo(xi, p []float64) [scanBlock]float64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	for j, v := range xi {
		q := p[j*scanBlock : j*scanBlock+scanBlock : j*scanBlock+scanBlock]
		t0, t1, t2, t3 := q[0]-v, q[1]-v, q[2]-v, q[3]-v // −(v − q[r]) exactly
		s0 += t0 * t0
		s1 += t1 * t1
		s2 += t2 * t2
		s3 += t3 * t3
		t4, t5, t6, t7 := q[4]-v, q[5]-v, q[6]-v, q[7]-v
		s4 += t4 * t4
		s5 += t5 * t5
		s6 += t6 * t6
		s7 += t7 * t7
	}
	return [scanBlock]float64{s0, s1, s2, s3, s4, s5, s6, s7}
}

// offer updates the nearest centre bc, its squared distance best and the
// second smallest squared distance with centre c at squared distance dd
// (ignored when NaN).
func offer(c int, dd float64, bc int, best, second float64) (int, float64, float64) {
	if dd < best {
		return c, dd, best
	}
	if dd < second {
		return bc, best, dd
	}
	return bc, best, second
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

// move records the centres' move from b.old to centers; the next assign
// applies it to the rows' bounds (u_i grows by the move of a, l_i falls by
// the largest move), in one pass with its test.
func (b *bounds) move(centers *mat.Dense) {
	for c := range b.moved {
		b.moved[c] += math.Sqrt(sqDist(b.old.RawRowView(c), centers.RawRowView(c)))
		b.most = math.Max(b.most, b.moved[c])
	}
}
