package eval

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
)

// newRand returns the generator every split uses: PCG seeded with (seed, a
// fixed stream constant), so that the same seed gives the same split.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// Classes returns 1 + the largest label (negative labels are unknown).
func Classes(labels []int) int {
	c := 0
	for _, l := range labels {
		if l+1 > c {
			c = l + 1
		}
	}
	return c
}

// RandomPerClass draws a split with perClass training items of every class,
// then val and test items uniformly from the remaining labelled items (the
// protocol of Planetoid-style random splits: 20 per class, 500, 1000).
// Items with a negative label are never drawn. It fails when a class has
// fewer than perClass items or too few items remain.
func RandomPerClass(labels []int, perClass, val, test int, seed uint64) (Split, error) {
	if perClass < 1 || val < 0 || test < 0 {
		return Split{}, fmt.Errorf("eval: random split: perClass=%d must be ≥ 1, val=%d and test=%d ≥ 0", perClass, val, test)
	}
	rng := newRand(seed)
	c := Classes(labels)
	if c > len(labels) {
		// Every class 0..c−1 needs perClass ≥ 1 items: a label is not a
		// count, and a table of c classes is not allocated from one.
		return Split{}, fmt.Errorf("eval: random split: the largest label is %d, so %d classes for %d items: every class 0..%d needs perClass=%d items (number the classes 0..C−1)", c-1, c, len(labels), c-1, perClass)
	}
	byClass := make([][]int, c)
	for i, l := range labels {
		if l >= 0 {
			byClass[l] = append(byClass[l], i)
		}
	}
	var s Split
	taken := make([]bool, len(labels))
	for k, items := range byClass {
		if len(items) < perClass {
			return Split{}, fmt.Errorf("eval: random split: class %d has %d labelled items, fewer than perClass=%d", k, len(items), perClass)
		}
		perm := rng.Perm(len(items))
		for _, p := range perm[:perClass] {
			s.Train = append(s.Train, items[p])
			taken[items[p]] = true
		}
	}
	var rest []int
	for i, l := range labels {
		if l >= 0 && !taken[i] {
			rest = append(rest, i)
		}
	}
	if val+test > len(rest) {
		return Split{}, fmt.Errorf("eval: random split: val=%d + test=%d exceed the %d labelled items left after training", val, test, len(rest))
	}
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	s.Val = append([]int(nil), rest[:val]...)
	s.Test = append([]int(nil), rest[val:val+test]...)
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s, nil
}

// StratifiedFolds assigns every item to one of k folds so that each class is
// spread as evenly as possible over the folds (class by class, items are
// shuffled and dealt round-robin, continuing where the previous class
// stopped). Items with a negative label get fold −1. It fails when k < 2 or
// k exceeds the number of labelled items.
func StratifiedFolds(labels []int, k int, seed uint64) ([]int, error) {
	labelled := 0
	for _, l := range labels {
		if l >= 0 {
			labelled++
		}
	}
	if k < 2 || k > labelled {
		return nil, fmt.Errorf("eval: stratified folds: k=%d must be in [2, %d] (the number of labelled items)", k, labelled)
	}
	rng := newRand(seed)
	byClass := groupByLabel(labels)
	fold := make([]int, len(labels))
	for i := range fold {
		fold[i] = -1
	}
	next := 0
	for _, items := range byClass {
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		for _, it := range items {
			fold[it] = next
			next = (next + 1) % k
		}
	}
	return fold, nil
}

// FoldSplit returns the items of fold f as test and all other labelled items
// as training, from an assignment made by StratifiedFolds.
func FoldSplit(fold []int, f int) (train, test []int) {
	for i, g := range fold {
		switch {
		case g < 0:
		case g == f:
			test = append(test, i)
		default:
			train = append(train, i)
		}
	}
	return train, test
}

// groupByLabel returns the items of each distinct label ≥ 0, in ascending
// order of label, each group in item order. It takes O(n log n) time and
// O(n) memory whatever the label values (a label is not a count).
func groupByLabel(labels []int) [][]int {
	var idx []int
	for i, l := range labels {
		if l >= 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(labels[a], labels[b]) })
	var groups [][]int
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && labels[idx[hi]] == labels[idx[lo]] {
			hi++
		}
		groups = append(groups, idx[lo:hi:hi])
		lo = hi
	}
	return groups
}
