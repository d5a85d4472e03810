package loaders

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/nodeids"
)

// The fuzz targets of the graph formats read by content (GraphML, GML,
// networkx's adjacency lists, edge_index arrays) and of the sniffing that
// chooses among them check that no input panics, that every error is a
// *ParseError, that what they allocate stays within a constant times the
// input's bytes, and that the rows they hand over are whole (a source, a
// target and a finite weight ≥ 0 for every edge).

// userFormatSeeds adds the fixtures of testdata/userformats whose names
// match.
func userFormatSeeds(f *testing.F, match func(name string) bool) {
	entries, err := os.ReadDir(userFormatsDir)
	require.NoError(f, err)
	for _, e := range entries {
		if match(e.Name()) {
			data, err := os.ReadFile(filepath.Join(userFormatsDir, e.Name()))
			require.NoError(f, err)
			f.Add(data)
		}
	}
}

// checkedRows checks the rows a reader hands over and keeps them.
type checkedRows struct {
	t     *testing.T
	b     nodeids.Builder
	et    EdgeTable
	inner tableRows
	have  int // ids handed over for the current row
}

func newCheckedRows(t *testing.T) *checkedRows {
	r := &checkedRows{t: t}
	r.inner = tableRows{path: "fuzz.txt", b: &r.b, et: &r.et}
	return r
}

func (r *checkedRows) id(k, line int, id string) error {
	require.Equal(r.t, r.have, k, "ids in order")
	require.NotEmpty(r.t, id)
	r.have++
	return r.inner.id(k, line, id)
}

func (r *checkedRows) weight(w float64, weighted bool) error {
	require.Equal(r.t, 2, r.have, "two ids before the weight")
	require.True(r.t, w >= 0 && !math.IsInf(w, 0), "weight %v", w)
	r.have = 0
	return r.inner.weight(w, weighted)
}

func (r *checkedRows) addNode(_ int, id string) error {
	_, err := r.b.Add(id)
	if err != nil {
		return &ParseError{Path: "fuzz.txt", Msg: err.Error()}
	}
	return nil
}

func requireParseErrorType(t *testing.T, err error) {
	t.Helper()
	var pe *ParseError
	require.True(t, errors.As(err, &pe), "not a *ParseError: %v", err)
}

func FuzzGraphML(f *testing.F) {
	userFormatSeeds(f, func(name string) bool { return strings.HasSuffix(name, ".graphml") })
	f.Add([]byte(`<graphml><key id="w" for="edge" attr.name="weight"><default>2</default></key><graph><edge source="a" target="b"/></graph></graphml>`))
	f.Add([]byte(`<graphml><graph><node id="a"><graph/></node></graph></graphml>`))
	f.Add([]byte(`<?xml version="1.0"?><graphml><graph><edge source="a" target="b"><data key="x">&amp;</data></edge></graph><graph/></graphml>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		r := newCheckedRows(t)
		got := allocated(func() {
			_, err = readGraphML(bytes.NewReader(data), "fuzz.txt", "", r, r.addNode)
		})
		require.LessOrEqual(t, got, allocBound(len(data)), "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			requireParseErrorType(t, err)
			return
		}
		require.Positive(t, r.et.Len())
	})
}

func FuzzGML(f *testing.F) {
	userFormatSeeds(f, func(name string) bool { return strings.HasSuffix(name, ".gml") })
	f.Add([]byte("graph [ node [ id 0 label \"a&#34;\" ] node [ id 1 ] edge [ source 0 target 1 weight 1e-400 ] ]"))
	f.Add([]byte("Creator \"x\"\ngraph [ directed 1 node [ id 0 ] edge [ source 0 target 0 data [ a [ b 1 ] ] ] ]"))
	f.Add([]byte("graph [ [ ] ]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		r := newCheckedRows(t)
		got := allocated(func() {
			lr, lerr := lines(data)
			if lerr != nil {
				err = lerr
				return
			}
			_, err = readGML(lr, "", r, r.addNode)
		})
		require.LessOrEqual(t, got, allocBound(len(data)), "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			requireParseErrorType(t, err)
			return
		}
		require.Positive(t, r.et.Len())
	})
}

func FuzzAdjList(f *testing.F) {
	userFormatSeeds(f, func(name string) bool { return strings.HasSuffix(name, ".adjlist") })
	f.Add([]byte("#x\n# GMT y\n# z\na 2\nb {'weight': 3}\nc {}\n"))
	f.Add([]byte("#x\n# GMT y\n# z\na b c\nd\n"))
	f.Add([]byte("#x\n# GMT y\n# z\na 99999999999\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		r := newCheckedRows(t)
		_, multi := networkxAdjHeader(data)
		got := allocated(func() {
			lr, lerr := lines(data)
			if lerr != nil {
				err = lerr
				return
			}
			_, err = readAdjList(lr, multi, r, r.addNode)
		})
		require.LessOrEqual(t, got, allocBound(len(data)), "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			requireParseErrorType(t, err)
			return
		}
		require.Positive(t, r.et.Len())
	})
}

func FuzzEdgeIndex(f *testing.F) {
	userFormatSeeds(f, func(name string) bool { return strings.HasSuffix(name, ".npy") || strings.HasSuffix(name, ".npz") })
	f.Add(npyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 1000000000), }", make([]byte, 32)))
	f.Add(npyBytes("{'descr': '<i4', 'fortran_order': True, 'shape': (3, 2), }", make([]byte, 24)))
	f.Add(npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }", []byte{0, 1, 1, 0}))
	f.Fuzz(func(t *testing.T, data []byte) {
		path, err := writeFuzzFile(t, data)
		if err != nil {
			t.Skip(err)
		}
		r := newCheckedRows(t)
		isZip := bytes.HasPrefix(data, zipMagic)
		got := allocated(func() {
			_, err = readEdgeIndexFile(path, isZip, 1<<30, r)
		})
		size := len(data)
		if isZip {
			size = max(size, zipInflated(data))
		}
		require.LessOrEqual(t, got, binaryAllocBound(size)+allocBound(size), "allocated %d bytes for %d input bytes", got, size)
		if err != nil {
			if !strings.Contains(err.Error(), "loaders: ") {
				t.Fatalf("error without the package prefix: %v", err)
			}
			return
		}
		require.Positive(t, r.et.Len())
	})
}

// FuzzSniffLoad runs LoadNodes on any content as an edge file: whatever
// the format sniffed, an error or a graph, never a panic.
func FuzzSniffLoad(f *testing.F) {
	userFormatSeeds(f, func(name string) bool { return !strings.HasSuffix(name, ".py") && !strings.HasSuffix(name, ".json") })
	f.Add([]byte("% c\n3 3 2\n1 2 1\n2 3 1\n"))
	f.Add([]byte("source,target\na,b\nsource,target\n"))
	f.Add([]byte("x,y\r1,2\r"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path, err := writeFuzzFile(t, data)
		if err != nil {
			t.Skip(err)
		}
		ds, err := LoadNodes(NodeFiles{Edges: path, Graph: UserGraphOptions(), MaxMemory: 1 << 28})
		if err != nil {
			require.Contains(t, err.Error(), "loaders: ")
			return
		}
		defer ds.Close()
		checkGraph(t, ds.Graph)
		require.NotEmpty(t, ds.Reports)
	})
}
