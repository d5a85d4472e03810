package savedmodel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
	"github.com/gssl/gssl/svm"
)

// TestHostileFile: a model file of a kind saved by modelfile.Codec with
// checked readers (labelprop, stkr, imgp, nodeclass, spectral, the WL
// classifier), with valid checksums (as a writer other than gssl could
// make it) but one metadata number changed to a hostile value, or one
// section dropped, shortened or emptied, is read without a panic and
// without allocating more than a small multiple of what reading the intact
// file allocates. (Whether the change is refused depends on the field: a
// fitted counter such as an iteration count may take any value.)
func TestHostileFile(t *testing.T) {
	fx := kindFixtures(t)
	kinds := []string{labelprop.SpreadingKind, labelprop.HarmonicKind, stkr.RegressorKind, stkr.ClassifierKind, imgp.RegressorKind,
		nodeclass.SGCKind, nodeclass.APPNPKind, nodeclass.CorrectSmoothKind, nodeclass.SepGNNKind, nodeclass.LINKXKind, nodeclass.ChannelMLPKind, nodeclass.APPNPNetKind, linbp.PropagationKind, spectral.SpectralClusteringKind, graphkernels.WLClassifierKind,
		svm.PointSVCKind, gp.RegressorKind, krr.ExactKind, krr.NystromKind, krr.FalkonKind, krr.RandomFeaturesKind}
	hostile := []string{"-1", "0", "2147483647", "4611686018427387904", "-4611686018427387904", "1e300"}
	for _, kind := range kinds {
		f, err := File(fx[kind].m, fx[kind].c)
		require.NoError(t, err, kind)
		intact := decodeAlloc(t, kind, f)
		require.NoError(t, intact.err, kind)
		limit := 4*intact.bytes + 1<<20
		checks, refused := 0, 0
		check := func(what string, g *modelfile.File) {
			t.Helper()
			r := decodeAlloc(t, kind+": "+what, g)
			checks++
			if r.err != nil {
				refused++
			}
			if r.bytes > limit {
				t.Errorf("%s: %s: reading allocated %d bytes, the intact file %d", kind, what, r.bytes, intact.bytes)
			}
		}
		for _, path := range numberPaths(t, f.Metadata) {
			for _, v := range hostile {
				g := cloneFile(t, f, "", 0)
				g.Metadata = setNumber(t, f.Metadata, path, v)
				check(fmt.Sprintf("metadata %v = %s", path, v), g)
			}
		}
		for _, s := range f.Sections() {
			for _, keep := range []int{-1, 0, s.Len - 1} {
				if keep < -1 || keep >= s.Len {
					continue
				}
				check(fmt.Sprintf("section %q cut to %d of %d elements", s.Name, keep, s.Len), cloneFile(t, f, s.Name, keep))
			}
		}
		t.Logf("%s: %d hostile files, %d refused", kind, checks, refused)
	}
}

type allocResult struct {
	bytes uint64
	err   error
}

// decodeAlloc decodes f as Open does and returns the bytes it allocated;
// a panic fails the test.
func decodeAlloc(t *testing.T, what string, f *modelfile.File) (r allocResult) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s: panic: %v", what, p)
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, r.err = Decode(f)
	runtime.ReadMemStats(&after)
	r.bytes = after.TotalAlloc - before.TotalAlloc
	return r
}

// numberPaths lists the paths (object keys and array indices) of every
// number in the JSON object meta.
func numberPaths(t *testing.T, meta []byte) [][]any {
	var out [][]any
	var walk func(v any, path []any)
	walk = func(v any, path []any) {
		switch v := v.(type) {
		case json.Number:
			out = append(out, slices.Clone(path))
		case map[string]any:
			for _, k := range slices.Sorted(func(yield func(string) bool) {
				for k := range v {
					if !yield(k) {
						return
					}
				}
			}) {
				walk(v[k], append(path, k))
			}
		case []any:
			for i, e := range v {
				walk(e, append(path, i))
			}
		}
	}
	walk(decodeNumbers(t, meta), nil)
	return out
}

func decodeNumbers(t *testing.T, meta []byte) any {
	d := json.NewDecoder(bytes.NewReader(meta))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	return v
}

// setNumber returns meta with the number at path replaced by the literal v.
func setNumber(t *testing.T, meta []byte, path []any, v string) json.RawMessage {
	root := decodeNumbers(t, meta)
	cur := root
	for i, p := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[p.(string)] = json.Number(v)
			} else {
				cur = c[p.(string)]
			}
		case []any:
			if last {
				c[p.(int)] = json.Number(v)
			} else {
				cur = c[p.(int)]
			}
		}
	}
	b, err := json.Marshal(root)
	require.NoError(t, err)
	return b
}

// cloneFile copies f; the section named cut keeps its first keep elements
// (−1: it is dropped).
func cloneFile(t *testing.T, f *modelfile.File, cut string, keep int) *modelfile.File {
	g := modelfile.New(f.Kind, f.KindVersion)
	g.Writer, g.Metadata = f.Writer, f.Metadata
	for _, s := range f.Sections() {
		n := s.Len
		if s.Name == cut {
			if keep < 0 {
				continue
			}
			n = keep
		}
		var err error
		switch s.Type {
		case modelfile.Bytes:
			var v []byte
			if v, err = f.Bytes(s.Name); err == nil {
				g.PutBytes(s.Name, v[:n])
			}
		case modelfile.Int32s:
			var v []int32
			if v, err = f.Int32s(s.Name); err == nil {
				g.PutInt32s(s.Name, v[:n])
			}
		case modelfile.Int64s:
			var v []int64
			if v, err = f.Int64s(s.Name); err == nil {
				g.PutInt64s(s.Name, v[:n])
			}
		case modelfile.Float64s:
			var v []float64
			if v, err = f.Float64sNonFinite(s.Name); err == nil {
				g.PutFloat64s(s.Name, v[:n])
			}
		case modelfile.Strings:
			var v []string
			if v, err = f.Strings(s.Name); err == nil {
				g.PutStrings(s.Name, v[:n])
			}
		}
		require.NoError(t, err, s.Name)
	}
	return g
}
