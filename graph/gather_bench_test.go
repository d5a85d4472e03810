package graph

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGather measures the memory limit of a product at scale: summing
// rows of an n×c float64 block (800 MB at n = 10^7, c = 10, the label block
// of a 10 M-node, 10-class spreading) picked by a random index per entry, as
// W·X gathers them for a graph without locality, against the same number of
// rows read in order. "random" pays one cache miss (and, with 4 KiB pages, a
// TLB miss) per gathered row; "sequential" is the bandwidth bound. Run it
// alone on an idle machine:
//
//	go test ./graph -run '^$' -bench 'Gather' -benchtime 3x -timeout 30m
//
// It reports ns per gathered row (ns/row) and the bytes of the block.
func BenchmarkGather(b *testing.B) {
	const n, c = 10_000_000, 10
	const gathers = 20_000_000 // stored entries of one 10 M-edge row pass
	x := make([]float64, n*c)
	for i := range x {
		x[i] = float64(i % 7)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]int32, gathers)
	sequential := make([]int32, gathers)
	for k := range random {
		random[k] = int32(rng.IntN(n))
		sequential[k] = int32(k % n)
	}
	b.SetBytes(int64(gathers) * c * 8)
	for _, bc := range []struct {
		name string
		idx  []int32
	}{{"random", random}, {"sequential", sequential}} {
		b.Run(bc.name, func(b *testing.B) {
			var acc [c]float64
			for b.Loop() {
				for _, col := range bc.idx {
					xr := x[int(col)*c : int(col)*c+c : int(col)*c+c]
					for t, v := range xr {
						acc[t] += v
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/gathers, "ns/row")
			b.ReportMetric(float64(len(x)*8), "block-bytes")
			if acc[0] < 0 {
				b.Fatal("impossible sum")
			}
		})
	}
}
