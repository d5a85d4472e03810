package loaders

import (
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/nodeids"
)

// allocBound is the most a table reader may allocate for an input of size
// bytes: a constant factor per byte (fields, ids, per-edge arrays) plus a
// fixed slack for buffers.
func allocBound(size int) uint64 { return uint64(400*size) + 4<<20 }

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

func FuzzEdgeTable(f *testing.F) {
	for _, s := range []string{
		"source,target\nuser_a,user_b\n", "0 1 {'weight': 0.5}\n", "\ufeff0\t1\t2\r\n", ",source,target\n0,a,b\n",
		"0 2000000000\n", "a;b\n", "\"x,y\",z\n", "user,friend\n1,2\n", "# c\n% d\n", "1 2 1e-400\n", "1 2 3 4\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var et *EdgeTable
		var err error
		got := allocated(func() {
			lr, lerr := lines(data)
			if lerr != nil {
				err = lerr
				return
			}
			var b nodeids.Builder
			et, err = decodeEdgeTable(lr, EdgeTableOptions{}, &b)
			if err == nil {
				require.LessOrEqual(t, len(et.Src), b.Len()*len(data)+1)
			}
		})
		require.LessOrEqual(t, got, allocBound(len(data)), "allocated %d bytes for %d input bytes", got, len(data))
		if err != nil {
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "not a *ParseError: %v", err)
			return
		}
		require.Equal(t, len(et.Src), len(et.Dst))
		require.Equal(t, len(et.Src), len(et.Lines))
		if et.W != nil {
			require.Equal(t, len(et.Src), len(et.W))
			for _, w := range et.W {
				require.True(t, w >= 0)
			}
		}
	})
}

func FuzzNodeValues(f *testing.F) {
	for _, s := range []string{"id,label\na,x\nb,\n", "1\n0\n-1\n", "node,label\n0,3.0\n1,NaN\n", "0,2147483647\n", "a,b,c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var err error
		got := allocated(func() {
			lr, lerr := lines(data)
			if lerr != nil {
				err = lerr
				return
			}
			var b nodeids.Builder
			var nv *nodeValues
			nv, err = decodeNodeValues(lr, TableOptions{}, &b, valueColumns{Names: []string{"label"}, ValueFlag: "--label-column", Role: "labels"})
			if err == nil {
				labels, names := classesOf(nv.Values)
				require.Len(t, labels, len(nv.Nodes))
				for _, c := range labels {
					require.True(t, c >= -1 && c < len(names))
				}
			}
		})
		require.LessOrEqual(t, got, allocBound(len(data)))
		if err != nil {
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "not a *ParseError: %v", err)
		}
	})
}
