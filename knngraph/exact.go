package knngraph

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/gemm"
	"github.com/gssl/gssl/internal/parallel"
)

var inf = math.Inf(1)

// Precision selects the arithmetic of the blocked dot products that propose
// candidates. Either way the returned neighbours and distances are exact (see
// Settings.Candidates).
type Precision int

const (
	// Float32 (the zero value) computes dot products in float32 with the
	// project's AVX2 GEMM micro-kernel (internal/gemm, Go assembly; a
	// portable Go kernel on machines without AVX2/FMA) on a packed float32
	// copy of the points.
	Float32 Precision = iota
	// Float64 computes them with gonum's BLAS (blas64.Gemm) on a centred
	// float64 copy of the points: twice the memory, and an order of
	// magnitude slower than Float32 (gonum's Dgemm is pure Go, and Exact
	// does not use the symmetric self-join here; BenchmarkExactMNIST).
	Float64
)

func (p Precision) String() string {
	switch p {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("Precision(%d)", int(p))
}

// Settings tunes the exact search. The zero value is ready to use.
type Settings struct {
	// Precision of the candidate-proposing dot products; 0 means Float32.
	Precision Precision

	// Candidates is the number of candidates per query kept from the
	// reduced-precision distances ‖x‖² + ‖y‖² − 2xᵀy before they are re-ranked
	// by exact distances. A row whose K-th exact distance is not below the
	// largest candidate distance minus a rounding-error bound is recomputed
	// by a full float64 scan, so the result is exact whatever the value; a
	// larger value makes such rescans rarer. 0 means K + max(K, 16); values
	// below K are raised to K.
	Candidates int

	// Progress, when not nil, is called after each block of query points with
	// the number of points done and the total. Calls never overlap. In
	// Exact with Float32 the count is the share of the dot products done,
	// in points; the last call, (total, total), comes after the re-ranking.
	Progress func(done, total int)
}

func (s *Settings) validate() error {
	if s.Precision != Float32 && s.Precision != Float64 {
		return fmt.Errorf("knngraph: Settings.Precision = %d is invalid: use Float32 or Float64", int(s.Precision))
	}
	if s.Candidates < 0 {
		return fmt.Errorf("knngraph: Settings.Candidates = %d is invalid: it must be ≥ 0 (0 means K + max(K, 16))", s.Candidates)
	}
	return nil
}

// Exact returns the k nearest other points of every row of x (n points in
// d dimensions), by squared Euclidean distance (SquaredDistance), ties
// broken by smaller index. A duplicate of a point is a neighbour at distance
// 0. k must be in [1, n−1]; coordinates must be finite. Memory is O(n·d) for
// a reduced-precision copy of x plus O(w·n·m) for the m = Settings.Candidates
// candidates of each point on each of the w = parallel.Workers() goroutines
// (Float32) or O(n·k) (Float64); time is O(n²·d), half of it saved in
// Float32 by computing each pair's dot product once. The result does not
// depend on the number of goroutines. s may be nil.
func Exact(ctx context.Context, x *mat.Dense, k int, s *Settings) (*Neighbors, error) {
	n, _, err := checkPoints("point", x)
	if err != nil {
		return nil, err
	}
	if s == nil {
		s = &Settings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	if s.Precision == Float32 {
		if err := checkK(k, n-1, true); err != nil {
			return nil, err
		}
		return selfJoin(ctx, newIndex(x, Float32, true), k, s)
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return ExactRows(ctx, x, rows, k, s)
}

// ExactRows is Exact for the listed rows of x only (row i of the result is
// point rows[i]); it still searches all of x. It is how a sample of exact
// neighbours is computed to measure the recall of an approximate graph.
func ExactRows(ctx context.Context, x *mat.Dense, rows []int, k int, s *Settings) (*Neighbors, error) {
	n, _, err := checkPoints("point", x)
	if err != nil {
		return nil, err
	}
	if err := checkK(k, n-1, true); err != nil {
		return nil, err
	}
	for i, r := range rows {
		if r < 0 || r >= n {
			return nil, fmt.Errorf("knngraph: rows[%d] = %d is out of range [0, %d)", i, r, n)
		}
	}
	raw := x.RawMatrix()
	q := querySet{
		n:       len(rows),
		row:     func(i int) []float64 { return row(raw.Data, raw.Stride, raw.Cols, rows[i]) },
		exclude: func(i int) int32 { return int32(rows[i]) },
	}
	return search(ctx, x, q, k, s)
}

// Query returns the k nearest points of base for every row of queries (new
// points; nothing is excluded, so a query equal to a base point finds it at
// distance 0). k must be in [1, number of base points]. It builds an Index
// of base for this one call; build one with NewIndex to answer several
// batches of queries.
func Query(ctx context.Context, base, queries *mat.Dense, k int, s *Settings) (*Neighbors, error) {
	ix, err := NewIndex(base, s)
	if err != nil {
		return nil, err
	}
	return ix.Query(ctx, queries, k)
}

// Index is a set of base points prepared for exact queries: the packed
// reduced-precision copy is built once. It keeps a reference to the base
// matrix, which must not change while the Index is used. An Index is safe
// for concurrent queries.
type Index struct {
	ix *index
	s  Settings
}

// NewIndex prepares base for Query calls. s may be nil; its Progress, if
// any, is called by every Query.
func NewIndex(base *mat.Dense, s *Settings) (*Index, error) {
	if s == nil {
		s = &Settings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	if _, _, err := checkPoints("base point", base); err != nil {
		return nil, err
	}
	return &Index{ix: newIndex(base, s.Precision, false), s: *s}, nil
}

// Len returns the number of base points.
func (ix *Index) Len() int { return ix.ix.n }

// Query returns the k nearest base points of every row of queries, as the
// function Query does.
func (ix *Index) Query(ctx context.Context, queries *mat.Dense, k int) (*Neighbors, error) {
	_, dq, err := checkPoints("query", queries)
	if err != nil {
		return nil, err
	}
	if dq != ix.ix.d {
		return nil, fmt.Errorf("knngraph: queries have %d coordinates, base points have %d", dq, ix.ix.d)
	}
	if err := checkK(k, ix.ix.n, false); err != nil {
		return nil, err
	}
	raw := queries.RawMatrix()
	q := querySet{
		n:       raw.Rows,
		row:     func(i int) []float64 { return row(raw.Data, raw.Stride, raw.Cols, i) },
		exclude: func(int) int32 { return -1 },
	}
	return run(ctx, ix.ix, q, k, &ix.s)
}

// querySet describes the query rows of a search.
type querySet struct {
	n       int
	row     func(i int) []float64 // original coordinates of query i
	exclude func(i int) int32     // base point query i may not return, or -1
}

// queryBlock is the number of queries a worker handles at once: 8 panels of
// 6 rows, about 150 kB of float32 at d = 784, which stays in L2 cache while
// the base points stream past.
const queryBlock = 8 * gemm.MR

// queryBlock64 and baseBlock64 are the block sizes of a gonum Gemm call
// (Float64): gonum's Dgemm is efficient only on larger matrices.
const (
	queryBlock64 = 256
	baseBlock64  = 1024
)

// blockRows returns the number of queries handled at once.
func blockRows(p Precision) int {
	if p == Float64 {
		return queryBlock64
	}
	return queryBlock
}

// search runs the blocked search of q against the points of x.
func search(ctx context.Context, x *mat.Dense, q querySet, k int, s *Settings) (*Neighbors, error) {
	if s == nil {
		s = &Settings{}
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	return run(ctx, newIndex(x, s.Precision, false), q, k, s)
}

// run searches the queries q against a prepared index.
func run(ctx context.Context, ix *index, q querySet, k int, s *Settings) (*Neighbors, error) {
	eligible := ix.n
	if q.n > 0 && q.exclude(0) >= 0 {
		eligible--
	}
	m := s.Candidates
	if m == 0 {
		m = k + max(k, 16)
	}
	m = min(max(m, k), eligible)
	nb := newNeighbors(q.n, k)

	qb := blockRows(s.Precision)
	blocks := (q.n + qb - 1) / qb
	var next, rescanned atomic.Int64
	var mu sync.Mutex
	done := 0
	var failed atomic.Bool
	workers := parallel.Workers()
	parallel.For(workers, 1, func(lo, hi int) {
		for range hi - lo {
			w := ix.newWorker(m, k)
			for !failed.Load() {
				b := int(next.Add(1)) - 1
				if b >= blocks {
					break
				}
				if ctx.Err() != nil {
					failed.Store(true)
					break
				}
				qlo, qhi := b*qb, min((b+1)*qb, q.n)
				rescanned.Add(int64(w.block(q, qlo, qhi, k, m, eligible, nb)))
				if s.Progress != nil {
					mu.Lock()
					done += qhi - qlo
					s.Progress(done, q.n)
					mu.Unlock()
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("knngraph: exact search stopped: %w", err)
	}
	nb.Rescanned = int(rescanned.Load())
	return nb, nil
}

// index is the base side of a search: the original points plus centred,
// reduced-precision copies for the dot products.
type index struct {
	n, d   int
	raw    []float64
	stride int
	mean   []float64
	prec   Precision

	packed *gemm.Panels[float32] // Float32: centred, scaled points in panels of gemm.NR32
	norm32 []float32             // squared norms of the packed points
	cent   []float64             // Float64: centred points, n×d
	norm64 []float64

	// cols (Float32 self-join only): the columns that are not constant,
	// the only ones packed; a constant column adds nothing to a distance
	// between base points. nil means all d.
	cols []int
	kd   int // packed depth: len(cols), or d

	scale   float64   // Float32: centred coordinates are multiplied by scale
	norms   []float64 // ‖centred (scaled) point‖ as stored
	maxNorm float64   // largest of norms
	coef    float64   // |approximate − exact distance·scale²| ≤ coef·(‖q‖ + ‖y‖)²
}

// newIndex prepares x. compact (Float32 only) packs the columns that are
// not constant only: for a self-join, where every query is a base point.
func newIndex(x *mat.Dense, prec Precision, compact bool) *index {
	raw := x.RawMatrix()
	n, d := raw.Rows, raw.Cols
	ix := &index{n: n, d: d, kd: d, raw: raw.Data, stride: raw.Stride, prec: prec}
	size := max(512, (n+63)/64)
	ix.mean = ix.columnMeans(size)
	if compact && prec == Float32 && n > 0 {
		ix.packNonConstant(raw)
	}
	ix.scale = 1
	if prec == Float32 {
		ix.scaleToUnit(size)
	}
	// Rounding-error bound of ‖q‖² + ‖y‖² − 2qᵀy for centred vectors in
	// precision u, plus the float64 error of SquaredDistance itself: the
	// classical γ_d = d·u/(1 − d·u) bound of a length-d dot product, doubled
	// for the conversions and the final additions (Higham, Accuracy and
	// Stability of Numerical Algorithms, 2nd ed., §3.1).
	u := 0x1p-53
	if prec == Float32 {
		u = 0x1p-24
	}
	ix.coef = 2*float64(d+16)*u + 4*float64(d+2)*0x1p-53
	ix.storeCentred()
	for _, v := range ix.norms {
		ix.maxNorm = max(ix.maxNorm, v)
	}
	return ix
}

// columnMeans returns the mean of each column by partial sums over fixed
// chunks of size rows, added in chunk order: the same bits for every
// number of workers.
func (ix *index) columnMeans(size int) []float64 {
	n, d := ix.n, ix.d
	mean := make([]float64, d)
	chunks := parallel.NumChunks(n, size)
	part := make([]float64, chunks*d)
	parallel.Chunks(n, size, func(c, lo, hi int) {
		sum := part[c*d : (c+1)*d]
		for i := lo; i < hi; i++ {
			for t, v := range ix.point(i) {
				sum[t] += v
			}
		}
	})
	for c := 0; c < chunks; c++ {
		for t, v := range part[c*d : (c+1)*d] {
			mean[t] += v
		}
	}
	for t := range mean {
		mean[t] /= float64(n)
	}
	return mean
}

// packNonConstant restricts the packed columns to those of raw (the
// points) that are not constant, when some are.
func (ix *index) packNonConstant(raw blas64.General) {
	cols := nonConstant(raw, ix.n, ix.d)
	if len(cols) == ix.d {
		return
	}
	ix.cols, ix.kd = cols, len(cols)
	// The mean of a constant column is that constant exactly, so its
	// centred coordinates are exactly 0 (rerank's norms).
	first := ix.point(0)
	for t := range ix.mean {
		if _, found := slices.BinarySearch(cols, t); !found {
			ix.mean[t] = first[t]
		}
	}
}

// scaleToUnit (Float32) sets scale so that the centred points lie in
// [−1, 1]: neither overflow nor subnormal numbers can occur for the base
// points.
func (ix *index) scaleToUnit(size int) {
	top := make([]float64, parallel.NumChunks(ix.n, size)) // a maximum per chunk; the order of max is immaterial
	parallel.Chunks(ix.n, size, func(c, lo, hi int) {
		var m float64
		for i := lo; i < hi; i++ {
			for t, v := range ix.point(i) {
				m = max(m, math.Abs(v-ix.mean[t]))
			}
		}
		top[c] = m
	})
	var m float64
	for _, v := range top {
		m = max(m, v)
	}
	if m > 0 {
		ix.scale = 1 / m
	}
}

// storeCentred stores the centred (Float32: scaled and packed) points and
// their norms.
func (ix *index) storeCentred() {
	n, d := ix.n, ix.d
	norms := make([]float64, n)
	ix.norms = norms
	switch ix.prec {
	case Float32:
		ix.packed = gemm.NewPanels[float32](n, ix.kd, gemm.NR32, nil)
		panels := ix.packed.Count()
		ix.norm32 = make([]float32, panels*gemm.NR32)
		parallel.For(panels, 64, func(lo, hi int) {
			buf := make([]float64, ix.kd)
			for i := lo * gemm.NR32; i < min(hi*gemm.NR32, n); i++ {
				s := ix.packRow(ix.packed, i, i, buf)
				ix.norm32[i] = float32(s)
				norms[i] = math.Sqrt(s)
			}
		})
	case Float64:
		ix.cent = make([]float64, n*d)
		ix.norm64 = make([]float64, n)
		parallel.For(n, 256, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				dst := ix.cent[i*d : (i+1)*d]
				var s float64
				for t, v := range ix.point(i) {
					c := v - ix.mean[t]
					dst[t] = c
					s += c * c
				}
				ix.norm64[i] = s
				norms[i] = math.Sqrt(s)
			}
		})
	}
}

func (ix *index) point(i int) []float64 { return row(ix.raw, ix.stride, ix.d, i) }

// packRow stores base point i, centred, scaled and restricted to ix.cols,
// as row r of p; buf is scratch of ix.kd. It returns the squared norm
// stored.
func (ix *index) packRow(p *gemm.Panels[float32], r, i int, buf []float64) float64 {
	if ix.cols == nil {
		return p.SetRow(r, ix.point(i), ix.mean, ix.scale)
	}
	pt := ix.point(i)
	for t, c := range ix.cols {
		buf[t] = (pt[c] - ix.mean[c]) * ix.scale
	}
	return p.SetRow(r, buf, nil, 1)
}

// nonConstant returns, in increasing order, the columns of the n×d matrix
// raw whose values are not all equal.
func nonConstant(raw blas64.General, n, d int) []int {
	differs := make([]bool, d)
	first := row(raw.Data, raw.Stride, d, 0)
	var mu sync.Mutex
	parallel.For(n, 1024, func(lo, hi int) {
		local := make([]bool, d)
		for i := lo; i < hi; i++ {
			for t, v := range row(raw.Data, raw.Stride, d, i) {
				local[t] = local[t] || v != first[t]
			}
		}
		mu.Lock()
		for t, b := range local {
			differs[t] = differs[t] || b
		}
		mu.Unlock()
	})
	var cols []int
	for t, b := range differs {
		if b {
			cols = append(cols, t)
		}
	}
	return cols
}

// worker holds one goroutine's scratch space.
type worker struct {
	ix    *index
	heaps []maxHeap
	qnorm []float64 // ‖centred query‖² per block row
	excl  []int32
	apack *gemm.Panels[float32] // Float32: packed query panels
	tile  []float32
	qcent []float64 // Float64: centred queries, queryBlock64×d
	prod  []float64 // Float64: queryBlock64×baseBlock64 dot products
	rs    *rerankScratch
}

func (ix *index) newWorker(m, k int) *worker {
	qb := blockRows(ix.prec)
	w := &worker{ix: ix, heaps: make([]maxHeap, qb), qnorm: make([]float64, qb), excl: make([]int32, qb),
		rs: newRerankScratch(m, k)}
	for i := range w.heaps {
		w.heaps[i] = newMaxHeap(m)
	}
	if ix.prec == Float32 {
		w.apack = gemm.NewPanels[float32](queryBlock, ix.d, gemm.MR, nil)
		w.tile = make([]float32, gemm.MR*gemm.NR32)
	} else {
		w.qcent = make([]float64, qb*ix.d)
		w.prod = make([]float64, qb*baseBlock64)
	}
	return w
}

// block searches queries [qlo, qhi) and writes their rows of nb. It returns
// the number of rows it had to rescan.
func (w *worker) block(q querySet, qlo, qhi, k, m, eligible int, nb *Neighbors) int {
	ix := w.ix
	rows := qhi - qlo
	for r := 0; r < rows; r++ {
		w.heaps[r].reset()
		w.excl[r] = q.exclude(qlo + r)
	}
	if ix.prec == Float32 {
		w.scan32(q, qlo, rows)
	} else {
		w.scan64(q, qlo, rows)
	}
	rescans := 0
	for r := 0; r < rows; r++ {
		if !w.finish(q.row(qlo+r), r, k, m, eligible, nb, qlo+r) {
			rescans++
		}
	}
	return rescans
}

// scan32 proposes candidates with the float32 kernel.
func (w *worker) scan32(q querySet, qlo, rows int) {
	ix := w.ix
	d := ix.d
	clear(w.apack.Data)
	for r := 0; r < rows; r++ {
		s := w.apack.SetRow(r, q.row(qlo+r), ix.mean, ix.scale)
		w.qnorm[r] = float64(float32(s))
	}
	const mr, nr = gemm.MR, gemm.NR32
	apanels := (rows + mr - 1) / mr
	bpanels := ix.packed.Count()
	for p := 0; p < bpanels; p++ {
		bp := ix.packed.Panel(p)
		base := p * nr
		ncol := min(nr, ix.n-base)
		bnorm := ix.norm32[base : base+nr]
		for a := 0; a < apanels; a++ {
			gemm.Kernel32(d, w.apack.Panel(a), bp, w.tile)
			for i := 0; i < min(mr, rows-a*mr); i++ {
				r := a*mr + i
				h := &w.heaps[r]
				thr := h.threshold()
				nq := float32(w.qnorm[r])
				ex := w.excl[r]
				tr := w.tile[i*nr : (i+1)*nr]
				for j := 0; j < ncol; j++ {
					dd := float64(nq + bnorm[j] - 2*tr[j])
					if dd < thr && int32(base+j) != ex {
						h.push(dd, int32(base+j))
						thr = h.threshold()
					}
				}
			}
		}
	}
}

// scan64 proposes candidates with gonum's Dgemm on centred float64 blocks.
func (w *worker) scan64(q querySet, qlo, rows int) {
	ix := w.ix
	d := ix.d
	for r := 0; r < rows; r++ {
		dst := w.qcent[r*d : (r+1)*d]
		var s float64
		for t, v := range q.row(qlo + r) {
			c := v - ix.mean[t]
			dst[t] = c
			s += c * c
		}
		w.qnorm[r] = s
	}
	qm := blas64.General{Rows: rows, Cols: d, Stride: d, Data: w.qcent[:rows*d]}
	for base := 0; base < ix.n; base += baseBlock64 {
		cols := min(baseBlock64, ix.n-base)
		bm := blas64.General{Rows: cols, Cols: d, Stride: d, Data: ix.cent[base*d : (base+cols)*d]}
		cm := blas64.General{Rows: rows, Cols: cols, Stride: baseBlock64, Data: w.prod}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, qm, bm, 0, cm)
		for r := 0; r < rows; r++ {
			h := &w.heaps[r]
			thr := h.threshold()
			nq := w.qnorm[r]
			ex := w.excl[r]
			pr := w.prod[r*baseBlock64 : r*baseBlock64+cols]
			for j, dot := range pr {
				dd := nq + ix.norm64[base+j] - 2*dot
				if dd < thr && int32(base+j) != ex {
					h.push(dd, int32(base+j))
					thr = h.threshold()
				}
			}
		}
	}
}

// finish re-ranks row r's candidates by exact distance and writes the k best
// to row out of nb. When the bound cannot certify that no other point is
// closer, the row is recomputed by a full scan; finish then returns false.
func (w *worker) finish(qrow []float64, r, k, m, eligible int, nb *Neighbors, out int) bool {
	h := &w.heaps[r]
	idx, dist := nb.Row(out)
	if w.ix.rerank(qrow, h.dist, h.idx, k, m, eligible, w.rs, idx, dist) {
		return true
	}
	w.ix.fullScan(qrow, w.excl[r], k, idx, dist)
	return false
}

// fullScan computes the k nearest base points of qrow exactly (float64,
// every point), excluding base point ex.
func (ix *index) fullScan(qrow []float64, ex int32, k int, idx []int32, dist []float64) {
	h := newMaxHeap(k)
	for j := 0; j < ix.n; j++ {
		if int32(j) == ex {
			continue
		}
		d := SquaredDistance(qrow, ix.point(j))
		if !h.full() || less(d, int32(j), h.dist[0], h.idx[0]) {
			h.push(d, int32(j))
		}
	}
	sortPairs(h.dist, h.idx)
	copy(idx, h.idx)
	copy(dist, h.dist)
}
