package labelprop

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkSpreadingFitScale times a whole label spreading fit (Auto's
// solver, a = 0.5: set-up, solve and the outputs) on the graph of
// BenchmarkSpreadingScale (GSSL_LP_GRAPH, such as the sbm-1M.gsg or
// sbm-10M.gsg of scripts/bench-scale.sh) from 20 random seeds per class of
// 5 classes, as the planetoid split of those graphs: the fit_seconds of
// `gssl labelprop --json` less the loading, to profile.
//
//	GSSL_LP_GRAPH=/tmp/gssl-scale/sbm-1M.gsg go test ./labelprop -run '^$' -bench SpreadingFitScale -cpuprofile cpu.out
func BenchmarkSpreadingFitScale(b *testing.B) {
	g := scaleGraph(b)
	n, c := g.Nodes(), 5
	rng := rand.New(rand.NewPCG(5, 7))
	var nodes, classes []int
	for k, v := range rng.Perm(n)[:20*c] {
		nodes, classes = append(nodes, v), append(classes, k%c)
	}
	var it int
	cpu0 := cpuTime()
	for b.Loop() {
		m := &Spreading{Alpha: 0.5}
		if err := m.FitIndexed(context.Background(), g, nodes, classes); err != nil {
			b.Fatal(err)
		}
		it = m.Info().Iterations
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(it), "iterations")
}
