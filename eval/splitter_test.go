package eval

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

func TestParseSplitSpec(t *testing.T) {
	for _, c := range []struct {
		flag string
		want SplitSpec
		name string
	}{
		{"auto", SplitSpec{Kind: SplitAuto}, "auto"},
		{"", SplitSpec{Kind: SplitAuto}, "auto"},
		{"none", SplitSpec{Kind: SplitNone}, "none"},
		{"planetoid", SplitSpec{Kind: SplitOwn}, "planetoid"},
		{"random:20", SplitSpec{Kind: SplitRandom, PerClass: 20}, "random:20"},
		{"per-class:20,30", SplitSpec{Kind: SplitPerClass, PerClass: 20, ValPerClass: 30}, "per-class:20,30"},
		{"some/split.txt", SplitSpec{Kind: SplitFile, Path: "some/split.txt"}, "some/split.txt"},
	} {
		got, err := ParseSplitSpec(c.flag)
		require.NoError(t, err, c.flag)
		assert.Equal(t, c.want.Kind, got.Kind, c.flag)
		assert.Equal(t, c.want.PerClass, got.PerClass, c.flag)
		assert.Equal(t, c.want.ValPerClass, got.ValPerClass, c.flag)
		assert.Equal(t, c.want.Path, got.Path, c.flag)
		assert.Equal(t, c.name, got.String(), c.flag)
	}
	for _, bad := range []string{"random:0", "random:x", "random:", "per-class:0,3", "per-class:2,-1", "per-class:2", "per-class:a,b"} {
		_, err := ParseSplitSpec(bad)
		assert.ErrorContains(t, err, bad, "the error names the flag's value")
	}
	auto, _ := ParseSplitSpec("auto")
	assert.Equal(t, "auto: none", auto.Resolve(false).Name())
	assert.Equal(t, "auto: the data set's split", auto.Resolve(true).Name())
	assert.Equal(t, SplitOwn, auto.Resolve(true).Kind)
	r, _ := ParseSplitSpec("random:5")
	assert.Equal(t, "random:5", r.Resolve(true).Name(), "only auto resolves")
	assert.True(t, r.Seeded())
	assert.Equal(t, "none", SplitSpec{Kind: SplitNone}.Name(), "a spec built in code names itself")
}

func TestSplitSpecCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "split.txt")
	require.NoError(t, os.WriteFile(file, []byte("train 0\n"), 0o644))
	s, _ := ParseSplitSpec(file)
	assert.NoError(t, s.Check())
	s, _ = ParseSplitSpec(filepath.Join(dir, "missing.txt"))
	assert.ErrorContains(t, s.Check(), "not a readable split file")
	s, _ = ParseSplitSpec(dir)
	assert.ErrorContains(t, s.Check(), "is a folder")
	assert.NoError(t, SplitFolderSpec(dir).Check())
	assert.ErrorContains(t, SplitFolderSpec(file).Check(), "is not a folder of split files")
}

// TestRandomSizes checks the default sizes against a count by hand.
func TestRandomSizes(t *testing.T) {
	// Classes of 10, 4 and 1 labelled nodes, 2 unlabelled: 2 per class
	// leaves 8 + 2 + 0 = 10.
	labels := slices.Concat(slices.Repeat([]int{0}, 10), slices.Repeat([]int{1}, 4), []int{2, -1, -1})
	val, test := RandomSizes(labels, 2, DefaultSizes)
	assert.Equal(t, 3, val)
	assert.Equal(t, 5, test)
	val, test = RandomSizes(labels, 2, SplitSizes{Val: 7, Test: 0})
	assert.Equal(t, 7, val)
	assert.Equal(t, 0, test)
}

func TestPerClassSplit(t *testing.T) {
	labels := make([]int, 90)
	for i := range labels {
		labels[i] = i % 4 // class 3 is the unknown −1 below
		if labels[i] == 3 {
			labels[i] = -1
		}
	}
	sp, err := PerClassSplit(labels, 3, 2, 7)
	require.NoError(t, err)
	count := func(nodes []int) map[int]int {
		m := map[int]int{}
		for _, i := range nodes {
			m[labels[i]]++
		}
		return m
	}
	assert.Equal(t, map[int]int{0: 3, 1: 3, 2: 3}, count(sp.Train))
	assert.Equal(t, map[int]int{0: 2, 1: 2, 2: 2}, count(sp.Val))
	assert.Equal(t, map[int]int{0: 23 - 5, 1: 23 - 5, 2: 22 - 5}, count(sp.Test))
	all := slices.Concat(sp.Train, sp.Val, sp.Test)
	slices.Sort(all)
	assert.Len(t, slices.Compact(all), 23+23+22, "the parts are disjoint and cover every labelled node")
	again, _ := PerClassSplit(labels, 3, 2, 7)
	assert.Equal(t, sp, again, "the same seed gives the same split")
	other, _ := PerClassSplit(labels, 3, 2, 8)
	assert.NotEqual(t, sp.Train, other.Train)
	_, err = PerClassSplit(labels, 20, 5, 0)
	assert.ErrorContains(t, err, "fewer than train+val = 25")
	_, err = PerClassSplit([]int{0, 1 << 40}, 1, 0, 0)
	assert.ErrorContains(t, err, "number the classes")
}

func TestSplitterFile(t *testing.T) {
	labels := []int{0, 1, -1, 1, 0, 1}
	fileSplit := &Split{Train: []int{0, 1}, Val: []int{3}, Test: []int{4, 5}}
	read := func(path string, n int) (*Split, error) {
		if n != len(labels) {
			return nil, errors.New("wrong node count")
		}
		if path == "bad.txt" {
			return &Split{Train: []int{0}, Test: []int{2}}, nil
		}
		return fileSplit, nil
	}
	spec, _ := ParseSplitSpec("split.txt")
	s, err := NewSplitter(spec, SplitData{Labels: labels, ReadFile: read}, DefaultSizes)
	require.NoError(t, err)
	assert.False(t, s.Spec().Seeded())
	got, dropped, err := s.Split(3)
	require.NoError(t, err)
	assert.Equal(t, *fileSplit, got)
	assert.Zero(t, dropped)

	spec, _ = ParseSplitSpec("bad.txt")
	_, err = NewSplitter(spec, SplitData{Labels: labels, ReadFile: read, NodeName: func(i int) string { return "n" + string(rune('A'+i)) }}, DefaultSizes)
	assert.ErrorContains(t, err, "bad.txt: test node nC has no label (−1)")
	_, err = NewSplitter(spec, SplitData{Labels: labels, ReadFile: read, OwnIDs: true}, DefaultSizes)
	assert.ErrorContains(t, err, "this data set has its own ids")

	none, _ := ParseSplitSpec("auto")
	s, err = NewSplitter(none, SplitData{Labels: labels}, DefaultSizes)
	require.NoError(t, err)
	got, _, _ = s.Split(0)
	assert.Equal(t, Split{Train: []int{0, 1, 3, 4, 5}}, got, "none: every labelled node is trained on")
	assert.Equal(t, "auto: none", s.Spec().Name())

	own, _ := ParseSplitSpec("planetoid")
	_, err = NewSplitter(own, SplitData{Labels: labels, Source: "data/x"}, DefaultSizes)
	assert.ErrorContains(t, err, "data/x has no split of its own")
}

// TestSplitterSubgraph: a split in the data set's numbering is mapped to
// a subgraph (a largest component), dropping the nodes outside it, and a
// random split is drawn from the subgraph's own labels.
func TestSplitterSubgraph(t *testing.T) {
	// Path 0-1-2-3 and the edge 4-5: the largest component is 0..3.
	g, err := graph.FromEdges(6, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 4, V: 5, W: 1}}, graph.Options{})
	require.NoError(t, err)
	sub, err := g.Induced([]int{3, 2, 1, 0})
	require.NoError(t, err)
	labels := []int{0, 1, 0, 1, 0, 1}
	own := &Split{Train: []int{0, 4}, Val: []int{1, 5}, Test: []int{3}}
	spec, _ := ParseSplitSpec("auto")
	s, err := NewSplitter(spec, SplitData{Labels: labels, Own: own, Subgraph: sub}, DefaultSizes)
	require.NoError(t, err)
	got, dropped, err := s.Split(0)
	require.NoError(t, err)
	assert.Equal(t, Split{Train: []int{3}, Val: []int{2}, Test: []int{0}}, got)
	assert.Equal(t, 2, dropped)
	assert.Equal(t, "the data set's split (mapped to the largest component)", s.Source())

	spec, _ = ParseSplitSpec("random:1")
	s, err = NewSplitter(spec, SplitData{Labels: labels, Subgraph: sub}, SplitSizes{Val: 1, Test: 1})
	require.NoError(t, err)
	got, dropped, err = s.Split(5)
	require.NoError(t, err)
	assert.Zero(t, dropped)
	subLabels := []int{1, 0, 1, 0} // labels of 3, 2, 1, 0
	want, err := RandomPerClass(subLabels, 1, 1, 1, 5)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, "random: 1 per class, 1 val, 1 test", s.Source())
}
