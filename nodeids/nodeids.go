package nodeids

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// MaxNodes is the largest number of nodes a Map holds: graph indices are
// int32.
const MaxNodes = math.MaxInt32

// Map is a bijection between node indices 0..n−1 and the user's ids. The
// zero value is an empty map. A Map is immutable and safe for concurrent use.
type Map struct {
	n     int
	ints  []int64          // integer ids, ascending: node i is ints[i] (nil for identity or text ids)
	names []string         // text ids: node i is names[i]
	index map[string]int32 // text ids: the inverse of names
}

// Identity returns the map of n nodes whose ids are "0".."n−1". It panics if
// n is negative or above MaxNodes.
func Identity(n int) *Map {
	if n < 0 || n > MaxNodes {
		panic(fmt.Sprintf("nodeids: node count %d out of range [0, %d]", n, MaxNodes))
	}
	return &Map{n: n}
}

// FromInts returns the map whose node i has id ids[i]. The ids must be
// non-negative, distinct and ascending.
func FromInts(ids []int64) (*Map, error) {
	if len(ids) > MaxNodes {
		return nil, fmt.Errorf("nodeids: %d ids, at most %d", len(ids), MaxNodes)
	}
	for i, v := range ids {
		if v < 0 {
			return nil, fmt.Errorf("nodeids: id %d of node %d is negative", v, i)
		}
		if i > 0 && ids[i-1] >= v {
			return nil, fmt.Errorf("nodeids: ids not strictly ascending at node %d (%d after %d)", i, v, ids[i-1])
		}
	}
	if len(ids) == 0 || ids[len(ids)-1] == int64(len(ids)-1) {
		return Identity(len(ids)), nil
	}
	return &Map{n: len(ids), ints: slices.Clone(ids)}, nil
}

// FromStrings returns the map whose node i has id names[i]. The names must
// be distinct and non-empty.
func FromStrings(names []string) (*Map, error) {
	if len(names) > MaxNodes {
		return nil, fmt.Errorf("nodeids: %d ids, at most %d", len(names), MaxNodes)
	}
	index := make(map[string]int32, len(names))
	for i, s := range names {
		if s == "" {
			return nil, fmt.Errorf("nodeids: node %d has an empty id", i)
		}
		if j, ok := index[s]; ok {
			return nil, fmt.Errorf("nodeids: id %q names nodes %d and %d", s, j, i)
		}
		index[s] = int32(i)
	}
	return &Map{n: len(names), names: slices.Clone(names), index: index}, nil
}

// Len returns the number of nodes.
func (m *Map) Len() int { return m.n }

// IsIdentity reports whether node i has the id "i" for every i.
func (m *Map) IsIdentity() bool { return m.ints == nil && m.names == nil }

// IsText reports whether the ids are text rather than integers.
func (m *Map) IsText() bool { return m.names != nil }

// ID returns the id of node i. It panics if i is out of range.
func (m *Map) ID(i int) string {
	if i < 0 || i >= m.n {
		panic(fmt.Sprintf("nodeids: node %d out of range [0, %d)", i, m.n))
	}
	switch {
	case m.names != nil:
		return m.names[i]
	case m.ints != nil:
		return strconv.FormatInt(m.ints[i], 10)
	}
	return strconv.Itoa(i)
}

// IntID returns the integer id of node i and true, or 0 and false for text
// ids. It panics if i is out of range.
func (m *Map) IntID(i int) (int64, bool) {
	if i < 0 || i >= m.n {
		panic(fmt.Sprintf("nodeids: node %d out of range [0, %d)", i, m.n))
	}
	switch {
	case m.names != nil:
		return 0, false
	case m.ints != nil:
		return m.ints[i], true
	}
	return int64(i), true
}

// Lookup returns the node whose id is id.
func (m *Map) Lookup(id string) (int, bool) {
	if m.names != nil {
		i, ok := m.index[id]
		return int(i), ok
	}
	v, ok := parseCanonical(id)
	if !ok {
		return 0, false
	}
	return m.LookupInt(v)
}

// LookupInt returns the node whose id is the integer v.
func (m *Map) LookupInt(v int64) (int, bool) {
	switch {
	case m.names != nil:
		i, ok := m.index[strconv.FormatInt(v, 10)]
		return int(i), ok
	case m.ints != nil:
		i, ok := slices.BinarySearch(m.ints, v)
		return i, ok
	}
	if v >= 0 && v < int64(m.n) {
		return int(v), true
	}
	return 0, false
}

// Ints returns the integer ids in node order (a copy), or nil for text ids.
func (m *Map) Ints() []int64 {
	if m.names != nil {
		return nil
	}
	if m.ints != nil {
		return slices.Clone(m.ints)
	}
	out := make([]int64, m.n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// Strings returns every id in node order (a new slice).
func (m *Map) Strings() []string {
	out := make([]string, m.n)
	for i := range out {
		out[i] = m.ID(i)
	}
	return out
}

// Subset returns the map of the nodes in nodes (in that order), as the map of
// an induced subgraph: node k of the result has the id of node nodes[k].
func (m *Map) Subset(nodes []int) *Map {
	if m.names != nil {
		names := make([]string, len(nodes))
		index := make(map[string]int32, len(nodes))
		for k, i := range nodes {
			names[k] = m.ID(i)
			index[names[k]] = int32(k)
		}
		return &Map{n: len(nodes), names: names, index: index}
	}
	ints := make([]int64, len(nodes))
	ascending := true
	for k, i := range nodes {
		ints[k], _ = m.IntID(i)
		if k > 0 && ints[k] <= ints[k-1] {
			ascending = false
		}
	}
	if ascending {
		if mm, err := FromInts(ints); err == nil {
			return mm
		}
	}
	// Integer ids out of ascending order are kept as text.
	names := make([]string, len(nodes))
	index := make(map[string]int32, len(nodes))
	for k, v := range ints {
		names[k] = strconv.FormatInt(v, 10)
		index[names[k]] = int32(k)
	}
	return &Map{n: len(nodes), names: names, index: index}
}

// ParseCanonical reports whether s is an integer id in this package's
// sense, one that a Map keeps as a number, and returns its value: a
// non-negative integer in canonical decimal form (no sign, no leading zero
// but "0" itself, at most 18 digits).
func ParseCanonical(s string) (int64, bool) { return parseCanonical(s) }

// parseCanonical parses a non-negative integer in canonical decimal form: no
// sign, no leading zero (but "0" itself), at most 18 digits.
func parseCanonical(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}
