package gemm

import (
	"sync"
	"unsafe"
)

// kcMax is the largest depth of one chunk of a deep product: a pair of B
// panels over kcMax steps is 2·64·kcMax bytes = 24 KiB (float32 16-wide or
// float64 8-wide panels both take 64 bytes a step), so that it stays in a
// 48 KiB L1d while the A panels of a group pass over it. Without chunking a
// pair at K = 784 is 100 KB, streamed from L2 by every kernel call.
const kcMax = 192

// groupDeep is the number of A panels that pass over one chunk of a pair of
// B panels in mulTDeep: 16·MR rows of A over a chunk are 74 KiB in float32,
// in L2 with the group's tiles (16·⌈nb/2⌉ pairs of 768 bytes, 393 KiB at
// M = 1000), and the B panels stream from L3 once per 96 rows of A (8
// panels measured 5–10 % slower on FALKON's 256×1000×784 block).
const groupDeep = 16

// chunkDepth returns the depth of the chunks a product of depth k is cut
// into: the fewest chunks of at most kcMax, of equal depth but for the last.
func chunkDepth(k int) int {
	n := (k + kcMax - 1) / kcMax
	return (k + n - 1) / n
}

// accKernels are the AVX-512 kernels with a depth offset and accumulation:
// two computes the two tiles of one A panel against two B panels
// (kernel32x2aAVX512 or kernel64x2aAVX512), four the four tiles of two A
// panels against them (kernel32x4aAVX512, kernel64x4aAVX512), each entry
// bitwise as two computes it.
type accKernels[T Float] struct {
	two  func(k int, a, b0, b1, c []T, load bool)
	four func(k int, a0, a1, b0, b1, c []T, load bool)
}

// run computes the tiles of A panels a0 and, when a1 is not nil, a1 (each
// kk deep) against b0 and b1 into c (two tiles per A panel).
func (ak *accKernels[T]) run(kk int, a0, a1, b0, b1, c []T, load bool) {
	if a1 == nil {
		ak.two(kk, a0, b0, b1, c, load)
		return
	}
	ak.four(kk, a0, a1, b0, b1, c, load)
}

// pairAccFor returns the accumulating kernels of T, or nil when the
// AVX-512 kernels do not run.
func pairAccFor[T Float]() *accKernels[T] {
	if !HasAVX512 {
		return nil
	}
	var z T
	if _, ok := any(z).(float32); ok {
		return any(&accKernels[float32]{pairAcc32, quadAcc32}).(*accKernels[T])
	}
	return any(&accKernels[float64]{pairAcc64, quadAcc64}).(*accKernels[T])
}

// pairAcc32 sets (load false) or continues (load true) the two tiles
// c[:MR·NR32] and c[MR·NR32:] of the A panel a against the B panels b0 and
// b1 over k > 0 steps: each entry's FMA chain goes on from the value in c,
// so that consecutive chunks give bitwise one call over their whole depth.
func pairAcc32(k int, a, b0, b1, c []float32, load bool) {
	_ = a[MR*k-1]
	_ = b0[NR32*k-1]
	_ = b1[NR32*k-1]
	_ = c[2*MR*NR32-1]
	kernel32x2aAVX512(k, &a[0], &b0[0], &b1[0], &c[0], boolInt(load))
}

// pairAcc64 is pairAcc32 in float64.
func pairAcc64(k int, a, b0, b1, c []float64, load bool) {
	_ = a[MR*k-1]
	_ = b0[NR64*k-1]
	_ = b1[NR64*k-1]
	_ = c[2*MR*NR64-1]
	kernel64x2aAVX512(k, &a[0], &b0[0], &b1[0], &c[0], boolInt(load))
}

// quadAcc32 is pairAcc32 for two A panels a0 and a1: c[:2·MR·NR32] gets
// a0's tiles, c[2·MR·NR32:] a1's.
func quadAcc32(k int, a0, a1, b0, b1, c []float32, load bool) {
	_ = a0[MR*k-1]
	_ = a1[MR*k-1]
	_ = b0[NR32*k-1]
	_ = b1[NR32*k-1]
	_ = c[4*MR*NR32-1]
	kernel32x4aAVX512(k, &a0[0], &a1[0], &b0[0], &b1[0], &c[0], boolInt(load))
}

// quadAcc64 is quadAcc32 in float64.
func quadAcc64(k int, a0, a1, b0, b1, c []float64, load bool) {
	_ = a0[MR*k-1]
	_ = a1[MR*k-1]
	_ = b0[NR64*k-1]
	_ = b1[NR64*k-1]
	_ = c[4*MR*NR64-1]
	kernel64x4aAVX512(k, &a0[0], &a1[0], &b0[0], &b1[0], &c[0], boolInt(load))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mulTDeep is mulT (rows of C for A panels [p0, p1)) for a depth K beyond
// kcMax with the AVX-512 kernels, in the loop order of Goto & van de Geijn:
// for each group of groupDeep A panels and each depth chunk, every pair of B
// panels is multiplied by all panels of the group while its chunk is in L1.
// The tiles of the group (groupDeep·⌈nb/2⌉ pairs of tiles, precision T) carry
// the partial sums from chunk to chunk and are written to C after the last,
// so every entry is the same FMA chain as in one full-depth kernel call:
// bitwise mulT's result. An odd last B panel is paired with itself.
func mulTDeep[T Float](c []float64, ldc int, idx []int, a, b *Panels[T], p0, p1 int, kern *accKernels[T]) {
	nr, nb, k := b.W, b.Count(), a.K
	pairs := (nb + 1) / 2
	pairSize := 2 * MR * nr
	tiles := getTiles[T](min(groupDeep, p1-p0) * pairs * pairSize)
	defer putTiles(tiles)
	kc := chunkDepth(k)
	for g0 := p0; g0 < p1; g0 += groupDeep {
		g1 := min(g0+groupDeep, p1)
		for k0 := 0; k0 < k; k0 += kc {
			kk := min(kc, k-k0)
			last := k0+kk == k
			for pr := range pairs {
				q0, q1 := 2*pr, min(2*pr+1, nb-1)
				b0 := b.Data[q0*nr*k+k0*nr : q0*nr*k+(k0+kk)*nr]
				b1 := b.Data[q1*nr*k+k0*nr : q1*nr*k+(k0+kk)*nr]
				for pa := g0; pa < g1; pa += 2 { // two A panels at a time
					at := (pr*(g1-g0) + pa - g0) * pairSize // the group's tiles of a pair together
					a0, a1 := depthSlice(a, pa, k0, kk), depthSlice(a, pa+1, k0, kk)
					if pa+1 == g1 {
						a1 = nil
					}
					kern.run(kk, a0, a1, b0, b1, tiles[at:], k0 > 0)
					if !last {
						continue
					}
					for h := pa; h < min(pa+2, g1); h++ {
						tile := tiles[at+(h-pa)*pairSize : at+(h-pa+1)*pairSize]
						writeTiles(c, ldc, idx, tile, q1-q0+1, nr, h*MR, q0, a.Rows, b.Rows)
					}
				}
			}
		}
	}
}

// depthSlice returns depths [k0, k0+kk) of A panel pa of a, or nil when
// a has no panel pa.
func depthSlice[T Float](a *Panels[T], pa, k0, kk int) []T {
	if pa >= a.Count() {
		return nil
	}
	k := a.K
	return a.Data[pa*MR*k+k0*MR : pa*MR*k+(k0+kk)*MR]
}

// writeTiles stores the n tiles in tile (A rows from row0, B panels from q)
// into C as float64, row r of the product to row idx[r] of C (row r when
// idx is nil), leaving out the padding rows and columns.
func writeTiles[T Float](c []float64, ldc int, idx []int, tile []T, n, nr, row0, q, rows, cols int) {
	for h := range n {
		col0 := (q + h) * nr
		ncol := min(nr, cols-col0)
		for i := 0; i < min(MR, rows-row0); i++ {
			r := row0 + i
			if idx != nil {
				r = idx[r]
			}
			dst := c[r*ldc+col0 : r*ldc+col0+ncol]
			for j, v := range tile[(h*MR+i)*nr : (h*MR+i)*nr+ncol] {
				dst[j] = float64(v)
			}
		}
	}
}

// tilePools recycle the tiles of mulTDeep, one pool per precision.
var tilePools [2]sync.Pool

func tilePool[T Float]() *sync.Pool {
	var z T
	if _, ok := any(z).(float32); ok {
		return &tilePools[0]
	}
	return &tilePools[1]
}

// getTiles returns a slice of n values of T (not cleared: mulTDeep writes
// every tile before it reads it).
func getTiles[T Float](n int) []T {
	if s, ok := tilePool[T]().Get().(*[]T); ok && cap(*s) >= n {
		return (*s)[:n]
	}
	return make([]T, n)
}

func putTiles[T Float](s []T) { tilePool[T]().Put(&s) }

// groupSum is the number of A panels that pass over one chunk of a pair of
// B panels in mulTSumDeep: 32·MR rows, so that a pair of B panels (from L3:
// the blocks of one call of Kernel.Normal are 16·BlockRows·M bytes) is
// loaded once per 192 rows of A; 8 panels measured 15–20 % slower on the
// normal matrix at M = 3000 and 4000 (8 blocks of 256 rows, one core).
const groupSum = 32

// sumTileBytes bounds the tiles mulTSumDeep keeps between the chunks of a
// group (groupSum A panels against a run of B pairs): 2 MiB, a core's L2
// cache, reached from M ≈ 1400 in float64 (a variable so that tests reach
// runs of one pair).
var sumTileBytes = 2 << 20

// mulTSumDeep is mulTSum (alpha·Σ_s A_s·B_sᵀ added to the entries j ≥ i of
// the rows of C held by A panels [p0, p1)) with the AVX-512 kernels that
// continue an FMA chain: the depths of the pairs, cut in chunks of at most
// kcMax, are one dot product per entry, accumulated in order of s and then
// of t in precision T, as one kernel call over the concatenated depth would
// (bitwise: mulTSum of the one pair whose K joins the A_s and the B_s). The
// loop order is mulTDeep's: each pair of B panels is multiplied by the
// panels of a group of groupSum A panels while its chunk is in L1, the
// tiles of the group wait in a buffer of at most sumTileBytes (the B pairs
// are taken in runs that fit it), and each is added to C once after the
// last chunk. Every K_s must be positive.
func mulTSumDeep[T Float](c []float64, ldc int, a, b []*Panels[T], p0, p1 int, alpha float64, kern *accKernels[T]) {
	nr, nb := b[0].W, b[0].Count()
	pairSize := 2 * MR * nr
	var z T
	pairBlock := max(1, sumTileBytes/(groupSum*pairSize*int(unsafe.Sizeof(z))))
	tiles := getTiles[T](min(groupSum, p1-p0) * (min(pairBlock, (nb+1)/2) + 1) * pairSize)
	defer putTiles(tiles)
	for g0 := p0; g0 < p1; g0 += groupSum {
		g1 := min(g0+groupSum, p1)
		qs := g0 * MR / nr // the first B panel that reaches the diagonal
		pairs := (nb - qs + 1) / 2
		for pb := 0; pb < pairs; pb += pairBlock {
			sumPairs(c, ldc, a, b, g0, g1, qs+2*pb, min(pairBlock, pairs-pb), alpha, kern, tiles)
		}
	}
}

// sumPairs is mulTSumDeep for A panels [g0, g1) against the n pairs of B
// panels from panel q: their tiles (in tiles) carry the partial sums over
// the depths of all pairs of operands, and are added to C after the last.
func sumPairs[T Float](c []float64, ldc int, a, b []*Panels[T], g0, g1, q, n int, alpha float64, kern *accKernels[T], tiles []T) {
	nr, nb := b[0].W, b[0].Count()
	rows, cols := a[0].Rows, b[0].Rows
	pairSize := 2 * MR * nr
	first := true
	for s := range a {
		k, kc := a[s].K, chunkDepth(a[s].K)
		for k0 := 0; k0 < k; k0 += kc {
			kk := min(kc, k-k0)
			last := s == len(a)-1 && k0+kk == k
			for pr := range n {
				q0 := q + 2*pr
				q1 := min(q0+1, nb-1)
				b0 := b[s].Data[q0*nr*k+k0*nr : q0*nr*k+(k0+kk)*nr]
				b1 := b[s].Data[q1*nr*k+k0*nr : q1*nr*k+(k0+kk)*nr]
				for pa := g0; pa < g1; pa += 2 { // two A panels at a time
					if min((q1+1)*nr, cols) <= pa*MR {
						break // the tiles lie below the diagonal, and those of the panels after
					}
					at := (pr*(g1-g0) + pa - g0) * pairSize
					a0, a1 := depthSlice(a[s], pa, k0, kk), depthSlice(a[s], pa+1, k0, kk)
					if pa+1 == g1 {
						a1 = nil
					}
					kern.run(kk, a0, a1, b0, b1, tiles[at:], !first)
					if !last {
						continue
					}
					for h := pa; h < min(pa+2, g1); h++ {
						tile := tiles[at+(h-pa)*pairSize : at+(h-pa)*pairSize+(q1-q0+1)*MR*nr]
						addTiles(c, ldc, alpha, tile, q1-q0+1, nr, h*MR, q0, rows, cols)
					}
				}
			}
			first = false
		}
	}
}
