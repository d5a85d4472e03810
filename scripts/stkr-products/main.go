// Command stkr-products times the block products of STKR's inverse-Laplacian
// MINRES on a .gsg graph and prints where the blocks' pages stand: how much
// of each block /proc/self/smaps counts as AnonHugePages (transparent huge
// pages) against its resident size.
//
//	go run ./scripts/stkr-products -graph /tmp/gssl-scale/sbm-100M.gsg -products 5 -cols 10 -alloc huge
//
// -mode direct multiplies as the fit's product does (stkr's lapColumns): the
// input block, prescaled by D^{-1/2} on a 0/1 graph, is the block the graph
// gathers from, allocated by -alloc (make: a plain Go slice; huge: the
// internal/hugepage allocation), and the graph's rows are summed with Left
// scaling D^{-1/2}. -mode kernel multiplies with stkr.GraphKernel.MulBlockTo
// (the laplacian operator's product, which prescales into a scratch block
// of its own). The graph is mapped read-only and shared, as the commands
// map it. Every product's wall time is printed, then their median, minimum
// and maximum.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"syscall"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/hugepage"
	"github.com/gssl/gssl/stkr"
)

func main() {
	path := flag.String("graph", "", "the .gsg graph")
	products := flag.Int("products", 5, "the number of block products timed")
	cols := flag.Int("cols", 10, "the block's columns")
	alloc := flag.String("alloc", "make", "how the gathered-from block is allocated: make or huge")
	mode := flag.String("mode", "direct", "direct (the fit's product) or kernel (GraphKernel.MulBlockTo)")
	flag.Parse()
	if err := run(*path, *products, *cols, *alloc, *mode); err != nil {
		fmt.Fprintln(os.Stderr, "stkr-products:", err)
		os.Exit(1)
	}
}

func run(path string, products, c int, alloc, mode string) error {
	if path == "" || products < 1 || c < 1 {
		return fmt.Errorf("need -graph, -products ≥ 1 and -cols ≥ 1")
	}
	newBlock, ok := map[string]func(int) []float64{"make": func(n int) []float64 { return make([]float64, n) }, "huge": hugepage.Float64s}[alloc]
	if !ok {
		return fmt.Errorf("-alloc %q: want make or huge", alloc)
	}
	t0 := time.Now()
	f, err := graphfile.OpenWith(path, graphfile.OpenOptions{Shared: true})
	if err != nil {
		return err
	}
	defer f.Close()
	g := f.Graph
	graph.SetSlicedLimit(0) // the CSR kernels, as at 100 M edges
	n := g.Nodes()
	fmt.Printf("graph %s: %d nodes, %d stored entries, unit weights %v, opened in %.2f s; GOMAXPROCS %d, alloc %s, mode %s\n",
		path, n, g.NNZ(), g.UnitWeights(), time.Since(t0).Seconds(), runtime.GOMAXPROCS(0), alloc, mode)
	inv := g.Degrees()
	for i, d := range inv {
		inv[i] = 0
		if d > 0 {
			inv[i] = 1 / math.Sqrt(d)
		}
	}
	// The input block, deterministic values, written once (as the fit's
	// MulColumnsRows writes its block before every product).
	v := newBlock(n * c)
	for i := range n {
		for t := range c {
			v[i*c+t] = inv[i] * math.Sin(float64(i*c+t))
		}
	}
	dst := mat.NewDense(n, c, make([]float64, n*c))
	x := mat.NewDense(n, c, v)
	var mul func()
	switch mode {
	case "direct":
		sc := graph.Scaling{Left: inv}
		if !g.UnitWeights() {
			sc.Right = inv
		}
		mul = func() { g.ScaledMulBlockTo(dst, x, sc) }
	case "kernel":
		k, err := stkr.NewGraphKernel(g)
		if err != nil {
			return err
		}
		mul = func() { k.MulBlockTo(dst, x) }
	default:
		return fmt.Errorf("-mode %q: want direct or kernel", mode)
	}
	report("input block", v)
	times, cpus := make([]float64, products), make([]float64, products)
	for p := range times {
		s, c0 := time.Now(), cpuSeconds()
		mul()
		times[p], cpus[p] = time.Since(s).Seconds(), cpuSeconds()-c0
		fmt.Printf("product %d: %.3f s wall, %.3f s CPU\n", p+1, times[p], cpus[p])
	}
	report("input block", v)
	report("output block", dst.RawMatrix().Data)
	reportMapped(path)
	sum := 0.0
	for _, v := range dst.RawMatrix().Data {
		sum += v
	}
	slices.Sort(times)
	slices.Sort(cpus)
	fmt.Printf("products of %d columns: wall median %.3f s (%.3f–%.3f), CPU median %.3f s (%.3f–%.3f), %d products; checksum %.17g\n",
		c, times[len(times)/2], times[0], times[len(times)-1], cpus[len(cpus)/2], cpus[0], cpus[len(cpus)-1], products, sum)
	return nil
}

// cpuSeconds returns the process's user and system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// report prints the mappings that overlap b with their resident and huge
// kilobytes (a mapping may hold more than b: the Go heap's arenas).
func report(name string, b []float64) {
	lo := uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b))))
	hi := lo + 8*uint64(len(b))
	ms, err := hugepage.Mappings()
	if err != nil {
		fmt.Println("smaps:", err)
		return
	}
	for _, m := range ms {
		if m.Hi > lo && m.Lo < hi {
			fmt.Printf("  %s (%d MB at %#x): mapping %#x-%#x (%d MB) Rss %d MB AnonHugePages %d MB\n",
				name, 8*len(b)>>20, lo, m.Lo, m.Hi, (m.Hi-m.Lo)>>20, m.RssKB>>10, m.AnonHugeKB>>10)
		}
	}
}

// reportMapped prints the mappings of the graph file.
func reportMapped(path string) {
	ms, err := hugepage.Mappings()
	if err != nil {
		return
	}
	for _, m := range ms {
		if m.Name == path {
			fmt.Printf("  graph file mapping %#x-%#x (%d MB) Rss %d MB\n", m.Lo, m.Hi, (m.Hi-m.Lo)>>20, m.RssKB>>10)
		}
	}
}
