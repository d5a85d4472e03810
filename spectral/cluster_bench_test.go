package spectral

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/loaders"
)

// BenchmarkSpectralClustering times gssl cluster --lcc's fit (the
// eigensolve and the k-means restarts, clusters = classes) on the largest
// components of Cora and Amazon Photo as the command pays for it, once, on a
// graph no product has run on (a fresh copy, made with the timer stopped,
// builds its SELL copy inside the fit), and its two parts alone: the
// eigensolve (at DefaultClusteringTol, as the fit) and the k-means restarts.
func BenchmarkSpectralClustering(b *testing.B) {
	for _, name := range []string{"cora", "amazon_photo"} {
		b.Run(name, func(b *testing.B) {
			ds, err := loaders.LoadNodeDataset(sharedtest.Data(b, name))
			if err != nil {
				b.Fatal(err)
			}
			sub, err := ds.Graph.LargestComponent()
			if err != nil {
				b.Fatal(err)
			}
			g := sub.CSR
			all := make([]int, g.Nodes())
			for i := range all {
				all[i] = i
			}
			b.Run("fit", func(b *testing.B) {
				var mv int
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					cold, err := g.Induced(all)
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					sc := &SpectralClustering{Clusters: ds.Classes, KMeans: KMeansSettings{Restarts: DefaultKMeansRestarts}}
					if err := sc.Fit(context.Background(), estimator.Nodes{Graph: cold.CSR}); err != nil {
						b.Fatal(err)
					}
					mv = sc.km.matVecs
				}
				b.ReportMetric(float64(mv), "products")
			})
			b.Run("eigs", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, ds.Classes, Settings{Tol: DefaultClusteringTol}); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("kmeans", func(b *testing.B) {
				r, err := LaplacianEigs(context.Background(), g, laplacian.Symmetric, laplacian.Options{}, ds.Classes, Settings{Tol: DefaultClusteringTol})
				if err != nil {
					b.Fatal(err)
				}
				u := mat.DenseCopyOf(r.Vectors)
				normalizeRows(u)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if _, err := KMeans(context.Background(), u, ds.Classes, KMeansSettings{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
