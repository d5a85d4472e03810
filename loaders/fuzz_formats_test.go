package loaders

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

// The fuzz targets of the NumPy, SciPy, svmlight, IDX and OGB readers check
// that no input makes them panic, that every error is a *ParseError naming
// the file, and that what they allocate stays within a constant times the
// bytes the input really holds (after gzip or deflate, which the input's
// own length does not bound).

// binaryAllocBound is the most a binary reader may allocate for size bytes
// of (decompressed) input: the raw bytes, the typed elements and their
// float64 or int64 copies (8 bytes per 1-byte element) and the matrices
// built from them, plus buffers.
func binaryAllocBound(size int) uint64 { return uint64(48*size) + 2<<20 }

// fuzzSeeds adds the fixtures of testdata/formats whose names match.
func fuzzSeeds(f *testing.F, match func(name string) bool) {
	entries, err := os.ReadDir(formatsDir)
	require.NoError(f, err)
	for _, e := range entries {
		if match(e.Name()) {
			data, err := os.ReadFile(filepath.Join(formatsDir, e.Name()))
			require.NoError(f, err)
			f.Add(data)
		}
	}
}

// inflated returns the size of data after gunzip, when it is gzipped,
// reading at most limit bytes.
func inflated(data []byte, limit int64) int {
	if !bytes.HasPrefix(data, gzipMagic[:]) {
		return len(data)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return len(data)
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(zr, limit))
	return max(len(data), int(n))
}

// zipInflated returns the bytes the members of a zip archive inflate to,
// each read up to its declared size.
func zipInflated(data []byte) int {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return 0
	}
	total := 0
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			continue
		}
		n, _ := io.Copy(io.Discard, io.LimitReader(rc, int64(min(f.UncompressedSize64, 1<<30))+1))
		rc.Close()
		total += int(n)
	}
	return total
}

func requireFuzzError(t *testing.T, err error) {
	t.Helper()
	requireFileError(t, err)
}

func FuzzNPY(f *testing.F) {
	fuzzSeeds(f, func(name string) bool { return strings.HasSuffix(name, ".npy") })
	f.Add(npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }", make([]byte, 16)))
	f.Add(npyBytes("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3, 2), }", make([]byte, 12)))
	f.Add(npyBytes("{'descr': '<U2', 'fortran_order': False, 'shape': (), }", make([]byte, 8)))
	f.Add(npyBytes("{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,), }", make([]byte, 4)))
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a *npyArray
		var err error
		got := allocated(func() {
			a, err = decodeNPY(bytes.NewReader(data), int64(len(data)), "fuzz.txt", "")
			if err == nil {
				// The conversions allocate too.
				if m, merr := a.matrix("fuzz.txt", ""); merr == nil {
					r, c := m.Dims()
					require.Equal(t, a.len(), r*c)
				} else {
					requireFuzzError(t, merr)
				}
				if v, verr := a.vector("fuzz.txt", ""); verr == nil {
					require.Len(t, v, a.len())
				} else {
					requireFuzzError(t, verr)
				}
				if l, lerr := a.labels("fuzz.txt", ""); lerr == nil {
					require.Len(t, l, a.len())
				} else {
					requireFuzzError(t, lerr)
				}
			}
		})
		require.LessOrEqual(t, got, binaryAllocBound(len(data)), "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			requireFuzzError(t, err)
			return
		}
		n := 1
		for _, d := range a.shape {
			n *= d
		}
		if a.kind != 'S' && a.kind != 'U' {
			require.Equal(t, n, a.len())
		}
	})
}

func FuzzNPZ(f *testing.F) {
	fuzzSeeds(f, func(name string) bool { return strings.HasSuffix(name, ".npz") })
	huge := npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000, 1000000), }", make([]byte, 16))
	f.Add(zipOf(f, map[string][]byte{"x.npy": huge}, true))
	f.Add(patchZipSizes(f, zipOf(f, map[string][]byte{"x.npy": huge}, true), 0xfffffff0))
	f.Add(zipOf(f, map[string][]byte{
		"format.npy": npyOf(f, "", "coo"), "shape.npy": npyOf(f, "(2,)", []int64{2000000000, 2000000000}),
		"row.npy": npyOf(f, "(1,)", []int64{0}), "col.npy": npyOf(f, "(1,)", []int64{1}), "data.npy": npyOf(f, "(1,)", []float64{1}),
	}, false))
	f.Fuzz(func(t *testing.T, data []byte) {
		bound := binaryAllocBound(len(data) + zipInflated(data))
		var err error
		got := allocated(func() {
			var z *npzFile
			z, err = newNPZ(bytes.NewReader(data), int64(len(data)), "fuzz.txt")
			if err != nil {
				return
			}
			for _, name := range z.names() {
				if _, aerr := z.array(name); aerr != nil {
					requireFuzzError(t, aerr)
				}
			}
			s, serr := decodeScipy(z)
			if serr != nil {
				requireFuzzError(t, serr)
				return
			}
			if sp, serr := s.sparse("fuzz.txt"); serr == nil {
				checkSparse(t, sp)
			} else {
				requireFuzzError(t, serr)
			}
			for _, opt := range []graph.Options{{}, OGBGraphOptions(), {Symmetrize: graph.DirectedSum, Duplicates: graph.DuplicateSum}} {
				if g, gerr := s.graph("fuzz.txt", opt); gerr == nil {
					checkGraph(t, g)
				} else {
					requireFuzzError(t, gerr)
				}
			}
		})
		require.LessOrEqual(t, got, bound, "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			requireFuzzError(t, err)
		}
	})
}

func FuzzSVMLight(f *testing.F) {
	fuzzSeeds(f, func(name string) bool { return strings.HasPrefix(name, "svm_") })
	for _, s := range []string{"1 1:1 2:0.5\n-1 qid:3 4:2 # c\n", "1 0:1\n", "1,2 1:1\n", "1 2:1 1:1\n", "1 2147483646:1\n", "1 1:1\n\n2 1:1\n", "nan\n", "1 qid:1\n"} {
		f.Add([]byte(s))
	}
	f.Add(gzipped(f, []byte("1 1:1\n0 3:2\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, zeroBased := range []bool{false, true} {
			var s *Sparse
			var y []float64
			var err error
			got := allocated(func() {
				lr, lerr := lines(data)
				if lerr != nil {
					err = lerr
					return
				}
				s, y, err = decodeSVMLight(lr, zeroBased)
			})
			require.LessOrEqual(t, got, allocBound(inflated(data, 1<<26)), "allocated %d bytes for %d input bytes", got, len(data))
			if err != nil {
				requireFuzzError(t, err)
				continue
			}
			checkSparse(t, s)
			require.Len(t, y, s.Rows)
			for _, v := range y {
				require.False(t, math.IsNaN(v) || math.IsInf(v, 0))
			}
		}
	})
}

func FuzzIDX(f *testing.F) {
	fuzzSeeds(f, func(name string) bool { return strings.Contains(name, "-idx") })
	f.Add(idxBytes(0x08, []uint32{60000000, 28, 28}, make([]byte, 100)))
	f.Add(gzipped(f, idxBytes(0x08, []uint32{60000000, 28, 28}, make([]byte, 100))))
	f.Add(idxBytes(0x0C, []uint32{2}, []byte{0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff}))
	f.Add(idxBytes(0x0E, []uint32{0xffffffff, 0xffffffff}, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a *idxArray
		var err error
		got := allocated(func() {
			a, err = decodeIDX(bytes.NewReader(data), int64(len(data)), "fuzz.txt")
		})
		require.LessOrEqual(t, got, binaryAllocBound(inflated(data, 1<<26)), "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			requireFuzzError(t, err)
			return
		}
		n := idxTypes[a.typ].size
		for _, d := range a.dims {
			n *= d
		}
		require.Len(t, a.data, n)
	})
}

func FuzzOGBLabels(f *testing.F) {
	for _, s := range []string{"0\n1\n\"\"\n3.0\nnan\n", "0,1\n", "-1\n-2\n", "2147483648\n", "\n\n", "1e300\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var values []ogbLabel
		var err error
		got := allocated(func() {
			lr, lerr := lines(data)
			if lerr != nil {
				err = lerr
				return
			}
			values, err = decodeOGBLabels(lr)
		})
		require.LessOrEqual(t, got, allocBound(inflated(data, 1<<26)))
		if err != nil {
			requireFuzzError(t, err)
			return
		}
		labels, names := ogbClasses(values)
		require.Len(t, labels, len(values))
		for _, l := range labels {
			require.True(t, l >= -1 && l < len(names))
		}
		require.LessOrEqual(t, len(names), len(values))
	})
}

// TestFuzzSeedsBinary keeps the helpers of the binary seeds honest: a
// patched zip still parses as a zip.
func TestFuzzSeedsBinary(t *testing.T) {
	z := patchZipSizes(t, zipOf(t, map[string][]byte{"x.npy": []byte("abc")}, true), 7)
	zr, err := zip.NewReader(bytes.NewReader(z), int64(len(z)))
	require.NoError(t, err)
	require.Equal(t, uint64(7), zr.File[0].UncompressedSize64)
	require.Equal(t, uint32(0x803), binary.BigEndian.Uint32(idxBytes(0x08, []uint32{1, 1, 1}, []byte{0})))
}
