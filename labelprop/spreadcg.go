package labelprop

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/internal/parallel"
	"github.com/gssl/gssl/krylov"
)

//go:generate go run gen_rows.go

// spreadRowChunk is the number of rows per task of the fused CG and
// Chebyshev passes (krylov.RowPasses).
const spreadRowChunk = krylov.RowChunk

// spreadParallelWork is the work, in stored entries of the graph plus
// entries of an n×c block, below which the fused passes run on the calling
// goroutine (krylov.ParallelWork).
const spreadParallelWork = krylov.ParallelWork

// spreadingCG is block conjugate gradients on (I − aS) F = B,
// S = D^{-1/2} W D^{-1/2}: krylov.BlockCGWith, the one block CG recursion
// (one CG per column in lockstep, a column stopping at relative residual
// Tol; without deflation the iterates of krylov.BlockCG on I − aS in exact
// arithmetic, checked against it in the tests; with it, defl, deflated CG,
// deflate.go), run on passes (krylov.BlockCGPasses)
// specialised for label spreading, which make an iteration cost little
// more than its product with W:
//
//   - S is never formed. The search directions are stored scaled, p̃ = t∘p
//     with t_i = d_i^{-1/2} (1 for an isolated node), so that
//     (I − aS)p = u∘p̃ − a t'∘(W p̃) with u = 1/t and t' = d^{-1/2} (0 for an
//     isolated node): a product with W itself, which reads only the pattern
//     of an unweighted graph (graph.CSR.UnitWeights).
//   - Three row passes per iteration, each reading the rows once: the
//     product fused with pᵀAp on the rows just computed (Product); r ← r −
//     αAp with ‖r‖² (Update); and x ← x + αp fused with p ← r + βp (Step).
//   - No vector is allocated per iteration (only the small closures of the
//     passes), and the passes run on one goroutine when the problem is too
//     small for a second one to pay.
//   - R, P and Q are stored in column panels (spreadPanels; one panel, the
//     row-major block, unless spreadPanelBytes is set): panel k holds
//     columns [c0, c0+w) as a contiguous row-major n×w block. The product
//     runs panel by panel, so its random reads of P̃ touch n·w·8 bytes at a
//     time: a panel that fits the last-level cache is read from it, where
//     the whole n×c block would be read from memory. Each column's
//     arithmetic, and the order of every sum, is the same whatever the
//     panels, so the iterates are bitwise those of one row-major block
//     (tested). X, the caller's block, stays row-major.
type spreadingCG struct {
	g *graph.CSR
	s krylov.Settings

	t, u []float64     // p̃ = t∘p, p = u∘p̃
	deg  []float64     // the degrees d_i
	op   graph.Scaling // Diag u, Left −a·d^{-1/2}: (I − aS)p = op applied to p̃

	b      sparseRHS  // B by its nonzero rows
	bChunk []int      // per row chunk, the index in b.rows of its first row
	x      *mat.Dense // the caller's X, row-major
	// r, p and q in panel layout (n·c entries each); p holds p̃ and
	// q = (I − aS)p.
	r, p, q []float64
	panels  []panel
	pv, qv  []*mat.Dense // per panel, its n×w block of p and of q

	bnorm []float64
	// sums holds a product's c sums pᵀq, then its c sums d_i·p̃_i (for
	// the deflation); psums is one panel's.
	sums, psums []float64

	// defl, when not nil, deflates the known eigenvector (deflate.go).
	defl *deflation

	// seg, when not nil, is the graph split into column segments: the
	// product sums each row segment by segment, one pass over the rows
	// per segment, so that its gathers read a part of p̃ that fits the
	// last-level cache (spreadSegments); bitwise the one-pass product.
	seg *graph.ColumnSegments

	// supp marks p̃'s nonzero rows (bit i%64 of supp[i/64]) and suppRows
	// counts them, when suppOK: Restart and Step record them while they
	// are few, and the product then reads the nonzero rows only
	// (pushProduct, nearProduct; bitwise the full product).
	// From labels on a few nodes, p̃ is nonzero on the seeds and their
	// neighbourhoods only: the first products of a solve are nearly free.
	supp      []uint64
	suppRows  int
	suppOK    bool
	suppCount []int // per row chunk, its nonzero rows
	// suppEntries counts the stored entries of W in the rows of the
	// support (per row chunk in suppNNZ): the cost of a pushProduct.
	suppEntries int
	suppNNZ     []int
	// supportProducts counts the products that skipped zero rows,
	// pushProducts those of them that pushed from the support.
	supportProducts, pushProducts int

	// near marks the rows of p̃'s support and their neighbours, the rows
	// of q a support product can make nonzero; qNear those where q may be
	// nonzero (all of them when qAll). A product whose near rows are few
	// computes those rows only (nearProduct); nearProducts counts them.
	near, qNear  []uint64
	qAll         bool
	nearProducts int

	// live marks the rows where R, P̃ or Q may be nonzero, and the passes
	// visit those only, until liveAll (liverows.go).
	live    []uint64
	liveAll bool
	// liveUpdates counts the updates that visited the live rows only.
	liveUpdates int

	// p32, when not nil, is p̃ in float32 with rows of p32w entries
	// (8 or 16), which the full products gather from (gather32.go); p32ok
	// says it holds p̃ (Step and Restart round p̃ to it).
	p32   []float32
	p32w  int
	p32ok bool

	// zeroX says that x is zero on entry (a cold fit's fresh F): the
	// first Residual then takes R = B without reading x, whose pages a
	// fresh block has not yet faulted in.
	zeroX bool

	// gap, when not nil, bounds the true residual of a cold solve without
	// a product (resbound.go); a is the solve's a, maxRow g's longest row.
	gap    *residualGap
	a      float64
	maxRow int

	n, c int
	*krylov.RowPasses
}

// panel is a column panel of the CG blocks: columns [c0, c0+w), stored
// row-major from entry n·c0 of the block.
type panel struct{ c0, w int }

// spreadPanelBytes is the largest panel of the product's input, in bytes,
// when the n×c block is larger; 0 turns panels off. It is 0: on the
// 10 M-edge graph of BENCHMARKS.md ("Loading and scale"), panels sized to a
// quarter of a 32 MiB last-level cache (8 MiB, one column) are slower than
// the row-major block, and panels of 2 and 3 columns no faster
// (BenchmarkSpreadingScale). The panels stay for machines with more cache
// to spare: set it there, and time it.
var spreadPanelBytes = 0

// spreadPanelsDefault is the panel budget the tests exercise spreadPanels
// with.
const spreadPanelsDefault = 8 << 20

// spreadPanels returns the column panels of an n×c solve: one panel (the
// row-major block) when the block fits spreadPanelBytes or when not even a
// single column does (then every panel would be read from memory, and
// narrower panels only read the graph more often); otherwise the fewest
// panels of at most spreadPanelBytes, of widths differing by at most one.
// width > 0 forces panels of at most width columns (tests, benchmarks).
func spreadPanels(n, c, width int) []panel {
	w := width
	if w <= 0 {
		col := 8 * n
		if col == 0 || spreadPanelBytes <= 0 || c*col <= spreadPanelBytes || col > spreadPanelBytes {
			return []panel{{0, c}}
		}
		w = spreadPanelBytes / col
	}
	k := (c + w - 1) / w
	out := make([]panel, k)
	c0 := 0
	for i := range out {
		pw := c / k
		if i < c%k {
			pw++
		}
		out[i] = panel{c0, pw}
		c0 += pw
	}
	return out
}

// newSpreadingCG prepares a solve of (I − aS) X = B for the graph g of W,
// with x the initial guess.
func newSpreadingCG(g *graph.CSR, a float64, b, x *mat.Dense, s krylov.Settings) (*spreadingCG, error) {
	rhs, err := checkedRHS(g, b, x, "spreading CG")
	if err != nil {
		return nil, err
	}
	return newCGRHS(g, a, rhs, x, s)
}

// checkedRHS returns the nonzero rows of b after checking that b and x are
// n×c for the n nodes of g; what names the solver in the error.
func checkedRHS(g *graph.CSR, b, x *mat.Dense, what string) (sparseRHS, error) {
	n := g.Nodes()
	br, c := b.Dims()
	if xr, xc := x.Dims(); br != n || xr != n || xc != c {
		return sparseRHS{}, fmt.Errorf("labelprop: %s: graph has %d nodes, B is %d×%d, X is %d×%d", what, n, br, c, xr, xc)
	}
	return denseRHS(b), nil
}

// newCGRHS is newSpreadingCG with B given by its nonzero rows (no n×c block
// for B).
func newCGRHS(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings) (*spreadingCG, error) {
	return newCGWork(g, a, b, x, s, nil, nil)
}

// newCGWork is newCGRHS with the storage of r, p and q taken from work
// (3·n·c entries, zeroed) when it is not nil, and the scalings of prev (a
// solve on the same graph and a) when it is not nil.
func newCGWork(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings, work []float64, prev *spreadingCG) (*spreadingCG, error) {
	return newCGPanels(g, a, b, x, s, work, prev, 0)
}

// newCGPanels is newCGWork with panels of at most width columns (0: the
// panels of spreadPanels).
func newCGPanels(g *graph.CSR, a float64, b sparseRHS, x *mat.Dense, s krylov.Settings, work []float64, prev *spreadingCG, width int) (*spreadingCG, error) {
	n, c := g.Nodes(), b.c
	if xr, xc := x.Dims(); xr != n || xc != c {
		return nil, fmt.Errorf("labelprop: spreading CG: graph has %d nodes, B has %d columns, X is %d×%d", n, c, xr, xc)
	}
	if x.RawMatrix().Stride != c {
		return nil, fmt.Errorf("labelprop: spreading CG: X has stride %d, want contiguous rows (stride %d)", x.RawMatrix().Stride, c)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.MaxIter == 0 {
		s.MaxIter = min(2*n+100, DefaultMaxIter)
	}
	var err error
	cg := &spreadingCG{
		g: g, s: s,
		b: b, bChunk: b.chunks(n), x: x,
		// huge pages when large: every product gathers rows of p at random
		r: workBlock(work, 0, n*c), p: workBlock(work, 1, n*c), q: workBlock(work, 2, n*c),
		panels: spreadPanels(n, c, width),
		bnorm:  b.norms(), sums: make([]float64, 2*c), psums: make([]float64, 2*c),
		a: a, n: n, c: c,
		RowPasses: krylov.NewRowPasses(n, 2*c, g.NNZ()+n*c),
	}
	if len(cg.panels) == 1 {
		chunks := (n + spreadRowChunk - 1) / spreadRowChunk
		cg.supp, cg.suppCount, cg.suppNNZ = make([]uint64, (n+63)/64), make([]int, chunks), make([]int, chunks)
		cg.near, cg.qNear = make([]uint64, (n+63)/64), make([]uint64, (n+63)/64)
	}
	cg.initLive()
	for _, pn := range cg.panels {
		lo, hi := n*pn.c0, n*(pn.c0+pn.w)
		cg.pv = append(cg.pv, mat.NewDense(n, pn.w, cg.p[lo:hi:hi]))
		cg.qv = append(cg.qv, mat.NewDense(n, pn.w, cg.q[lo:hi:hi]))
	}
	if prev != nil {
		cg.t, cg.u, cg.op, cg.deg, cg.maxRow = prev.t, prev.u, prev.op, prev.deg, prev.maxRow
		if len(cg.panels) == 1 {
			cg.seg = prev.seg
		}
	} else {
		if k := spreadSegments(n, c); k > 1 && len(cg.panels) == 1 {
			if cg.seg, err = g.ColumnSegments(k); err != nil {
				return nil, fmt.Errorf("labelprop: %w", err)
			}
		}
		cg.setScalings(g, a)
		cg.maxRow = longestRow(g)
	}
	cg.initGather32(prev)
	if prev == nil {
		if cg.defl, err = newDeflation(g, cg.deg, cg.t, a, b); err != nil {
			return nil, err
		}
	} else if prev.defl != nil {
		cg.defl = prev.defl.forRHS(cg.t, b)
	}
	// The solution of a zero column of B is zero; such a column never moves
	// again (its α stays 0).
	xd := x.RawMatrix().Data
	for j, nb := range cg.bnorm {
		for i := 0; i < n && nb == 0; i++ {
			xd[i*c+j] = 0
		}
	}
	return cg, nil
}

// setScalings sets the degrees d, t = d^{-1/2}, u = d^{1/2} (1 and 1 on
// isolated nodes, whose rows of S are zero: p̃_i = p_i) and op, whose Left
// is −a·d^{-1/2} (−0 on isolated nodes): t, u and Left in one allocation,
// formed in parallel.
func (cg *spreadingCG) setScalings(g *graph.CSR, a float64) {
	n := cg.n
	cg.deg = g.Degrees()
	s := make([]float64, 3*n)
	t, u, left := s[:n:n], s[n:2*n:2*n], s[2*n:]
	parallel.For(n, spreadRowChunk, func(lo, hi int) {
		for i, d := range cg.deg[lo:hi] {
			i += lo
			if d == 0 {
				t[i], u[i], left[i] = 1, 1, -a*0
				continue
			}
			u[i] = math.Sqrt(d)
			t[i] = 1 / u[i]
			left[i] = -a * t[i]
		}
	})
	cg.t, cg.u = t, u
	cg.op = graph.Scaling{Diag: u, Left: left}
}

// rows returns entries [lo, hi) of panel k's rows of a block in panel
// layout, and the panel's first column and width.
func (cg *spreadingCG) rows(v []float64, k, lo, hi int) ([]float64, int, int) {
	pn := cg.panels[k]
	o := cg.n * pn.c0
	return v[o+lo*pn.w : o+hi*pn.w], pn.c0, pn.w
}

// product sets q = (I − aS)p from the scaled p̃ and, when dst is not nil,
// returns pᵀAp per column in dst (deflated: that of the projected P p).
func (cg *spreadingCG) product(dst []float64) []float64 {
	switch {
	case cg.sparseSupport() && cg.fewNear():
		cg.nearProduct(dst != nil)
	case cg.sparseSupport() && spreadPushShare > 0 && cg.suppEntries*spreadPushShare <= cg.g.NNZ():
		cg.qAll, cg.liveAll = true, true
		cg.pushProduct(dst != nil)
	case cg.sparseSupport():
		cg.qAll, cg.liveAll = true, true
		cg.supportProduct(dst != nil)
	case cg.p32 != nil && cg.p32ok:
		cg.qAll, cg.liveAll = true, true
		cg.gather32Product(dst != nil)
	case cg.p32 != nil && dst == nil:
		cg.qAll, cg.liveAll = true, true
		cg.splitProduct()
	case cg.seg != nil:
		cg.qAll, cg.liveAll = true, true
		cg.segmentProduct(dst != nil)
	default:
		cg.qAll, cg.liveAll = true, true
		cg.panelProduct(dst != nil)
	}
	if dst == nil {
		return nil
	}
	c := cg.c
	if cg.defl != nil {
		copy(cg.defl.pi, cg.sums[c:])
		cg.defl.projectPAP(dst, cg.sums[:c], cg.sums[c:])
	} else {
		copy(dst, cg.sums[:c])
	}
	return dst
}

// panelProduct is product by column panels, one pass over the rows per
// panel; with sums it sets cg.sums (pᵀq per column, then the sums of
// d_i·p̃_i).
func (cg *spreadingCG) panelProduct(sums bool) {
	u, c := cg.u, cg.c
	d := cg.deflationDegrees()
	for k := range cg.panels {
		var dst []float64
		if sums {
			dst = cg.psums
		}
		cg.Run(dst, func(_, lo, hi int, acc []float64) {
			cg.g.ScaledMulBlockRowsTo(cg.qv[k], cg.pv[k], cg.op, lo, hi)
			if !sums {
				return
			}
			p, c0, w := cg.rows(cg.p, k, lo, hi)
			q, _, _ := cg.rows(cg.q, k, lo, hi)
			addPQ(acc[c0:c0+w], acc[c+c0:c+c0+w], u, d, p, q, w, lo, hi)
		})
		if sums {
			pn := cg.panels[k]
			copy(cg.sums[pn.c0:pn.c0+pn.w], cg.psums[pn.c0:pn.c0+pn.w])
			copy(cg.sums[c+pn.c0:c+pn.c0+pn.w], cg.psums[c+pn.c0:c+pn.c0+pn.w])
		}
	}
}

// deflationDegrees returns the degrees when the solve is deflated, else
// nil.
func (cg *spreadingCG) deflationDegrees() []float64 {
	if cg.defl == nil {
		return nil
	}
	return cg.deg
}

// addPQ adds u_i·p_ij·q_ij to acc[j] over the rows [lo, hi) of p and q, w
// entries each, and when d is not nil d_i·p_ij to accD[j]: flat loops over
// the entries, j cycling over the columns (per-row slicing cost more than
// the arithmetic).
func addPQ(acc, accD, u, d, p, q []float64, w, lo, hi int) {
	if addPQW(acc, accD, u, d, p, q, w, lo, hi) {
		return
	}
	addPQLoop(acc, accD, u, d, p, q, w, lo, hi)
}

// addPQLoop is addPQ for any width w: the reference of the generated
// kernels (rows_gen.go).
func addPQLoop(acc, accD, u, d, p, q []float64, w, lo, hi int) {
	q = q[:len(p)]
	i, j, ui := lo, 0, u[lo]
	if d == nil {
		for e, pe := range p {
			acc[j] += ui * pe * q[e]
			if j++; j == w {
				j, i = 0, i+1
				if i < hi {
					ui = u[i]
				}
			}
		}
		return
	}
	accD = accD[:w]
	di := d[lo]
	for e, pe := range p {
		acc[j] += ui * pe * q[e]
		accD[j] += di * pe
		if j++; j == w {
			j, i = 0, i+1
			if i < hi {
				ui, di = u[i], d[i]
			}
		}
	}
}

// spreadSupportShare is the inverse of the largest share of nonzero rows
// of p̃ for which the product skips its zero rows: up to n/4 of them. 0
// turns the support off (tests).
var spreadSupportShare = 4

// spreadPushShare is the inverse of the largest share of W's stored
// entries in the rows of p̃'s support for which a support product pushes
// from those rows (pushProduct, on one goroutine, a random update of a row
// of q per entry) rather than pull over every row (supportProduct, in
// parallel, a sequential test per stored entry): the push pays while those
// entries are a small share. 0 turns the push off (tests).
var spreadPushShare = 16

// sparseSupport reports whether p̃'s nonzero rows are known and few enough
// for pushProduct or supportProduct.
func (cg *spreadingCG) sparseSupport() bool {
	return spreadSupportShare > 0 && cg.suppOK && cg.suppRows*spreadSupportShare <= cg.n
}

// markSupport records which rows [lo, hi) of p̃ (row chunk k, in the
// one-panel layout) hold a nonzero entry.
func (cg *spreadingCG) markSupport(k, lo, hi int) {
	c := cg.c
	words := cg.supp[lo/64 : (hi+63)/64] // lo is a multiple of 64: the chunk's own words
	clear(words)
	count, entries := 0, 0
	mark := func(i int) {
		for _, v := range cg.p[i*c : i*c+c] {
			if v != 0 {
				words[(i-lo)/64] |= 1 << (i % 64)
				count++
				entries += cg.g.RowLen(i)
				break
			}
		}
	}
	if cg.liveAll {
		for i := lo; i < hi; i++ {
			mark(i)
		}
	} else {
		cg.eachLive(lo, hi, mark)
	}
	cg.suppCount[k], cg.suppNNZ[k] = count, entries
}

// countSupport sets suppRows and suppEntries from the chunks' counts and
// marks the support known.
func (cg *spreadingCG) countSupport() {
	cg.suppRows, cg.suppEntries = 0, 0
	for k, v := range cg.suppCount {
		cg.suppRows += v
		cg.suppEntries += cg.suppNNZ[k]
	}
	cg.suppOK = true
}

// segmentProduct is product with the column segments of cg.seg: one pass
// over the rows per segment, each adding its terms to q's rows, the last
// one also scaling them and summing pᵀq.
func (cg *spreadingCG) segmentProduct(sums bool) {
	u, c, k, d := cg.u, cg.c, cg.seg.Len(), cg.deflationDegrees()
	for s := 0; s < k-1; s++ {
		cg.Run(nil, func(_, lo, hi int, _ []float64) {
			cg.seg.AddBlockRowsTo(cg.q, c, cg.p, c, c, s, lo, hi)
		})
	}
	var dst []float64
	if sums {
		dst = cg.sums
	}
	cg.Run(dst, func(_, lo, hi int, acc []float64) {
		cg.seg.AddBlockRowsTo(cg.q, c, cg.p, c, c, k-1, lo, hi)
		cg.seg.FinishRows(cg.q, c, cg.p, c, c, cg.op, lo, hi)
		if sums {
			addPQ(acc[:c], acc[c:], u, d, cg.p[lo*c:hi*c], cg.q[lo*c:hi*c], c, lo, hi)
		}
	})
}

// spreadSegmentBytes is the largest column segment of p̃, in bytes, that
// spreadSegments aims for (0: no segments); spreadMaxSegments the most
// segments, beyond which the extra passes over q cost more than the
// gathers save. Segments are off: on the 10 M-edge graph of BENCHMARKS.md
// (1 M nodes, 5 classes, a 40 MB block) 5 segments of 8 MB took twice the
// one-pass product's time on this machine's 32 MiB L3, shared with other
// virtual machines (BenchmarkSpreadingScale/segments/5 against /1): the
// segments' gathers do not stay in the cache. Set it where they do, and
// time it.
var (
	spreadSegmentBytes = 0
	spreadMaxSegments  = 8
)

// spreadSegments returns the number of column segments of the CG product
// of an n×c block: 1 (no segments) when the block fits spreadSegmentBytes
// or would need more than spreadMaxSegments of them.
func spreadSegments(n, c int) int {
	if spreadSegmentBytes <= 0 {
		return 1
	}
	k := (8*n*c + spreadSegmentBytes - 1) / spreadSegmentBytes
	if k > spreadMaxSegments || k > n {
		return 1
	}
	return max(k, 1)
}

// Update applies r ← r − α∘q and sets ‖r_j‖² in rr (deflated: ‖P r_j‖²).
func (cg *spreadingCG) Update(rr, alpha []float64) {
	c, t, d := cg.c, cg.t, cg.deflationDegrees()
	dst := rr
	if d != nil {
		dst = cg.sums
	}
	if !cg.liveAll {
		cg.liveUpdates++
	}
	cg.Run(dst, func(_, lo, hi int, acc []float64) {
		if !cg.liveAll {
			cg.eachLiveRun(lo, hi, func(a, b int) {
				updateRows(acc[:c], acc[c:], alpha, cg.r[a*c:b*c], cg.q[a*c:b*c], t, d, c, a, b)
			})
			return
		}
		for k := range cg.panels {
			r, c0, w := cg.rows(cg.r, k, lo, hi)
			q, _, _ := cg.rows(cg.q, k, lo, hi)
			updateRows(acc[c0:c0+w], acc[c+c0:c+c0+w], alpha[c0:c0+w], r, q, t, d, w, lo, hi)
		}
	})
	ss := rr
	if d != nil {
		cg.defl.projectRR(rr, cg.sums[:c], cg.sums[c:])
		ss = cg.sums[:c]
	}
	if cg.gap != nil {
		cg.gap.update(alpha, rr, ss)
	}
}

// updateRows applies r ← r − α∘q to the rows [lo, hi) of a panel of width
// w and adds r_ij² to acc[j], and when d is not nil d_i·t_i·r_ij to
// accD[j]: by the AVX2 kernels for 5 to 8 columns where the CPU has them
// (updateRowsSIMD), else the generated ones.
func updateRows(acc, accD, alpha, r, q, t, d []float64, w, lo, hi int) {
	if updateRowsSIMD(acc, accD, alpha, r, q, t, d, w, lo, hi) || updateRowsW(acc, accD, alpha, r, q, t, d, w, lo, hi) {
		return
	}
	updateRowsLoop(acc, accD, alpha, r, q, t, d, w, lo, hi)
}

// updateRowsLoop is updateRows for any width w: the reference of the
// generated kernels (rows_gen.go).
func updateRowsLoop(acc, accD, alpha, r, q, t, d []float64, w, lo, hi int) {
	q = q[:len(r)]
	j := 0
	if d == nil {
		for e, re := range r {
			v := re - alpha[j]*q[e]
			r[e] = v
			acc[j] += v * v
			if j++; j == w {
				j = 0
			}
		}
		return
	}
	accD = accD[:w]
	i, ei := lo, d[lo]*t[lo]
	for e, re := range r {
		v := re - alpha[j]*q[e]
		r[e] = v
		acc[j] += v * v
		accD[j] += ei * v
		if j++; j == w {
			j, i = 0, i+1
			if i < hi {
				ei = d[i] * t[i]
			}
		}
	}
}

// Step applies x ← x + α∘p and then p ← on∘(r + β∘p), on the scaled p̃.
func (cg *spreadingCG) Step(alpha, beta, on []float64) {
	// p̃'s support grows by a neighbourhood per iteration: follow it while
	// the product can use it.
	track := cg.sparseSupport()
	cg.suppOK = false
	var kr, kp []float64
	if df := cg.defl; df != nil {
		df.assembled = false
		var some bool
		if kr, kp, some = df.projections(); !some {
			kr = nil
		}
	}
	if kr != nil {
		cg.liveAll = true // the projection moves R on every row of e
	}
	cg.Run(nil, func(ch, lo, hi int, _ []float64) {
		switch {
		case kr != nil:
			for k := range cg.panels {
				cg.stepProjected(k, lo, hi, alpha, beta, on, kr, kp)
			}
			cg.round32(lo, hi)
		case !cg.liveAll:
			cg.eachLiveRun(lo, hi, func(a, b int) {
				if !cg.stepRows(0, a, b, alpha, beta, on) {
					cg.round32(a, b)
				}
			})
		default:
			rounded := false
			for k := range cg.panels {
				rounded = cg.stepRows(k, lo, hi, alpha, beta, on)
			}
			if !rounded {
				cg.round32(lo, hi)
			}
		}
		if track {
			cg.markSupport(ch, lo, hi)
		}
	})
	if track {
		cg.countSupport()
	}
	cg.p32ok = true
}

// stepRows is Step on panel k's rows [lo, hi): x ← x + α∘p, then
// p ← on∘(r + β∘p). It reports whether it also rounded the new p̃ into
// p32 (round32), which it does for rows of 8 float32: panels of 5 to 8
// columns by the AVX2 kernels where the CPU has them (stepRows32SIMD,
// bitwise as the generated Go kernels).
func (cg *spreadingCG) stepRows(k, lo, hi int, alpha, beta, on []float64) bool {
	c := cg.c
	xd := cg.x.RawMatrix().Data
	p, c0, w := cg.rows(cg.p, k, lo, hi)
	r, _, _ := cg.rows(cg.r, k, lo, hi)
	alpha, beta, on = alpha[c0:c0+w], beta[c0:c0+w], on[c0:c0+w]
	x := xd[lo*c+c0 : (hi-1)*c+c0+w]
	if cg.p32w == 8 {
		p32 := cg.p32[lo*8 : hi*8]
		if stepRows32SIMD(x, c, p, r, cg.t, cg.u, alpha, beta, on, p32, w, lo, hi) || stepRows32W(x, c, p, r, cg.t, cg.u, alpha, beta, on, p32, w, lo, hi) {
			return true
		}
	}
	if !stepRowsW(x, c, p, r, cg.t, cg.u, alpha, beta, on, w, lo, hi) {
		stepRowsLoop(x, c, p, r, cg.t, cg.u, alpha, beta, on, w, lo, hi)
	}
	return false
}

// stepRowsLoop is stepRows on the rows [lo, hi) of a panel of width w (x
// with row stride c) for any w: the reference of the generated kernels
// (rows_gen.go).
func stepRowsLoop(x []float64, c int, p, r, t, u, alpha, beta, on []float64, w, lo, hi int) {
	r = r[:len(p)]
	i, j, o, ti, ui := lo, 0, 0, t[lo], u[lo]
	for e, pe := range p {
		x[o+j] += alpha[j] * (ui * pe)
		p[e] = on[j] * (ti*r[e] + beta[j]*pe)
		if j++; j == w {
			j, i, o = 0, i+1, o+c
			if i < hi {
				ti, ui = t[i], u[i]
			}
		}
	}
}

// stepProjected is Step on panel k's rows [lo, hi) with the explicit
// projection of deflation.projections: x ← x + α∘p, r ← P r (by kr),
// p ← on∘(r + β∘P p) (by kp).
func (cg *spreadingCG) stepProjected(k, lo, hi int, alpha, beta, on, kr, kp []float64) {
	c, t, u, d := cg.c, cg.t, cg.u, cg.deg
	xd := cg.x.RawMatrix().Data
	p, c0, w := cg.rows(cg.p, k, lo, hi)
	r, _, _ := cg.rows(cg.r, k, lo, hi)
	r = r[:len(p)]
	alpha, beta, on = alpha[c0:c0+w], beta[c0:c0+w], on[c0:c0+w]
	kr, kp = kr[c0:c0+w], kp[c0:c0+w]
	x := xd[lo*c+c0 : (hi-1)*c+c0+w]
	i, j, o := lo, 0, 0
	ti, ui, ei, fi := t[lo], u[lo], d[lo]*t[lo], indicator(d[lo] > 0)
	for e, pe := range p {
		x[o+j] += alpha[j] * (ui * pe)
		rv := r[e] - kr[j]*ei
		r[e] = rv
		p[e] = on[j] * (ti*rv + beta[j]*(pe-kp[j]*fi))
		if j++; j == w {
			j, i, o = 0, i+1, o+c
			if i < hi {
				ti, ui, ei, fi = t[i], u[i], d[i]*t[i], indicator(d[i] > 0)
			}
		}
	}
}

// indicator returns 1 for true and 0 for false.
func indicator(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

var _ krylov.BlockCGPasses = (*spreadingCG)(nil)

// run solves by krylov.BlockCGWith; on failure x holds the last iterate.
func (cg *spreadingCG) run(ctx context.Context) (krylov.BlockResult, error) {
	res, err := krylov.BlockCGWith(ctx, cg, cg.bnorm, cg.s, "spreading CG")
	cg.assemble() // a solve done at its first residual leaves x_s = 0
	return res, err
}

// Precondition sets rz = rr: there is no preconditioner (Z = R). Deflated,
// Z = P R: rz_j = ‖P r_j‖², rr_j less the correction a true residual left.
func (cg *spreadingCG) Precondition(rz, rr []float64) {
	copy(rz, rr)
	if df := cg.defl; df != nil {
		for j, v := range df.corr {
			rz[j] = max(rz[j]-v, 0)
		}
		clear(df.corr)
	}
}

// Product sets q = (I − aS)p from the scaled p̃ and pap = pᵀq per column.
// With a gap bound it records the directions' norms.
func (cg *spreadingCG) Product(pap []float64) {
	cg.product(pap)
	if cg.gap != nil && !cg.gap.directions(cg.sums[:cg.c]) {
		cg.gap = nil
	}
}

// Residual sets R = B − (I − aS)X (R = B without a product when first and
// X is zero) and rr_j = ‖r_j‖²; it returns the products taken. Deflated,
// X is assembled first (assemble), so rr is that of the iterate on the
// original system; from a zero X, which stands for (eᵀb/(1 − a))e, rr_j is
// that iterate's ‖P b_j‖².
func (cg *spreadingCG) Residual(rr []float64, first bool) int {
	cg.suppOK = false // p̃ is scratch here
	xZero := first && (cg.zeroX || !slices.ContainsFunc(cg.x.RawMatrix().Data[:cg.n*cg.c], func(v float64) bool { return v != 0 }))
	if !xZero {
		cg.liveAll = true
		cg.assemble()
		cg.scaleX()
		cg.product(nil)
	}
	c, d := cg.c, cg.deflationDegrees()
	dst := rr
	if d != nil {
		dst = cg.sums
	}
	cg.Run(dst, func(ch, lo, hi int, acc []float64) {
		if !cg.liveAll {
			cg.residualLive(acc, ch, lo, hi)
			return
		}
		for k := range cg.panels {
			cg.residualRows(acc, k, ch, lo, hi, xZero)
		}
	})
	if df := cg.defl; df != nil {
		if xZero {
			df.projectRR(rr, cg.sums[:c], cg.sums[c:])
			clear(df.corr)
			df.assembled = false
		} else {
			copy(rr, cg.sums[:c])
			copy(df.rho, cg.sums[c:])
			for j, v := range df.rho {
				df.corr[j] = (v / df.norm) * (v / df.norm)
			}
		}
	}
	cg.gap = nil
	if xZero {
		cg.gap = newResidualGap(cg.a, cg.n, cg.maxRow, c)
	}
	if xZero {
		return 0
	}
	return 1
}

// scaleX sets p̃ = t∘x (scratch for the product of Residual: Restart
// rebuilds p from r).
func (cg *spreadingCG) scaleX() {
	c, t := cg.c, cg.t
	xd := cg.x.RawMatrix().Data
	cg.p32ok = false
	cg.Run(nil, func(_, lo, hi int, _ []float64) {
		for k := range cg.panels {
			p, c0, w := cg.rows(cg.p, k, lo, hi)
			x := xd[lo*c+c0 : (hi-1)*c+c0+w]
			i, j, o, ti := lo, 0, 0, t[lo]
			for e := range p {
				p[e] = ti * x[o+j]
				if j++; j == w {
					j, i, o = 0, i+1, o+c
					if i < hi {
						ti = t[i]
					}
				}
			}
		}
	})
}

// residualRows sets panel k's rows [lo, hi) (row chunk ch) of r to B − q,
// or to B when xZero, and adds ‖r_j‖² to acc[j] and, deflated,
// d_i·t_i·r_ij to acc[c+j].
func (cg *spreadingCG) residualRows(acc []float64, k, ch, lo, hi int, xZero bool) {
	c := cg.c
	r, c0, w := cg.rows(cg.r, k, lo, hi)
	if xZero {
		clear(r)
	} else {
		q, _, _ := cg.rows(cg.q, k, lo, hi)
		q = q[:len(r)]
		for e, v := range q {
			r[e] = -v
		}
	}
	b := cg.b
	for p := cg.bChunk[ch]; p < len(b.rows) && b.rows[p] < hi; p++ {
		o := (b.rows[p] - lo) * w
		for j, v := range b.vals[p*c+c0 : p*c+c0+w] {
			r[o+j] += v
		}
	}
	sq := acc[c0 : c0+w]
	j := 0
	for _, v := range r {
		sq[j] += v * v
		if j++; j == w {
			j = 0
		}
	}
	if cg.defl == nil {
		return
	}
	ed := acc[c+c0 : c+c0+w]
	for i := lo; i < hi; i++ {
		ei := cg.deg[i] * cg.t[i]
		for j, v := range r[(i-lo)*w : (i-lo+1)*w] {
			ed[j] += ei * v
		}
	}
}

// assemble writes into X, when it holds x_s, the iterate of the deflated
// recursion, x_s + γe with γ_j = eᵀb_j/(1 − a) − eᵀx_s,j: two passes
// over X.
func (cg *spreadingCG) assemble() {
	df := cg.defl
	if df == nil || df.assembled {
		return
	}
	c, t := cg.c, cg.t
	xd := cg.x.RawMatrix().Data
	raw := cg.Run(cg.psums[:c], func(_, lo, hi int, acc []float64) {
		for i := lo; i < hi; i++ {
			ei := cg.deg[i] * t[i]
			for j, v := range xd[i*c : i*c+c] {
				acc[j] += ei * v
			}
		}
	})
	gamma := df.assembleGamma(raw)
	cg.Run(nil, func(_, lo, hi int, _ []float64) {
		for i := lo; i < hi; i++ {
			ei := df.weight(i, t)
			for j := range xd[i*c : i*c+c] {
				xd[i*c+j] += gamma[j] * ei
			}
		}
	})
	df.assembled = true
}

// restartRows sets panel k's rows [lo, hi) of p̃ to on∘(t∘r).
func (cg *spreadingCG) restartRows(k, lo, hi int, on []float64) {
	t := cg.t
	p, c0, w := cg.rows(cg.p, k, lo, hi)
	r, _, _ := cg.rows(cg.r, k, lo, hi)
	r = r[:len(p)]
	on = on[c0 : c0+w]
	i, j, ti := lo, 0, t[lo]
	for e, v := range r {
		p[e] = on[j] * (ti * v)
		if j++; j == w {
			j, i = 0, i+1
			if i < hi {
				ti = t[i]
			}
		}
	}
}

// Restart sets p̃ = on∘(t∘r), without reading p.
func (cg *spreadingCG) Restart(on []float64) {
	track := cg.supp != nil
	cg.Run(nil, func(ch, lo, hi int, _ []float64) {
		if !cg.liveAll {
			cg.eachLiveRun(lo, hi, func(a, b int) {
				cg.restartRows(0, a, b, on)
				cg.round32(a, b)
			})
		} else {
			for k := range cg.panels {
				cg.restartRows(k, lo, hi, on)
			}
			cg.round32(lo, hi)
		}
		if track {
			cg.markSupport(ch, lo, hi)
		}
	})
	if track {
		cg.countSupport()
	}
	cg.p32ok = true
}
