//go:build unix

package graphfile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// touchAll reads every row offset, column, weight and degree of f's graph
// and returns their sum, turning a memory fault into an error (on this
// goroutine only: debug.SetPanicOnFault).
func touchAll(f *File) (sum float64, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(runtime.Error)
			if !ok {
				panic(r)
			}
			err = re
		}
	}()
	a := f.Graph.Arrays()
	for _, v := range a.Indptr {
		sum += float64(v)
	}
	for _, v := range a.Indices {
		sum += float64(v)
	}
	for _, v := range a.Weights {
		sum += v
	}
	for _, v := range f.Graph.Degrees() {
		sum += v
	}
	return sum, nil
}

// TestReplacedWhileOpen: a file truncated and rewritten in place while it
// is open (what cp new.gsg old.gsg does) leaves the graph Open returned
// intact: it is a private snapshot. With OpenOptions.Shared the same
// replacement removes the mapped pages under the reader: reading them
// faults, which SetPanicOnFault turns into an error here and which kills a
// process otherwise.
func TestReplacedWhileOpen(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.gsg")
	g := randomGraph(t, 3000, 20000, false, 5)
	require.NoError(t, Write(p, g, intIDs(t, 3000)))
	other := filepath.Join(dir, "other.gsg")
	require.NoError(t, Write(other, randomGraph(t, 10, 20, false, 6), nil))
	replacement, err := os.ReadFile(other)
	require.NoError(t, err)

	f, err := Open(p)
	require.NoError(t, err)
	defer f.Close()
	want, err := touchAll(f)
	require.NoError(t, err)
	// cp: open with O_TRUNC, write the new bytes.
	require.NoError(t, os.WriteFile(p, replacement, 0o644))
	got, err := touchAll(f)
	require.NoError(t, err, "the snapshot is not affected by the file")
	assert.Equal(t, want, got)
	requireSameGraph(t, g, f.Graph, false)

	require.NoError(t, Write(p, g, intIDs(t, 3000)))
	s, err := OpenWith(p, OpenOptions{Shared: true})
	require.NoError(t, err)
	defer s.Close()
	_, err = touchAll(s)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(p, 0))
	_, err = touchAll(s)
	require.Error(t, err, "a shared mapping of a truncated file faults")
	var re runtime.Error
	assert.True(t, errors.As(err, &re))
}
