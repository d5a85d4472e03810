package nodeids

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Builder numbers ids as they are met. While every id is a canonical
// integer it keeps them as integers; the first other id turns every id into
// text. Finish fixes the final numbering (ascending for integers, first
// appearance for text) and returns how provisional indices map to final
// ones. The zero value is ready to use. A Builder is not safe for concurrent
// use.
//
// Ids met in the order 0, 1, 2, … from the first (a graph file's own
// numbering, a node table in order) are counted, not stored: they cost no
// memory and no hashing, so seeding a Builder with the n nodes of a graph is
// O(1) per node.
type Builder struct {
	dense  int              // integer phase: ids 0..dense−1 are provisional indices 0..dense−1
	ints   map[int64]int32  // integer phase: other id → provisional index
	order  []int64          // integer phase: provisional index dense+k → id order[k]
	text   map[string]int32 // text phase
	names  []string         // text phase: provisional index → id
	isText bool
}

// Len returns the number of distinct ids added so far.
func (b *Builder) Len() int {
	if b.isText {
		return len(b.names)
	}
	return b.dense + len(b.order)
}

// IsText reports whether some id added so far is not a canonical integer.
func (b *Builder) IsText() bool { return b.isText }

// ID returns the id of provisional index i. It panics if i is out of range.
func (b *Builder) ID(i int32) string {
	if b.isText {
		return b.names[i]
	}
	if int(i) < b.dense {
		return strconv.Itoa(int(i))
	}
	return strconv.FormatInt(b.order[int(i)-b.dense], 10)
}

// Add returns the provisional index of id, adding it when it is new. It
// returns an error when id is empty or the map would exceed MaxNodes.
func (b *Builder) Add(id string) (int32, error) {
	if !b.isText {
		if v, ok := parseCanonical(id); ok {
			return b.AddInt(v)
		}
		if id == "" {
			return 0, fmt.Errorf("empty node id")
		}
		b.toText()
	}
	if id == "" {
		return 0, fmt.Errorf("empty node id")
	}
	if i, ok := b.text[id]; ok {
		return i, nil
	}
	if len(b.names) >= MaxNodes {
		return 0, fmt.Errorf("more than %d distinct node ids", MaxNodes)
	}
	i := int32(len(b.names))
	// A copy: id is often a field of a longer line, which it would keep
	// alive for as long as the map lives.
	id = strings.Clone(id)
	b.text[id] = i
	b.names = append(b.names, id)
	return i, nil
}

// AddInt is Add for the canonical integer id v ≥ 0.
func (b *Builder) AddInt(v int64) (int32, error) {
	if v < 0 {
		return 0, fmt.Errorf("node id %d is negative", v)
	}
	if b.isText {
		return b.Add(strconv.FormatInt(v, 10))
	}
	if v < int64(b.dense) {
		return int32(v), nil
	}
	if v == int64(b.dense) && len(b.order) == 0 && b.dense < MaxNodes {
		b.dense++
		return int32(v), nil
	}
	if b.ints == nil {
		b.ints = make(map[int64]int32)
	}
	if i, ok := b.ints[v]; ok {
		return i, nil
	}
	if b.Len() >= MaxNodes {
		return 0, fmt.Errorf("more than %d distinct node ids", MaxNodes)
	}
	i := int32(b.Len())
	b.ints[v] = i
	b.order = append(b.order, v)
	return i, nil
}

// toText switches to text ids, keeping provisional indices.
func (b *Builder) toText() {
	n := b.Len()
	text, names := make(map[string]int32, n), make([]string, n)
	for i := range n {
		s := b.ID(int32(i))
		text[s] = int32(i)
		names[i] = s
	}
	b.isText, b.text, b.names = true, text, names
	b.dense, b.ints, b.order = 0, nil, nil
}

// Finish returns the map and perm, the final index of each provisional index
// (nil when they are equal). The Builder must not be used afterwards.
func (b *Builder) Finish() (m *Map, perm []int32) {
	if b.isText {
		m = &Map{n: len(b.names), names: b.names, index: b.text}
		b.text, b.names = nil, nil
		return m, nil
	}
	// The id table goes: a caller that keeps the Builder (in a struct, say)
	// does not keep it alive next to the Map.
	dense, extra := b.dense, b.order
	b.dense, b.ints, b.order = 0, nil, nil
	if len(extra) == 0 {
		return Identity(dense), nil
	}
	order := make([]int64, dense+len(extra))
	for i := range dense {
		order[i] = int64(i)
	}
	copy(order[dense:], extra)
	n := len(order)
	sorted := slices.Clone(order)
	slices.Sort(sorted)
	inOrder := true
	for i, v := range order {
		if sorted[i] != v {
			inOrder = false
			break
		}
	}
	if !inOrder {
		perm = make([]int32, n)
		for i, v := range order {
			j, _ := slices.BinarySearch(sorted, v)
			perm[i] = int32(j)
		}
	}
	if n == 0 || sorted[n-1] == int64(n-1) {
		return Identity(n), perm
	}
	return &Map{n: n, ints: sorted}, perm
}
