package eval

import "math"

// ClusterScore is a clustering of nodes scored against known classes.
type ClusterScore struct {
	// Sizes are the numbers of nodes in each cluster.
	Sizes []int
	// ARI is the adjusted Rand index of the clusters against the classes
	// over the labelled nodes (Scored of them); NaN when no node is
	// labelled or the index is undefined.
	ARI    float64
	Scored int
}

// ScoreClusters scores clusters (one per node, in [0, k)) against truth
// (one per node, −1 for unlabelled: left out of the score).
func ScoreClusters(clusters, truth []int, k int) ClusterScore {
	s := ClusterScore{Sizes: make([]int, k), ARI: math.NaN()}
	for _, c := range clusters {
		s.Sizes[c]++
	}
	var pred, known []int
	for i, l := range truth {
		if l >= 0 {
			pred, known = append(pred, clusters[i]), append(known, l)
		}
	}
	s.Scored = len(known)
	if ari, err := AdjustedRandIndex(pred, known); err == nil && len(known) > 0 {
		s.ARI = ari
	}
	return s
}
