package knngraph

import "fmt"

// Recall returns recall@K of nb against exact, the exact K nearest
// neighbours of the same rows: the fraction of nb's neighbours that are no
// farther than the K-th exact neighbour of their row. A neighbour tied
// with the K-th exact one counts as found (the convention of ann-benchmarks
// and of shared/bench/peers/knn.py), so an exact search breaking ties
// differently still has recall 1.
func Recall(nb, exact *Neighbors) (float64, error) {
	if nb == nil || exact == nil {
		return 0, fmt.Errorf("knngraph: Recall of a nil neighbour list")
	}
	if nb.N != exact.N || nb.K != exact.K {
		return 0, fmt.Errorf("knngraph: Recall of %d rows of %d neighbours against %d rows of %d: they must be the same rows and K", nb.N, nb.K, exact.N, exact.K)
	}
	if nb.N == 0 || nb.K == 0 {
		return 0, fmt.Errorf("knngraph: Recall of an empty neighbour list")
	}
	hits := 0
	for i := 0; i < nb.N; i++ {
		_, d := nb.Row(i)
		_, e := exact.Row(i)
		kth := e[exact.K-1]
		for _, v := range d {
			if v <= kth {
				hits++
			}
		}
	}
	return float64(hits) / float64(nb.N*nb.K), nil
}
