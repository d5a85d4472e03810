package pipeline

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/stretchr/testify/require"
)

func init() { beam.RegisterFunction(scoreBitsRow) }

// scoreBitsRow is a node's scores F as the hex of their bits.
func scoreBitsRow(id string, sc Scores) Row {
	cells := make([]string, len(sc.F))
	for k, v := range sc.F {
		cells[k] = strconv.FormatUint(math.Float64bits(v), 16)
	}
	return Row{ID: id, Pos: sc.Pos, Cells: cells}
}

func execPrism(ctx context.Context, p *beam.Pipeline) error {
	_, err := execute(ctx, p)
	return err
}

// runScores runs lp as Run does, the last job writing the raw scores' bits
// to scores besides the predictions to lp.Out, and returns the jobs' rounds.
func runScores(t *testing.T, lp LabelProp, scores string) [][2]int {
	t.Helper()
	var rounds [][2]int
	build := func(ctx context.Context, s beam.Scope, j int) error {
		g, sc, err := lp.buildSpread(ctx, s, j)
		if err != nil || !sc.IsValid() {
			return err
		}
		WritePredictions(s, g, Predict(s, g, sc), lp.Out, lp.Shards)
		header := beam.Create(s, Header{Cols: []string{"id", "bits"}})
		WriteTable(s, g, header, beam.ParDo(s, scoreBitsRow, sc), scores, 1)
		return nil
	}
	progress := func(j, jobs, first, last int) {
		require.Equal(t, len(rounds), j)
		require.Equal(t, lp.Jobs(), jobs)
		rounds = append(rounds, [2]int{first, last})
	}
	require.NoError(t, lp.run(context.Background(), execPrism, progress, build))
	return rounds
}

// TestJobsCora: the run split into jobs gives the predictions and raw
// scores of one job, bit for bit, and leaves no checkpoint behind.
func TestJobsCora(t *testing.T) {
	edges, labels := coraInputs(t)
	const k = 7
	sp := Spreading{Alpha: 0.9, Rounds: k, Buckets: 16}
	dir := t.TempDir()
	base := LabelProp{Edges: edges, Labels: labels, Spreading: sp, Out: filepath.Join(dir, "one.csv")}
	require.Equal(t, [][2]int{{0, k - 1}}, runScores(t, base, filepath.Join(dir, "one-scores.csv")))
	wantPred, err := os.ReadFile(base.Out)
	require.NoError(t, err)
	wantScores, err := os.ReadFile(filepath.Join(dir, "one-scores.csv"))
	require.NoError(t, err)
	require.Equal(t, 1+2708, strings.Count(string(wantScores), "\n"), "a header and a row per Cora node")

	for _, c := range []struct {
		r      int
		rounds [][2]int
	}{
		{1, [][2]int{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {6, 6}}},
		{2, [][2]int{{0, 1}, {2, 3}, {4, 5}, {6, 6}}},
		{3, [][2]int{{0, 2}, {3, 5}, {6, 6}}},
		{k, [][2]int{{0, k - 1}}},
		{k + 5, [][2]int{{0, k - 1}}},
	} {
		name := "R=" + strconv.Itoa(c.r)
		work := filepath.Join(dir, name, "work")
		lp := base
		lp.RoundsPerJob, lp.Work, lp.Out = c.r, work, filepath.Join(dir, name, "pred.csv")
		scores := filepath.Join(dir, name, "scores.csv")
		require.NoError(t, os.MkdirAll(filepath.Dir(scores), 0o755))
		require.Equal(t, c.rounds, runScores(t, lp, scores), name)
		got, err := os.ReadFile(lp.Out)
		require.NoError(t, err)
		require.Equal(t, string(wantPred), string(got), "%s: predictions", name)
		got, err = os.ReadFile(scores)
		require.NoError(t, err)
		require.Equal(t, string(wantScores), string(got), "%s: scores", name)
		left, _ := filepath.Glob(filepath.Join(work, "*"))
		require.Empty(t, left, "%s: checkpoints left", name)
	}
}

// TestCheckpointEncoding: a state block survives its file bit for bit
// (signed zeros, NaN payloads, subnormals, infinities), and every
// truncation and every flipped byte of the file is an error.
func TestCheckpointEncoding(t *testing.T) {
	odd := []float64{math.Copysign(0, -1), math.Float64frombits(0x7ff8000000000123), 5e-324, math.Inf(-1), 1.0 / 3, -math.MaxFloat64}
	blk := stateBlock{Nodes: []spreadNode{
		{ID: "a", Adj: []string{"a", "b"}, W: []float64{odd[2], 2.5}, T: 1 / math.Sqrt(3), U: math.Sqrt(3), Class: 1, Pos: 1<<40 + 7, Cur: odd[:3], Prev: odd[3:]},
		{ID: "b", Adj: []string{}, W: []float64{}, T: 1, U: 1, Class: -1, Pos: 3, Cur: []float64{0, 1, 2}, Prev: []float64{odd[0], odd[1], odd[4]}},
		{ID: "ü\x00z", Adj: []string{"a"}, W: []float64{math.SmallestNonzeroFloat64}, T: odd[0], U: odd[1], Class: 2, Pos: 0, Cur: []float64{3, 4, 5}, Prev: []float64{6, 7, 8}},
	}}
	data := frame(stateMagic, encodeState(12, 34, &blk))
	payload, err := unframe(stateMagic, data)
	require.NoError(t, err)
	round, b, got, err := decodeState(payload)
	require.NoError(t, err)
	require.Equal(t, 12, round)
	require.Equal(t, 34, b)
	require.Len(t, got.Nodes, len(blk.Nodes))
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for k, x := range v {
			out[k] = math.Float64bits(x)
		}
		return out
	}
	for k, want := range blk.Nodes {
		n := got.Nodes[k]
		require.Equal(t, want.ID, n.ID)
		require.Equal(t, want.Adj, n.Adj)
		require.Equal(t, bits(want.W), bits(n.W))
		require.Equal(t, bits([]float64{want.T, want.U}), bits([]float64{n.T, n.U}))
		require.Equal(t, want.Class, n.Class)
		require.Equal(t, want.Pos, n.Pos)
		require.Equal(t, bits(want.Cur), bits(n.Cur))
		require.Equal(t, bits(want.Prev), bits(n.Prev))
	}
	for n := 0; n < len(data); n++ {
		_, err := unframe(stateMagic, data[:n])
		require.ErrorContains(t, err, "truncated", "cut at %d of %d bytes", n, len(data))
	}
	for i := range data {
		for _, mask := range []byte{0x01, 0x80, 0xff} {
			bad := []byte(string(data))
			bad[i] ^= mask
			_, err := unframe(stateMagic, bad)
			require.Error(t, err, "byte %d ^ %#x", i, mask)
		}
	}
	_, err = unframe(infoMagic, data)
	require.ErrorContains(t, err, "not a gssl-beam checkpoint file of this kind")
	// Payloads that pass the frame but not the decoder (a writer's bug):
	// errors, never a panic or an allocation the bytes do not hold.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		p := []byte(string(payload))
		for range 1 + rng.IntN(4) {
			p[rng.IntN(len(p))] = byte(rng.Uint32())
		}
		if rng.IntN(2) == 0 {
			p = p[:rng.IntN(len(p))]
		}
		_, _, _, _ = decodeState(p) // must not panic
	}
	_, _, _, err = decodeState(append([]byte(string(payload)), 0))
	require.ErrorContains(t, err, "1 bytes after the last node")
	_, _, _, err = decodeState(payload[:len(payload)-1])
	require.ErrorContains(t, err, "corrupt")
}

// TestCheckpointErrors: a checkpoint file cut short, with a flipped byte,
// missing or left from another run fails the next job with an error
// naming it; a checkpoint of other settings is refused before it runs.
func TestCheckpointErrors(t *testing.T) {
	edges, labels := smallInputs(t)
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	lp := LabelProp{Edges: edges, Labels: labels, Spreading: Spreading{Alpha: 0.7, Rounds: 4, Buckets: 4}, Out: filepath.Join(dir, "pred.csv"), RoundsPerJob: 2, Work: work}
	require.Equal(t, 2, lp.Jobs())
	job := func(lp LabelProp, j int) error {
		p, s := beam.NewPipelineWithRoot()
		if err := lp.BuildJob(context.Background(), s, j); err != nil {
			return err
		}
		return execPrism(context.Background(), p)
	}
	require.NoError(t, job(lp, 0))
	cp := CheckpointDir(work, 2)
	files, err := filepath.Glob(filepath.Join(cp, "bucket-*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	victim := files[len(files)/2]
	orig, err := os.ReadFile(victim)
	require.NoError(t, err)
	info := filepath.Join(cp, "info")
	origInfo, err := os.ReadFile(info)
	require.NoError(t, err)

	flip := func(b []byte, i int) []byte {
		b = []byte(string(b))
		b[i] ^= 0x10
		return b
	}
	for _, c := range []struct {
		name       string
		path       string
		body       []byte // nil removes path
		want       string
		beforeRuns bool
	}{
		{"truncated", victim, orig[:len(orig)/2], "pipeline: checkpoint " + victim + ": truncated", false},
		{"flipped", victim, flip(orig, len(orig)/2), "pipeline: checkpoint " + victim + ": corrupt: checksum", false},
		{"missing", victim, nil, "pipeline: checkpoint " + victim + " is missing", true},
		{"info flipped", info, flip(origInfo, len(origInfo)-6), "pipeline: checkpoint " + info + ": corrupt: checksum", true},
		{"info missing", info, nil, "pipeline: checkpoint " + info + ": ", true},
		{"stray", filepath.Join(cp, "bucket-000099"), orig, "bucket-000099 is not listed in " + info, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.body == nil {
				require.NoError(t, os.Remove(c.path))
			} else {
				require.NoError(t, os.WriteFile(c.path, c.body, 0o644))
			}
			defer func() {
				if c.name == "stray" {
					require.NoError(t, os.Remove(c.path))
				}
				require.NoError(t, os.WriteFile(victim, orig, 0o644))
				require.NoError(t, os.WriteFile(info, origInfo, 0o644))
			}()
			err := job(lp, 1)
			require.Error(t, err)
			require.Contains(t, Cause(err).Error(), c.want)
			if c.beforeRuns {
				require.Equal(t, err, Cause(err), "refused before the job runs")
			}
		})
	}
	other := lp
	other.Spreading.Alpha = 0.6
	require.ErrorContains(t, job(other, 1), "pipeline: checkpoint "+info+" was written with alpha 0.7, 4 iterations (2 done), 4 buckets; this run has alpha 0.6")
	// Untouched, the checkpoint gives the predictions of one job.
	require.NoError(t, job(lp, 1))
	one := lp
	one.RoundsPerJob, one.Out = 0, filepath.Join(dir, "one.csv")
	require.NoError(t, job(one, 0))
	want, err := os.ReadFile(one.Out)
	require.NoError(t, err)
	got, err := os.ReadFile(lp.Out)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

func TestJobsValidate(t *testing.T) {
	lp := LabelProp{Edges: "e", Labels: "l", Out: "o", Spreading: Spreading{Alpha: 0.5, Rounds: 10}}
	for _, c := range []struct {
		r, jobs int
	}{{0, 1}, {1, 10}, {3, 4}, {9, 2}, {10, 1}, {11, 1}} {
		lp.RoundsPerJob = c.r
		require.Equal(t, c.jobs, lp.Jobs(), "R = %d", c.r)
	}
	lp.RoundsPerJob = 3
	first, last := lp.JobRounds(3)
	require.Equal(t, [2]int{9, 9}, [2]int{first, last})
	require.ErrorContains(t, lp.Validate(), "pipeline: RoundsPerJob = 3 makes 4 jobs, which pass the state through files: give Work")
	lp.RoundsPerJob = -1
	require.ErrorContains(t, lp.Validate(), "pipeline: RoundsPerJob = -1 is invalid: it must be in [0, 10000] (0: all rounds in one job)")
	lp.RoundsPerJob, lp.Work = 3, t.TempDir()
	_, s := beam.NewPipelineWithRoot()
	require.ErrorContains(t, lp.Build(context.Background(), s), "makes 4 jobs: build them with BuildJob, or run them with Run")
}
