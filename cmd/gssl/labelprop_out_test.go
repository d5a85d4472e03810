package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/generate"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/protocol"
)

// generatedFolder writes a planted-class graph with a Planetoid-style
// split (gssl generate sbm --format folder) and returns its folder.
func generatedFolder(t *testing.T, nodes, classes int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sbm")
	g, err := generate.NewSBM(generate.SBM{Nodes: nodes, Classes: classes, Degree: 12, Mixing: 0.3, Seed: 3})
	require.NoError(t, err)
	p, err := generate.NewFiles(dir, generate.LayoutFolder, false)
	require.NoError(t, err)
	_, err = p.Write(context.Background(), g, generate.SplitSizes{PerClass: 20, Val: 200, Test: 500}, 3, generate.Features{})
	require.NoError(t, err)
	return dir
}

// TestLabelpropOutStreamsRows: the --out table, whose probabilities the
// command now writes row by row (ProbabilityRow), is byte for byte the
// table written from the n×c matrix of Probabilities of the same fit (what
// the command wrote before), on Cora and on a generated graph, in CSV and
// JSON lines.
func TestLabelpropOutStreamsRows(t *testing.T) {
	ctx := context.Background()
	for name, data := range map[string]string{"cora": coraDir, "sbm": generatedFolder(t, 3000, 4)} {
		for _, ext := range []string{".csv", ".jsonl"} {
			o := defaults()
			o.In.Data, o.Split, o.Model.Alpha = data, "planetoid", "0.9"
			o.In.MaxMemory = defaultMaxMemory()
			o.Out = filepath.Join(t.TempDir(), name+ext)
			runLabelpropJSON(t, o)
			got, err := os.ReadFile(o.Out)
			require.NoError(t, err)

			// The same fit through the protocol, its probabilities formed
			// as one matrix.
			exp, spec, err := o.experiment()
			require.NoError(t, err)
			ds, err := o.load(ctx, &o.In, io.Discard)
			require.NoError(t, err)
			exp.Splits, err = newSplitter(spec, ds, o.source(&o.In), o.Val, o.Test)
			require.NoError(t, err)
			exp.Graph, exp.Labels, exp.CV.Order = ds.Graph, ds.Labels, ds.IDOrder(ds.Labelled())
			exp.Model.(*labelprop.Spreading).Classes = ds.Classes
			out, err := protocol.EvaluateLabelProp(ctx, exp)
			require.NoError(t, err)
			run := out.Runs[0]
			want := filepath.Join(t.TempDir(), "matrix"+ext)
			rows := protocol.ClassRows{Split: run.Split, WithSplit: run.WithSplit, Predicted: run.Model.Labels(), Probabilities: run.Model.Probabilities()}
			cols, n, row := ds.PredictionTable(rows.Predictions(len(ds.Labels)))
			require.NoError(t, writeTable(want, cols, n, row))
			wantBytes, err := os.ReadFile(want)
			require.NoError(t, err)
			require.Greater(t, len(wantBytes), 1000, name)
			require.Equal(t, string(wantBytes), string(got), "%s%s", name, ext)
			ds.Close()
		}
	}
}

// TestLabelpropOutMemory: the --max-memory check counts the n×c
// probabilities only for --conformal, which forms them: a limit between
// the fit's own bytes and those plus the 8nc-byte block passes with --out
// and refuses --conformal. And a run with --out holds no such block: from
// 40 to 80 classes on the same nodes its peak live heap (sampled while it
// runs, with frequent collections) grows by the fit's MemoryBytes and less
// than half the block's growth (before, by a whole block more: the matrix
// was formed for the write).
func TestLabelpropOutMemory(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	var peaks, needs, blocks [2]int64
	for k, classes := range []int{40, 80} {
		data := generatedFolder(t, 20000, classes)
		o := defaults()
		o.In.Data, o.Split, o.Model.Alpha, o.Model.Float32, o.Model.KeepIsolatedSeeds = data, "planetoid", "0.9", true, true
		o.In.MaxMemory = defaultMaxMemory()
		ds, err := o.load(context.Background(), &o.In, io.Discard)
		require.NoError(t, err)
		m := &labelprop.Spreading{Alpha: 0.9, Float32: true, Classes: ds.Classes, IsolatedSeeds: labelprop.IsolatedSeedKeep}
		needs[k] = m.MemoryBytes(ds.Graph)
		blocks[k] = 8 * int64(ds.Graph.Nodes()) * int64(ds.Classes)
		ds.Close()
		o.In.MaxMemory = strconv.FormatInt(needs[k]+blocks[k]/2, 10)
		o.Out = filepath.Join(t.TempDir(), "pred.csv")
		peaks[k] = peakHeap(func() { runLabelpropJSON(t, o) })
		t.Logf("%d classes: fit %d B, block %d B, peak live heap %d B", classes, needs[k], blocks[k], peaks[k])

		o.Conformal = 0.1
		err = runLabelprop(context.Background(), o, io.Discard, io.Discard)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "--max-memory")
	}
	assert.Less(t, peaks[1]-peaks[0], needs[1]-needs[0]+(blocks[1]-blocks[0])/2, "the run held an n×c block beside the fit")
}

// peakHeap returns the largest live heap (bytes of objects above what was
// live before) that run reaches, sampled every 100 µs.
func peakHeap(run func()) int64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := int64(sample[0].Value.Uint64())
	stop, done := make(chan struct{}), make(chan int64)
	go func() {
		peak := int64(0)
		for {
			metrics.Read(sample)
			peak = max(peak, int64(sample[0].Value.Uint64())-base)
			select {
			case <-stop:
				done <- peak
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	run()
	close(stop)
	return <-done
}

// TestLabelpropMapsGraphFile: the commands map a .gsg read-only and shared
// instead of copying it, and say so in the input report (stderr and the
// JSON object's inputs), with the same result as the text edge list.
func TestLabelpropMapsGraphFile(t *testing.T) {
	gsg := filepath.Join(t.TempDir(), "cora.gsg")
	_, _, err := runRoot(t, "convert", filepath.Join(coraDir, "edges.txt"), gsg)
	require.NoError(t, err)
	labels := filepath.Join(coraDir, "labels.txt")
	var acc []any
	for _, edges := range []string{filepath.Join(coraDir, "edges.txt"), gsg} {
		out, errw, err := runRoot(t, "labelprop", "--edges", edges, "--labels", labels, "--split", filepath.Join(coraDir, "split_planetoid.txt"), "--alpha", "0.9", "--json")
		require.NoError(t, err)
		obj := decodeOne(t, []byte(out))
		acc = append(acc, obj["test_accuracy"])
		note, _ := obj["inputs"].([]any)[0].(map[string]any)["note"].(string)
		if edges == gsg {
			assert.Contains(t, note, "mapped read-only and shared")
			assert.Contains(t, errw, "mapped read-only and shared")
		} else {
			assert.NotContains(t, note, "mapped")
		}
	}
	assert.Equal(t, acc[0], acc[1])
}

// TestWriteTableBoundsGarbage: while a table is written, the garbage of
// its cells (a boxed value and a string each) stays within a fraction of
// the live heap: with 64 MiB live and 200 000 rows of ten numbers (over
// 80 MB of garbage), the heap peaks below 1.5× the live bytes, where the
// default GOGC of 100 lets it reach twice them.
func TestWriteTableBoundsGarbage(t *testing.T) {
	live := make([]float64, 8<<20)
	for i := range live {
		live[i] = float64(i)
	}
	cols := []string{"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"}
	path := filepath.Join(t.TempDir(), "t.csv")
	peak := peakHeap(func() {
		require.NoError(t, writeTable(path, cols, 200_000, func(r int, rec []any) {
			for c := range rec {
				rec[c] = live[(r*10+c)%len(live)] / 3
			}
		}))
	})
	t.Logf("live %d B, peak heap above it while writing %d B", 8*len(live), peak)
	assert.Less(t, peak, int64(8*len(live))/2, "the writer's garbage grew the heap by half the live bytes or more")
	runtime.KeepAlive(live)
}
