package nodeclass

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/gssl/gssl/eval"
)

// PerClassSplit draws train per class training nodes and val per class
// validation nodes of every class, and puts every other labelled node in
// test: the split of Shchur et al. ("Pitfalls of Graph Neural Network
// Evaluation", 2018: 20 and 30 per class) for graphs without a standard
// split. Nodes with label −1 are never drawn. The same seed gives the same
// split. It fails when a class has fewer than train + val labelled nodes.
func PerClassSplit(labels []int, train, val int, seed uint64) (eval.Split, error) {
	if train < 1 || val < 0 {
		return eval.Split{}, fmt.Errorf("nodeclass: per-class split: train=%d must be ≥ 1 and val=%d ≥ 0", train, val)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5c4c7a1e))
	byClass := make([][]int, numClasses(labels))
	for i, l := range labels {
		if l >= 0 {
			byClass[l] = append(byClass[l], i)
		}
	}
	var s eval.Split
	for c, items := range byClass {
		if len(items) < train+val {
			return eval.Split{}, fmt.Errorf("nodeclass: per-class split: class %d has %d labelled nodes, fewer than train+val = %d", c, len(items), train+val)
		}
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		s.Train = append(s.Train, items[:train]...)
		s.Val = append(s.Val, items[train:train+val]...)
		s.Test = append(s.Test, items[train+val:]...)
	}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s, nil
}
