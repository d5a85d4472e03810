package knngraph

import (
	"cmp"
	"math/bits"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/gssl/gssl/internal/parallel"
)

// pointScan is what one pass over an n×d matrix of points finds: whether
// every coordinate is an integer of magnitude at most exactIntLimit, and
// whether every one is a byte (0…255); then also the byte copy of the
// points in column order and the statistics of the columns.
type pointScan struct {
	n, d                int
	integer, byteValued bool
	bytes               []uint8   // n×d, row-major, when byteValued and asked for
	part                []float64 // per chunk: sums, sums of squares, minima and maxima of the columns
	chunks              int
}

// scanPoints scans raw in parallel chunks of rows. A chunk stops collecting
// statistics and bytes at its first coordinate that is not a byte, and stops
// altogether at its first that is not a small integer, so real-valued
// points cost little. keepBytes asks for the byte copy.
func scanPoints(raw blas64.General, n, d int, keepBytes bool) pointScan {
	size := max(512, (n+63)/64)
	sc := pointScan{n: n, d: d, chunks: parallel.NumChunks(n, size)}
	sc.part = make([]float64, 4*sc.chunks*d)
	if keepBytes {
		sc.bytes = make([]uint8, n*d)
	}
	notByte := make([]bool, sc.chunks)
	notInt := make([]bool, sc.chunks)
	parallel.Chunks(n, size, func(c, lo, hi int) {
		p := sc.part[4*c*d : 4*(c+1)*d]
		s, s2, mn, mx := p[:d], p[d:2*d], p[2*d:3*d], p[3*d:]
		copy(mn, row(raw.Data, raw.Stride, d, lo))
		copy(mx, mn)
		byteValued, integer := true, true
		for i := lo; i < hi && integer; i++ {
			r := row(raw.Data, raw.Stride, d, i)
			if byteValued {
				byteValued = sc.scanRow(r, i, s, s2, mn, mx)
			}
			if !byteValued {
				for _, v := range r {
					// int64(v) is defined: |v| ≤ exactIntLimit is checked first.
					integer = integer && v >= -exactIntLimit && v <= exactIntLimit && float64(int64(v)) == v
				}
			}
		}
		notByte[c], notInt[c] = !byteValued, !integer
	})
	sc.integer, sc.byteValued = !slices.Contains(notInt, true), !slices.Contains(notByte, true)
	if !sc.byteValued {
		sc.bytes = nil
	}
	return sc
}

// scanRow adds row i to a chunk's statistics and stores its bytes, and
// reports whether every coordinate is a byte.
func (sc *pointScan) scanRow(r []float64, i int, s, s2, mn, mx []float64) bool {
	var dst []uint8
	if sc.bytes != nil {
		dst = sc.bytes[i*sc.d : (i+1)*sc.d]
	}
	ok := true
	for t, v := range r {
		// int64(v) is defined: 0 ≤ v ≤ 255 is checked first.
		ok = ok && v >= 0 && v <= 255 && float64(int64(v)) == v
		s[t] += v
		s2[t] += v * v
		mn[t], mx[t] = min(mn[t], v), max(mx[t], v)
		if dst != nil {
			dst[t] = uint8(v)
		}
	}
	return ok
}

// byVariance returns the columns whose values are not all equal, by
// decreasing variance (ties by column). The statistics are those of all
// points when byteValued (every chunk scanned every row).
func (sc *pointScan) byVariance() []int {
	n, d, part := sc.n, sc.d, sc.part
	variance := make([]float64, d)
	var cols []int
	for t := range variance {
		var s, s2 float64
		lo, hi := part[2*d+t], part[3*d+t]
		for c := 0; c < sc.chunks; c++ {
			p := part[4*c*d : 4*(c+1)*d]
			s += p[t]
			s2 += p[d+t]
			lo, hi = min(lo, p[2*d+t]), max(hi, p[3*d+t])
		}
		mean := s / float64(n)
		variance[t] = s2/float64(n) - mean*mean
		if lo != hi {
			cols = append(cols, t)
		}
	}
	slices.SortStableFunc(cols, func(a, b int) int { return cmp.Compare(variance[b], variance[a]) })
	return cols
}

// scanBytes is scanPoints for points given as bytes (n rows of d in b): the
// same statistics, summed exactly in integers (as the float64 sums of
// scanPoints are, all partial sums being integers below 2⁵³), with b as the
// byte copy. A column is constant exactly when n·Σv² = (Σv)² (equality in
// Cauchy–Schwarz), so only sums are taken; a constant column's minimum and
// maximum are recorded as its value and the others' as 0 and 1, which is
// all byVariance reads of them.
func scanBytes(b []uint8, n, d int) pointScan {
	size := max(512, (n+63)/64)
	sc := pointScan{n: n, d: d, chunks: parallel.NumChunks(n, size), integer: true, byteValued: true, bytes: b}
	sc.part = make([]float64, 4*sc.chunks*d)
	sums := make([]uint64, 2*d*sc.chunks)
	parallel.Chunks(n, size, func(c, lo, hi int) {
		s, s2 := sums[2*c*d:(2*c+1)*d], sums[(2*c+1)*d:(2*c+2)*d]
		// uint32 sums of at most 2¹⁶ rows: 2¹⁶·255² < 2³²
		s32, q32 := make([]uint32, d), make([]uint32, d)
		for blo := lo; blo < hi; blo += 1 << 16 {
			clear(s32)
			clear(q32)
			for i := blo; i < min(hi, blo+1<<16); i++ {
				r := b[i*d : (i+1)*d]
				s32, q32 := s32[:len(r)], q32[:len(r)]
				for t, v := range r {
					s32[t] += uint32(v)
					q32[t] += uint32(v) * uint32(v)
				}
			}
			for t := range d {
				s[t] += uint64(s32[t])
				s2[t] += uint64(q32[t])
			}
		}
	})
	for t := range d {
		var s, s2 uint64
		for c := range sc.chunks {
			s += sums[2*c*d+t]
			s2 += sums[(2*c+1)*d+t]
		}
		hi, lo := bits.Mul64(uint64(n), s2)
		shi, slo := bits.Mul64(s, s)
		varying := 0.0
		if hi != shi || lo != slo {
			varying = 1
		}
		for c := range sc.chunks {
			p := sc.part[4*c*d : 4*(c+1)*d]
			p[t], p[d+t] = float64(sums[2*c*d+t]), float64(sums[(2*c+1)*d+t])
			p[2*d+t], p[3*d+t] = float64(b[t])*(1-varying), float64(b[t])*(1-varying)+varying
		}
	}
	return sc
}
