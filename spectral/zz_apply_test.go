package spectral

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
)

func TestZZApply(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip("ZZ unset")
	}
	ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, "pubmed"))
	if err != nil {
		t.Fatal(err)
	}
	g := ds.Graph
	dg, _ := laplacian.NewDegrees(g, laplacian.Options{Isolated: laplacian.IsolatedZero})
	op, _ := newSparseOperator(g, laplacian.NormalizedAdjacency, dg)
	n := g.Nodes()
	c := config{tol: 1e-13, lo: -1, hi: 1, degree: 8}
	tr := newTrlan(nil, op, 50, Largest, c, 0)
	tr.deg, tr.sgn, tr.gamma, tr.e, tr.tfar = 8, 1, 0, 0.9, 3
	tr.cheb = make([]float64, 3*n)
	u, w := make([]float64, n), make([]float64, n)
	for i := range u {
		u[i] = float64(i%7) - 3
	}
	for rep := 0; rep < 3; rep++ {
		t0 := time.Now()
		for i := 0; i < 200; i++ {
			op.MulVecTo(w, u)
		}
		a := time.Since(t0) / 200
		t0 = time.Now()
		for i := 0; i < 200; i++ {
			tr.apply(w, u)
		}
		b := time.Since(t0) / 200 / 8
		fmt.Printf("MulVecTo %v  per chebStep product %v\n", a, b)
	}
}
