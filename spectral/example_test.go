package spectral_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/linop"
	"github.com/gssl/gssl/spectral"
)

// twoTriangles is two triangles joined by one edge, and a separate edge.
func twoTriangles() *graph.CSR {
	g, err := graph.FromEdges(8, []graph.Edge{
		{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 0, V: 2, W: 1},
		{U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}, {U: 3, V: 5, W: 1},
		{U: 2, V: 3, W: 1}, {U: 6, V: 7, W: 1},
	}, graph.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

func ExampleLaplacianEigs() {
	// Two components: eigenvalue 0 of L_sym twice, one indicator each.
	g := twoTriangles()
	r, err := spectral.LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, 3, spectral.Settings{})
	if err != nil {
		panic(err)
	}
	for j, v := range r.Values {
		fmt.Printf("λ%d = %.4f  residual < 1e-10: %v\n", j, v, r.Residuals[j] < 1e-10)
	}
	// Output:
	// λ0 = 0.0000  residual < 1e-10: true
	// λ1 = 0.0000  residual < 1e-10: true
	// λ2 = 0.2047  residual < 1e-10: true
}

func ExampleEigs() {
	// The 3 largest eigenvalues of the cycle C_300's adjacency matrix,
	// 2cos(2πj/300): 2, then a double eigenvalue (found with BlockSize 2).
	const n = 300
	e := make([]graph.Edge, n)
	for i := range e {
		e[i] = graph.Edge{U: i, V: (i + 1) % n, W: 1}
	}
	g, _ := graph.FromEdges(n, e, graph.Options{})
	r, err := spectral.Eigs(context.Background(), g, 3, spectral.Largest, spectral.Settings{BlockSize: 2, Bounds: spectral.Interval{Lo: -2, Hi: 2}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.8f\n", r.Values)
	fmt.Printf("%.8f\n", 2*math.Cos(2*math.Pi/n))
	// Output:
	// [1.99956137 1.99956137 2.00000000]
	// 1.99956137
}

func ExampleMatFunc() {
	// Heat diffusion exp(−tL)b from one node of a path.
	g, _ := graph.FromEdges(5, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1}}, graph.Options{})
	l, _ := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	b := []float64{1, 0, 0, 0, 0}
	heat := make([]float64, 5)
	if _, err := spectral.MatFunc(context.Background(), l, spectral.Exp(1), heat, b, spectral.FuncSettings{}); err != nil {
		panic(err)
	}
	var total float64
	for _, v := range heat {
		total += v
	}
	fmt.Printf("%.4f (mass %.4f)\n", heat, total)
	// Output:
	// [0.5238 0.3085 0.1221 0.0359 0.0097] (mass 1.0000)
}

func ExampleLogDet() {
	// log det(I + L_un) of a 200-node cycle, by SLQ and exactly.
	const n = 200
	e := make([]graph.Edge, n)
	for i := range e {
		e[i] = graph.Edge{U: i, V: (i + 1) % n, W: 1}
	}
	g, _ := graph.FromEdges(n, e, graph.Options{})
	l, _ := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	a := linop.Affine{A: l, Scale: 1, Shift: 1}
	est, err := spectral.LogDet(context.Background(), a, spectral.TraceSettings{Probes: 50, Seed: 1})
	if err != nil {
		panic(err)
	}
	var exact float64
	for j := 0; j < n; j++ {
		exact += math.Log(1 + 2 - 2*math.Cos(2*math.Pi*float64(j)/n))
	}
	fmt.Printf("relative error below 1%%: %v\n", math.Abs(est.Value-exact) < 0.01*exact)
	// Output:
	// relative error below 1%: true
}

func ExampleHutchinson() {
	d := linop.Diagonal{1, 2, 3, 4}
	est, _ := spectral.Hutchinson(context.Background(), d, spectral.TraceSettings{Probes: 5})
	fmt.Println(est.Value, est.StdErr)
	// Output:
	// 10 0
}

func ExampleSpectralClustering() {
	g := twoTriangles()
	sc := &spectral.SpectralClustering{Clusters: 3}
	if err := sc.Fit(context.Background(), estimator.Nodes{Graph: g}); err != nil {
		panic(err)
	}
	l := sc.Labels()
	fmt.Println(l[0] == l[1] && l[1] == l[2], l[3] == l[4] && l[4] == l[5], l[6] == l[7], l[0] != l[3] && l[3] != l[6] && l[0] != l[6])
	// Output:
	// true true true true
}

func ExampleLaplacianEigenmap() {
	g, _ := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}}, graph.Options{})
	e := &spectral.LaplacianEigenmap{Dim: 1}
	if err := e.Fit(context.Background(), estimator.Nodes{Graph: g}); err != nil {
		panic(err)
	}
	// The path is laid out in order along the first coordinate.
	fmt.Printf("%.4f %.4f\n", mat.Col(nil, 0, e.Coordinates()), e.Eigenvalues())
	// Output:
	// [0.5774 0.2887 -0.2887 -0.5774] [0.5000]
}

func ExampleKernelPCA() {
	// A triangle with a tail.
	g, _ := graph.FromEdges(5, []graph.Edge{
		{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 0, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1},
	}, graph.Options{})
	p := &spectral.KernelPCA{Dim: 2}
	if err := p.Fit(context.Background(), estimator.Nodes{Graph: g}); err != nil {
		panic(err)
	}
	// A new node linked to nodes 0 and 1 lands beyond them, away from the
	// tail.
	x, _ := p.Extend([]int{0, 1}, []float64{1, 1})
	fmt.Printf("μ = %.4f\nnode 0: %.4f\nnew:    %.4f\n", p.Eigenvalues(), mat.Row(nil, 0, p.Components()), x)
	// Output:
	// μ = [1.0000 0.6541]
	// node 0: [0.4472 -0.3964]
	// new:    [0.4472 -0.6060]
}

func ExampleKMeans() {
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	r, _ := spectral.KMeans(context.Background(), x, 2, spectral.KMeansSettings{Seed: 1})
	fmt.Println(r.Labels[0] == r.Labels[2], r.Labels[0] != r.Labels[3])
	fmt.Printf("%.2f\n", r.Inertia)
	// Output:
	// true true
	// 0.04
}

func ExampleTraceFunc() {
	// tr exp(−L) of the path on 3 nodes: eigenvalues 0, 1, 3.
	g, _ := graph.FromEdges(3, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}}, graph.Options{})
	l, _ := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	est, _ := spectral.TraceFunc(context.Background(), l, spectral.Exp(1), spectral.TraceSettings{Probes: 100})
	exact := 1 + math.Exp(-1) + math.Exp(-3)
	fmt.Printf("exact %.4f, estimate within 3 standard errors: %v\n", exact, math.Abs(est.Value-exact) < 3*est.StdErr)
	// Output:
	// exact 1.4177, estimate within 3 standard errors: true
}

func ExampleMethod() {
	// The path graph on 300 nodes: L_un has the simple eigenvalues
	// 2 − 2cos(πj/300). Single-vector thick-restart Lanczos (ARPACK's
	// method) finds the three smallest.
	n := 300
	var e []graph.Edge
	for i := 1; i < n; i++ {
		e = append(e, graph.Edge{U: i - 1, V: i, W: 1})
	}
	g, err := graph.FromEdges(n, e, graph.Options{})
	if err != nil {
		panic(err)
	}
	op, err := laplacian.New(g, laplacian.Unnormalized, laplacian.Options{})
	if err != nil {
		panic(err)
	}
	r, err := spectral.Eigs(context.Background(), op, 3, spectral.Smallest, spectral.Settings{Method: spectral.SingleVector, Tol: 1e-12})
	if err != nil {
		panic(err)
	}
	for j, v := range r.Values {
		exact := 2 - 2*math.Cos(math.Pi*float64(j)/float64(n))
		fmt.Printf("λ%d = %.8f (exact %.8f)\n", j, v, exact)
	}
	// Output:
	// λ0 = 0.00000000 (exact 0.00000000)
	// λ1 = 0.00010966 (exact 0.00010966)
	// λ2 = 0.00043863 (exact 0.00043863)
}
