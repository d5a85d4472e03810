package loaders

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// readEdgeIndexFile reads a PyG-style edge_index array: a .npy of integers
// of shape (2, E) (PyTorch Geometric's layout: row 0 the sources, row 1 the
// targets) or (E, 2) (one edge per row), or a .npz archive holding one such
// array (named edge_index, or its only array) and optionally the edges'
// weights (edge_weight, a vector of E finite values ≥ 0). A (2, 2) array is
// two edges either way: it is read only when both layouts give the same
// edges, and is otherwise an error. Arrays take at most limit bytes once
// decoded (0: no limit).
func readEdgeIndexFile(path string, isZip bool, limit int64, rows edgeRows) (TableReport, error) {
	rep := TableReport{Path: path, Role: "edges", Format: "edge-index", Weight: "none (every edge weighs 1)"}
	var (
		a      *npyArray
		w      []float64
		entry  string
		wentry string
		err    error
	)
	if isZip {
		z, err := openNPZLimit(path, limit)
		if err != nil {
			return rep, err
		}
		defer z.close()
		names := z.names()
		switch {
		case z.has("edge_index"):
			entry = "edge_index"
		case len(names) == 1:
			entry = names[0]
		default:
			return rep, &ParseError{Path: path, Msg: fmt.Sprintf("a .npz of %d arrays (%s) and no edge_index: name the array of edges edge_index (numpy.savez(path, edge_index=…))", len(names), strings.Join(names, ", "))}
		}
		if a, err = z.array(entry); err != nil {
			return rep, err
		}
		for _, name := range []string{"edge_weight", "weight"} {
			if !z.has(name) || name == entry {
				continue
			}
			wa, err := z.array(name)
			if err != nil {
				return rep, err
			}
			if w, err = wa.vector(path, name); err != nil {
				return rep, err
			}
			wentry = name
			break
		}
		entry = z.member(entry).Name
	} else if a, err = readNPYFileLimit(path, limit); err != nil {
		return rep, err
	}
	src, dst, note, err := edgeIndexColumns(a, path, entry)
	if err != nil {
		return rep, err
	}
	rep.Note = note
	if w != nil && len(w) != len(src) {
		return rep, npyError(path, wentry, "%d weights for the %d edges of %s", len(w), len(src), shapeString(a.shape))
	}
	if w != nil {
		rep.Weight = fmt.Sprintf("array %s", wentry)
	}
	for k := range src {
		for j, id := range [2]int64{src[k], dst[k]} {
			if id < 0 {
				return rep, npyError(path, entry, "edge %d has the negative node id %d", k, id)
			}
			if err := rows.id(j, 0, strconv.FormatInt(id, 10)); err != nil {
				return rep, err
			}
		}
		wk := 1.0
		if w != nil {
			if wk, err = parseWeight(strconv.FormatFloat(w[k], 'g', -1, 64)); err != nil {
				return rep, npyError(path, wentry, "edge %d: %v", k, err)
			}
		}
		if err := rows.weight(wk, w != nil); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// edgeIndexColumns returns the sources and targets of an edge_index array
// and how its layout was decided.
func edgeIndexColumns(a *npyArray, path, entry string) (src, dst []int64, note string, err error) {
	if a.kind != 'i' && a.kind != 'u' {
		return nil, nil, "", npyError(path, entry, "an array of %s: an edge_index array holds integer node ids (PyG's torch.long); a float array is not an edge list", a.dtype)
	}
	if len(a.shape) != 2 || (a.shape[0] != 2 && a.shape[1] != 2) {
		return nil, nil, "", npyError(path, entry, "an array of shape %s: an edge_index array has shape (2, E) or (E, 2)", shapeString(a.shape))
	}
	r, c := a.shape[0], a.shape[1]
	if r*c == 0 {
		return nil, nil, "", npyError(path, entry, "an array of shape %s has no edges", shapeString(a.shape))
	}
	rowsLayout := func() ([]int64, []int64) { // (2, E)
		return a.ints[:c], a.ints[c:]
	}
	colsLayout := func() ([]int64, []int64) { // (E, 2)
		s, d := make([]int64, r), make([]int64, r)
		for k := 0; k < r; k++ {
			s[k], d[k] = a.ints[2*k], a.ints[2*k+1]
		}
		return s, d
	}
	switch {
	case r == 2 && c == 2:
		s1, d1 := rowsLayout()
		s2, d2 := colsLayout()
		if !sameEdges(s1, d1, s2, d2) {
			return nil, nil, "", npyError(path, entry, "a 2×2 array is two edges in either layout, (2, E) as PyG stores them or (E, 2), and the two give different edges (%v or %v): write the edges one per line as text, or add the third edge", pairs(s1, d1), pairs(s2, d2))
		}
		src, dst = s1, d1
		note = "2×2: both layouts, (2, E) and (E, 2), give the same edges"
	case r == 2:
		src, dst = rowsLayout()
		note = fmt.Sprintf("shape (2, %d): PyG's layout, row 0 the sources, row 1 the targets", c)
	default:
		src, dst = colsLayout()
		note = fmt.Sprintf("shape (%d, 2): one edge per row", r)
	}
	return src, dst, note, nil
}

// sameEdges reports whether two lists of two undirected edges are the same
// multiset.
func sameEdges(s1, d1, s2, d2 []int64) bool {
	key := func(s, d []int64) [][2]int64 {
		out := make([][2]int64, len(s))
		for k := range s {
			out[k] = [2]int64{min(s[k], d[k]), max(s[k], d[k])}
		}
		slices.SortFunc(out, func(a, b [2]int64) int {
			if a[0] != b[0] {
				return cmpInt(a[0], b[0])
			}
			return cmpInt(a[1], b[1])
		})
		return out
	}
	return slices.Equal(key(s1, d1), key(s2, d2))
}

func pairs(s, d []int64) string {
	var b bytes.Buffer
	for k := range s {
		if k > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "(%d, %d)", s[k], d[k])
	}
	return b.String()
}
