package pipeline

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/loaders"
)

func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}

// execute runs p on Prism in-process or, when GSSL_BEAM_ENDPOINT names a
// Beam job service (host:port), submits it there with the universal runner:
// the pipeline then leaves this process (its graph, coders and registered
// functions cross the Fn API to SDK workers the service starts), as on a
// Flink or Spark job server. GSSL_BEAM_ENVIRONMENT sets the worker
// environment type (default LOOPBACK: the workers are served from this
// process) and GSSL_BEAM_ENVIRONMENT_CONFIG its configuration.
func execute(ctx context.Context, p *beam.Pipeline) (any, error) {
	ep := os.Getenv("GSSL_BEAM_ENDPOINT")
	if ep == "" {
		return prism.Execute(ctx, p)
	}
	*jobopts.Endpoint = ep
	*jobopts.EnvironmentType = "LOOPBACK"
	if e := os.Getenv("GSSL_BEAM_ENVIRONMENT"); e != "" {
		*jobopts.EnvironmentType = e
	}
	*jobopts.EnvironmentConfig = os.Getenv("GSSL_BEAM_ENVIRONMENT_CONFIG")
	return universal.Execute(ctx, p)
}

// runJob builds lp into a new pipeline and runs it with execute.
func runJob(t *testing.T, lp LabelProp) error {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := lp.Build(context.Background(), s); err != nil {
		return err
	}
	_, err := execute(context.Background(), p)
	return err
}

// readCSV reads an output file into its header and rows by id.
func readCSV(t *testing.T, path string) ([]string, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(bufio.NewReader(f)).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	return recs[0], recs[1:]
}

// writeLabels writes an "id,label" file with the labels of train and blanks
// for the other nodes of labels (positional, one per line).
func writeLabels(t *testing.T, path string, labels []string, train map[int]bool) {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,label\n")
	for i, l := range labels {
		if !train[i] {
			l = ""
		}
		fmt.Fprintf(&b, "%d,%s\n", i, l)
	}
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
}

// coraInputs writes Cora's planetoid training labels next to its edges.
func coraInputs(t *testing.T) (edges, labels string) {
	return planetoidInputs(t, "../../testdata/cora")
}

// planetoidInputs writes an "id,label" file of a folder's planetoid
// training labels (the other nodes unlabelled) and returns it with the
// folder's edges.
func planetoidInputs(t *testing.T, dir string) (edges, labels string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "labels.txt"))
	require.NoError(t, err)
	all := strings.Fields(string(raw))
	split, err := os.ReadFile(filepath.Join(dir, "split_planetoid.txt"))
	require.NoError(t, err)
	train := map[int]bool{}
	for _, line := range strings.Split(string(split), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "train" {
			i, err := strconv.Atoi(f[1])
			require.NoError(t, err)
			train[i] = true
		}
	}
	labels = filepath.Join(t.TempDir(), "labels.csv")
	writeLabels(t, labels, all, train)
	return filepath.Join(dir, "edges.txt"), labels
}

// reference runs labelprop's Chebyshev solver for exactly k iterations
// (the cap reached with a tolerance no iterate meets) on the files, as gssl
// labelprop loads them.
func reference(t *testing.T, edges, labels string, a float64, k int) (*loaders.NodeDataset, labelprop.Classifier) {
	t.Helper()
	ds, err := loaders.LoadNodes(loaders.NodeFiles{Edges: edges, Labels: labels, Graph: loaders.UserGraphOptions()})
	require.NoError(t, err)
	var nodes, classes []int
	for i, l := range ds.Labels {
		if l >= 0 {
			nodes, classes = append(nodes, i), append(classes, l)
		}
	}
	m := &labelprop.Spreading{Alpha: a, Tol: 1e-300, MaxIter: k, Classes: ds.Classes}
	err = m.FitIndexed(context.Background(), ds.Graph, nodes, classes)
	var nc *labelprop.NotConvergedError
	require.True(t, errors.As(err, &nc), "want the iteration cap, got %v", err)
	require.Equal(t, k, nc.Iterations)
	return ds, m
}

// scoreTol is the agreement asked of the pipeline's probabilities and the
// single-machine solver's at the same K: the recurrence and coefficients
// are the same, only the order of each row's sum differs (rounding).
const scoreTol = 1e-9

// compare checks the pipeline's CSV against the reference row by row.
func compare(t *testing.T, out string, ds *loaders.NodeDataset, m labelprop.Classifier) {
	t.Helper()
	header, rows := readCSV(t, out)
	want := []string{"id", "predicted"}
	for _, c := range ds.ClassNames {
		want = append(want, "p_"+c)
	}
	require.Equal(t, want, header)
	probs, pred := m.Probabilities(), m.Labels()
	var ids []string
	for i, l := range ds.Labels {
		if l < 0 {
			ids = append(ids, ds.IDs.ID(i))
		}
	}
	require.Len(t, rows, len(ids))
	for r, rec := range rows {
		require.Equal(t, ids[r], rec[0], "row %d: the node order", r)
		i, ok := ds.IDs.Lookup(rec[0])
		require.True(t, ok)
		require.Equal(t, ds.ClassNames[pred[i]], rec[1], "node %s: predicted class", rec[0])
		for c := range ds.ClassNames {
			v, err := strconv.ParseFloat(rec[2+c], 64)
			require.NoError(t, err)
			require.InDelta(t, probs.At(i, c), v, scoreTol, "node %s class %d", rec[0], c)
		}
	}
}
