package graph

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/internal/parallel"
)

// BenchmarkWideBlock times one product of a graph without locality (every
// row's 20 columns drawn uniformly) with an n×c block, the shape of label
// spreading's product at scale, on every core. GSSL_WIDE_N sets n (default
// 10^6; 10^7 is the 100 M-edge graph of issue #17, 1.6 GB of graph and
// blocks). Run it alone on an idle machine:
//
//	GSSL_WIDE_N=10000000 go test ./graph -run '^$' -bench 'WideBlock' -benchtime 3x -timeout 30m
//
// It reports ns per stored entry (ns/entry).
func BenchmarkWideBlock(b *testing.B) {
	n := 1_000_000
	if s := os.Getenv("GSSL_WIDE_N"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil {
			b.Fatal(err)
		}
		n = v
	}
	const deg = 20
	rng := rand.New(rand.NewPCG(1, 2))
	indptr := make([]int, n+1)
	indices := make([]int32, n*deg)
	for i := range n {
		indptr[i+1] = (i + 1) * deg
		row := indices[i*deg : (i+1)*deg]
		for k := range row {
			row[k] = int32(rng.IntN(n))
		}
	}
	degrees := make([]float64, n)
	for i := range degrees {
		degrees[i] = deg
	}
	g, err := FromCSRArraysTrusted(n, CSRArrays{Indptr: indptr, Indices: indices, Degrees: degrees}, 0, true)
	if err != nil {
		b.Fatal(err)
	}
	left := make([]float64, n)
	diag := make([]float64, n)
	for i := range left {
		left[i], diag[i] = 0.9/deg, -1
	}
	for _, c := range widths() {
		x := hugepage.Float64s(n * c)
		dst := hugepage.Float64s(n * c)
		for i := range x {
			x[i] = float64(i%7) / 7
		}
		b.Run("f64/c="+strconv.Itoa(c), func(b *testing.B) {
			cpuStart = cpuTime()
			for b.Loop() {
				parallel.Balanced(indptr, 1<<16, func(lo, hi int) {
					g.scaledBlockRowsAt(dst, c, 0, x, c, c, Scaling{Left: left, Diag: diag}, lo, hi)
				})
			}
			report(b, len(indices))
		})
		b.Run("f64loop/c="+strconv.Itoa(c), func(b *testing.B) {
			cpuStart = cpuTime()
			for b.Loop() {
				parallel.Balanced(indptr, 1<<16, func(lo, hi int) {
					g.blockRowsLoop(dst, c, 0, x, c, c, Scaling{Left: left, Diag: diag}, lo, hi)
				})
			}
			report(b, len(indices))
		})
		if c <= maxSliced && hasSellAVX2 && os.Getenv("GSSL_WIDE_SELL") != "" {
			sl := g.sliced()
			b.Run("f64sell/c="+strconv.Itoa(c), func(b *testing.B) {
				cpuStart = cpuTime()
				for b.Loop() {
					parallel.Balanced(sl.off, 1<<14, func(lo, hi int) {
						sl.mulBlock(dst, c, x, c, c, Scaling{Left: left, Diag: diag}, lo, hi)
					})
				}
				report(b, len(indices))
			})
		}
		if c <= maxSliced && hasSellAVX2 && os.Getenv("GSSL_WIDE_PANEL") != "" {
			// The block in column panels of at most w columns, each panel
			// n×w and contiguous, one product per panel: the gathers of a
			// panel product touch n·w·8 bytes instead of n·c·8.
			sl := g.sliced()
			for _, w := range []int{1, 2, 3} {
				if w >= c {
					continue
				}
				b.Run("f64sellpanel"+strconv.Itoa(w)+"/c="+strconv.Itoa(c), func(b *testing.B) {
					cpuStart = cpuTime()
					for b.Loop() {
						for c0 := 0; c0 < c; c0 += w {
							pw := min(w, c-c0)
							px, pd := x[n*c0:n*(c0+pw)], dst[n*c0:n*(c0+pw)]
							parallel.Balanced(sl.off, 1<<14, func(lo, hi int) {
								sl.mulBlock(pd, pw, px, pw, pw, Scaling{Left: left, Diag: diag}, lo, hi)
							})
						}
					}
					report(b, len(indices))
				})
			}
		}
		x32 := hugepage.Float32s(n * c)
		for i := range x32 {
			x32[i] = float32(x[i])
		}
		b.Run("f32/c="+strconv.Itoa(c), func(b *testing.B) {
			cpuStart = cpuTime()
			for b.Loop() {
				parallel.Balanced(indptr, 1<<16, func(lo, hi int) {
					g.MulBlock32RowsInto(dst[lo*c:hi*c], x32, c, lo, hi)
				})
			}
			report(b, len(indices))
		})
		if c > 16 || os.Getenv("GSSL_WIDE_PAD") == "" {
			continue
		}
		// The float32 block with its rows padded to 16 entries (64 bytes,
		// aligned by the allocator's large-object alignment): every gather
		// reads one cache line, where 40-byte rows straddle two 5 times in 8.
		x16 := hugepage.Float32s(n * 16)
		for i := range n {
			copy(x16[i*16:i*16+c], x32[i*c:i*c+c])
		}
		b.Run("f32pad16/c="+strconv.Itoa(c), func(b *testing.B) {
			cpuStart = cpuTime()
			for b.Loop() {
				parallel.Balanced(indptr, 1<<16, func(lo, hi int) {
					block32Kernels[c](g, dst[lo*c:hi*c], x16, 16, lo, hi)
				})
			}
			report(b, len(indices))
		})
	}
}

// cpuStart is the process's CPU time when the running benchmark started.
var cpuStart time.Duration

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report gives wall and CPU time per stored entry: on a machine shared with
// other work the CPU time is the steadier figure.
func report(b *testing.B, entries int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(entries), "ns/entry")
	b.ReportMetric(float64((cpuTime()-cpuStart).Nanoseconds())/float64(b.N)/float64(entries), "cpu-ns/entry")
}

// widths are the block widths timed: GSSL_WIDE_C (a comma list), or 5, 8, 10 and 16.
func widths() []int {
	s := os.Getenv("GSSL_WIDE_C")
	if s == "" {
		return []int{5, 8, 10, 16}
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(f)
		if err == nil && v > 0 {
			out = append(out, v)
		}
	}
	return out
}
