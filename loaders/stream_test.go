//go:build unix

package loaders

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/inputfile"
)

// pipeOf returns a /dev/fd path that reads the file src through a pipe, as
// a shell's process substitution <(cat src) does.
func pipeOf(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	return pipeBytes(t, data)
}

func pipeBytes(t *testing.T, data []byte) string {
	t.Helper()
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { pr.Close() })
	go func() {
		pw.Write(data)
		pw.Close()
	}()
	return "/dev/fd/" + strconv.Itoa(int(pr.Fd()))
}

// fifoOf returns a named pipe (mkfifo) that hands out src's bytes once.
func fifoOf(t *testing.T, src string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), filepath.Base(src)+".fifo")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	go func() {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			w.Write(data)
			w.Close()
		}
	}()
	return path
}

// sameDataset checks that got, read from streams, equals want, read from
// the regular files, in every field (float64 values compared exactly), the
// reports but for their paths.
func sameDataset(t *testing.T, want, got *NodeDataset) {
	t.Helper()
	require.Len(t, got.Reports, len(want.Reports))
	got.Name = want.Name // the base name of the path
	// A .gsg graph's closer names the file it maps.
	wc, gc := want.closer, got.closer
	want.closer, got.closer = nil, nil
	defer func() { want.closer, got.closer = wc, gc }()
	for k := range want.Reports {
		want.Reports[k].Path, got.Reports[k].Path = "", ""
	}
	assert.Equal(t, want, got)
}

// TestLoadNodesFromPipes reads Cora's edges, labels and gzipped features
// through pipes (process substitution) and through FIFOs: the data set is
// the one read from the files. Before package inputfile the format sniffer
// read the pipe's head and the reader then found it empty.
func TestLoadNodesFromPipes(t *testing.T) {
	t.Cleanup(inputfile.Release)
	files := NodeFiles{Edges: "../testdata/cora/edges.txt", Labels: "../testdata/cora/labels.txt", Features: "../testdata/cora/features.txt.gz", Graph: UserGraphOptions()}
	want, err := LoadNodes(files)
	require.NoError(t, err)
	for name, stream := range map[string]func(*testing.T, string) string{"pipe": pipeOf, "fifo": fifoOf} {
		t.Run(name, func(t *testing.T) {
			t.Cleanup(inputfile.Release)
			f := files
			f.Edges, f.Labels, f.Features = stream(t, files.Edges), stream(t, files.Labels), stream(t, files.Features)
			got, err := LoadNodes(f)
			require.NoError(t, err)
			assert.Equal(t, f.Edges, got.Reports[0].Path, "the report names the user's path")
			sameDataset(t, want, got)
		})
	}
}

// TestLoadNodesFormatsFromPipes reads through a pipe the graph formats
// that are sniffed or need random access: a gzipped GraphML file, a .npz
// edge_index (zip members), a .npy edge_index, a NumPy labels vector and a
// .gsg graph file.
func TestLoadNodesFormatsFromPipes(t *testing.T) {
	t.Cleanup(inputfile.Release)
	gsg := filepath.Join(t.TempDir(), "cora.gsg")
	cora, err := LoadNodes(NodeFiles{Edges: "../testdata/cora/edges.txt", Graph: UserGraphOptions()})
	require.NoError(t, err)
	require.NoError(t, graphfile.Write(gsg, cora.Graph, cora.IDs))
	for _, files := range []NodeFiles{
		{Edges: "../testdata/userformats/karate.graphml.gz"},
		{Edges: "../testdata/userformats/karate.gml"},
		{Edges: "../testdata/userformats/edge_index.npz"},
		{Edges: "../testdata/userformats/edge_index_2xE.npy", Labels: "../testdata/userformats/labels_full.npy"},
		{Edges: gsg},
	} {
		t.Run(filepath.Base(files.Edges), func(t *testing.T) {
			t.Cleanup(inputfile.Release)
			files.Graph = UserGraphOptions()
			want, err := LoadNodes(files)
			require.NoError(t, err)
			defer want.Close()
			f := files
			f.Edges = pipeOf(t, files.Edges)
			if files.Labels != "" {
				f.Labels = pipeOf(t, files.Labels)
			}
			got, err := LoadNodes(f)
			require.NoError(t, err)
			defer got.Close()
			sameDataset(t, want, got)
		})
	}
}

// TestLoadNodesStdin reads the edges from standard input ("-"), and names
// it "standard input" in an error with its line.
func TestLoadNodesStdin(t *testing.T) {
	withStdin := func(t *testing.T, data []byte) {
		pr, pw, err := os.Pipe()
		require.NoError(t, err)
		old := os.Stdin
		os.Stdin = pr
		t.Cleanup(func() { os.Stdin = old; pr.Close(); inputfile.Release() })
		go func() { pw.Write(data); pw.Close() }()
	}
	t.Run("edges", func(t *testing.T) {
		want, err := LoadNodes(NodeFiles{Edges: "../testdata/cora/edges.txt", Graph: UserGraphOptions()})
		require.NoError(t, err)
		data, err := os.ReadFile("../testdata/cora/edges.txt")
		require.NoError(t, err)
		withStdin(t, data)
		got, err := LoadNodes(NodeFiles{Edges: "-", Graph: UserGraphOptions()})
		require.NoError(t, err)
		assert.Contains(t, got.Reports[0].String(), "edges standard input: ")
		sameDataset(t, want, got)
	})
	t.Run("error", func(t *testing.T) {
		withStdin(t, []byte("a b\nb c\nc d 1 2 3\n"))
		_, err := LoadNodes(NodeFiles{Edges: "-", Graph: UserGraphOptions()})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "loaders: standard input:3:")
	})
}

// TestStreamErrorsNameThePath checks that an error in a piped file names
// the user's path and line, and that a stream past MaxMemory is refused
// naming its path and the cap.
func TestStreamErrorsNameThePath(t *testing.T) {
	t.Cleanup(inputfile.Release)
	edges := pipeBytes(t, []byte("a,b\nb,c\n"))
	labels := pipeBytes(t, []byte("id,label\na,x\nb,y,z,w\n"))
	_, err := LoadNodes(NodeFiles{Edges: edges, Labels: labels, Graph: UserGraphOptions()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), labels+":3")

	big := pipeBytes(t, make([]byte, 5000))
	_, err = LoadNodes(NodeFiles{Edges: big, MaxMemory: 4096, Graph: UserGraphOptions()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), big)
	assert.Contains(t, err.Error(), "4096 bytes")
}

// TestStdinTwice refuses standard input named for two files, before
// reading it.
func TestStdinTwice(t *testing.T) {
	_, err := LoadNodes(NodeFiles{Edges: "-", Labels: "/dev/stdin", Graph: UserGraphOptions()})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the edges and the labels both read standard input")
}
