package nodeids

import (
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func build(t *testing.T, ids ...string) (*Map, []int32, []int32) {
	t.Helper()
	var b Builder
	prov := make([]int32, len(ids))
	for k, id := range ids {
		i, err := b.Add(id)
		require.NoError(t, err)
		prov[k] = i
	}
	m, perm := b.Finish()
	return m, prov, perm
}

// final returns the node of the k-th added id.
func final(prov, perm []int32, k int) int {
	if perm == nil {
		return int(prov[k])
	}
	return int(perm[prov[k]])
}

func TestBuilderIntegersAscending(t *testing.T) {
	ids := []string{"5", "3", "5", "10", "3"}
	m, prov, perm := build(t, ids...)
	require.Equal(t, 3, m.Len())
	require.False(t, m.IsIdentity())
	require.Equal(t, []string{"3", "5", "10"}, m.Strings())
	for k, id := range ids {
		require.Equal(t, id, m.ID(final(prov, perm, k)))
		i, ok := m.Lookup(id)
		require.True(t, ok)
		require.Equal(t, final(prov, perm, k), i)
	}
	_, ok := m.Lookup("4")
	require.False(t, ok)
	_, ok = m.Lookup("05")
	require.False(t, ok, "05 is not the id 5")
}

func TestBuilderIdentity(t *testing.T) {
	m, _, perm := build(t, "2", "0", "1", "2")
	require.True(t, m.IsIdentity())
	require.Equal(t, []int32{2, 0, 1}, perm)
	require.Equal(t, "1", m.ID(1))
}

func TestBuilderTextFirstAppearance(t *testing.T) {
	ids := []string{"7", "user_b", "user_a", "007", "7"}
	m, prov, perm := build(t, ids...)
	require.Nil(t, perm)
	require.True(t, m.IsText())
	require.Equal(t, []string{"7", "user_b", "user_a", "007"}, m.Strings())
	for k, id := range ids {
		require.Equal(t, id, m.ID(final(prov, perm, k)))
	}
	i, ok := m.LookupInt(7)
	require.True(t, ok)
	require.Equal(t, 0, i)
}

func TestBuilderRejectsEmpty(t *testing.T) {
	var b Builder
	_, err := b.Add("")
	require.Error(t, err)
}

func TestSubsetKeepsIDs(t *testing.T) {
	m, err := FromInts([]int64{2, 4, 8, 16})
	require.NoError(t, err)
	s := m.Subset([]int{3, 1})
	require.Equal(t, []string{"16", "4"}, s.Strings())
	i, ok := s.Lookup("4")
	require.True(t, ok)
	require.Equal(t, 1, i)
	id := Identity(5).Subset([]int{1, 2})
	require.Equal(t, []string{"1", "2"}, id.Strings())
	for i := 0; i < 2; i++ {
		j, ok := id.Lookup(strconv.Itoa(i + 1))
		require.True(t, ok)
		require.Equal(t, i, j)
	}
}

func TestFromValidates(t *testing.T) {
	_, err := FromInts([]int64{1, 1})
	require.Error(t, err)
	_, err = FromStrings([]string{"a", "a"})
	require.Error(t, err)
	m, err := FromInts([]int64{0, 1, 2})
	require.NoError(t, err)
	require.True(t, m.IsIdentity())
}

// TestBuilderCopiesTextIDs: a text id read as a field of a longer line is
// stored as a copy, so the map does not keep the line alive.
func TestBuilderCopiesTextIDs(t *testing.T) {
	line := "user_a,user_b,0.5"
	var b Builder
	_, err := b.Add(line[:6])
	require.NoError(t, err)
	m, _ := b.Finish()
	id := m.ID(0)
	require.Equal(t, "user_a", id)
	require.NotSame(t, unsafe.StringData(line), unsafe.StringData(id))
}

// TestBuilderDensePrefix: ids that start 0, 1, 2, … and then go elsewhere
// (back into the prefix, past it, into text) number the nodes as a plain
// map of first appearances followed by the documented final order does.
func TestBuilderDensePrefix(t *testing.T) {
	for _, ids := range [][]string{
		{"0", "1", "2"},
		{"0", "1", "2", "1", "0", "2"},
		{"0", "1", "5", "2", "1", "3"},
		{"0", "1", "2", "4", "3"},
		{"1", "0", "2"},
		{"0", "1", "2", "x", "1", "2", "y"},
		{"0", "2", "1", "3"},
		{"0", "0", "1", "1", "2", "7", "7", "3"},
	} {
		m, prov, perm := build(t, ids...)
		// The reference: first appearance, then ascending integers unless
		// some id is text.
		var first []string
		seen := map[string]bool{}
		text := false
		for _, id := range ids {
			if !seen[id] {
				seen[id] = true
				first = append(first, id)
			}
			if _, ok := parseCanonical(id); !ok {
				text = true
			}
		}
		want := first
		if !text {
			want = append([]string(nil), first...)
			slices.SortFunc(want, func(a, b string) int {
				x, _ := strconv.Atoi(a)
				y, _ := strconv.Atoi(b)
				return x - y
			})
		}
		require.Equal(t, want, m.Strings(), "ids %v", ids)
		for k, id := range ids {
			require.Equal(t, id, m.ID(final(prov, perm, k)), "ids %v, entry %d", ids, k)
		}
	}
}
