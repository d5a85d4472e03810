package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplitArgs(t *testing.T) {
	var o options
	f := o.flags("labelprop")
	mine, beamArgs := splitArgs(f, []string{"--edges", "e.csv", "--endpoint", "localhost:8099", "--async", "--alpha=0.5", "--environment_type", "DOCKER", "--", "--labels", "{}"})
	require.Equal(t, []string{"--edges", "e.csv", "--alpha=0.5"}, mine)
	require.Equal(t, []string{"--endpoint", "localhost:8099", "--async", "--environment_type", "DOCKER", "--labels", "{}"}, beamArgs)
}

func TestHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"labelprop", "-h"}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "-alpha")
	require.Contains(t, stderr.String(), "Beam flags")
}

func writeFiles(t *testing.T) (dir, edges, labels string) {
	dir = t.TempDir()
	edges, labels = filepath.Join(dir, "edges.csv"), filepath.Join(dir, "labels.csv")
	require.NoError(t, os.WriteFile(edges, []byte("source,target\nann,bob\nbob,cy\ncy,dee\ndee,ann\ncy,eve\n"), 0o644))
	require.NoError(t, os.WriteFile(labels, []byte("id,label\nann,red\ncy,blue\n"), 0o644))
	return dir, edges, labels
}

func TestLabelprop(t *testing.T) {
	dir, edges, labels := writeFiles(t)
	out := filepath.Join(dir, "pred.csv")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"labelprop", "--edges", edges, "--labels", labels, "--alpha", "0.8", "--rounds", "4", "--out", out, "--runner", "prism"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.Contains(t, stderr.String(), "alpha 0.8, 4 iterations (3 shuffle rounds), 256 buckets, runner prism")
	require.Contains(t, stdout.String(), "predictions written to "+out)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Equal(t, "id,predicted,p_blue,p_red", lines[0])
	require.Len(t, lines, 4)
	for k, id := range []string{"bob", "dee", "eve"} {
		require.True(t, strings.HasPrefix(lines[1+k], id+","), lines[1+k])
	}
	require.True(t, strings.HasPrefix(lines[3], "eve,blue,"), lines[3])
}

// TestJSON: with --json, stdout is exactly one JSON object saying what was
// written and with which settings, for both commands; the log stays on
// stderr.
func TestJSON(t *testing.T) {
	dir, edges, labels := writeFiles(t)
	out := filepath.Join(dir, "pred.csv")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"labelprop", "--json", "--edges", edges, "--labels", labels, "--alpha", "0.8", "--rounds", "4", "--rounds-per-job", "3", "--out", out, "--runner", "prism"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	dec := json.NewDecoder(&stdout)
	var got map[string]any
	require.NoError(t, dec.Decode(&got))
	require.False(t, dec.More(), "a second value after the JSON object")
	require.Equal(t, "labelprop", got["command"])
	require.Equal(t, out, got["out"])
	require.Equal(t, 0.8, got["alpha"])
	require.Equal(t, 4.0, got["iterations"])
	require.Equal(t, 3.0, got["shuffle_rounds"])
	require.Equal(t, 2.0, got["jobs"])
	require.Equal(t, "prism", got["runner"])
	sec, ok := got["seconds"].(float64)
	require.True(t, ok && sec > 0, "seconds %v", got["seconds"])
	require.Contains(t, stderr.String(), "job 2/2")
	_, err := os.Stat(out)
	require.NoError(t, err)

	stdout.Reset()
	feats := filepath.Join(dir, "x.csv")
	require.NoError(t, os.WriteFile(feats, []byte("id,a,b\nann,1,0\nbob,1,0\ncy,0,1\ndee,0,1\neve,1,1\n"), 0o644))
	pout := filepath.Join(dir, "prop.csv")
	code = run(context.Background(), []string{"propagate", "--json", "--edges", edges, "--features", feats, "--k", "2", "--out", pout, "--runner", "prism"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	got = nil
	dec = json.NewDecoder(&stdout)
	require.NoError(t, dec.Decode(&got))
	require.False(t, dec.More())
	require.Equal(t, "propagate", got["command"])
	require.Equal(t, 2.0, got["k"])
	require.Nil(t, got["alpha"])
}

// TestRoundsPerJob: the run split into jobs writes the predictions of one
// job, logs each job, and removes its checkpoints (and the temporary
// folder it made for them on Prism).
func TestRoundsPerJob(t *testing.T) {
	dir, edges, labels := writeFiles(t)
	args := []string{"labelprop", "--edges", edges, "--labels", labels, "--alpha", "0.8", "--rounds", "5", "--buckets", "4"}
	one := filepath.Join(dir, "one.csv")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), append(args, "--out", one), &stdout, &stderr), stderr.String())
	want, err := os.ReadFile(one)
	require.NoError(t, err)
	require.NotContains(t, stderr.String(), "job 1/")

	// On Prism without --work: a temporary folder, removed at the end.
	out := filepath.Join(dir, "jobs.csv")
	stdout.Reset()
	stderr.Reset()
	require.Equal(t, 0, run(context.Background(), append(args, "--out", out, "--rounds-per-job", "2"), &stdout, &stderr), stderr.String())
	log := stderr.String()
	for _, line := range []string{"gssl-beam: job 1/3: rounds 0–1\n", "gssl-beam: job 2/3: rounds 2–3\n", "gssl-beam: job 3/3: rounds 4–4\n"} {
		require.Contains(t, log, line)
	}
	k := strings.Index(log, "3 jobs of 2 rounds, checkpoints under ")
	require.GreaterOrEqual(t, k, 0, log)
	tmp := strings.TrimSpace(log[k+len("3 jobs of 2 rounds, checkpoints under "):])
	tmp = tmp[:strings.IndexByte(tmp, '\n')]
	_, err = os.Stat(tmp)
	require.True(t, os.IsNotExist(err), "the temporary folder %s is left", tmp)
	require.Equal(t, "predictions written to "+out, strings.Split(stdout.String(), " (")[0])
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))

	// With --work: the folder stays, without the checkpoints.
	work := filepath.Join(dir, "work")
	stderr.Reset()
	require.Equal(t, 0, run(context.Background(), append(args, "--out", out, "--rounds-per-job", "3", "--work", work), &stdout, &stderr), stderr.String())
	require.Contains(t, stderr.String(), "gssl-beam: job 2/2: rounds 3–4\n")
	left, err := os.ReadDir(work)
	require.NoError(t, err)
	require.Empty(t, left)
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))

	// R ≥ K is one job.
	stderr.Reset()
	require.Equal(t, 0, run(context.Background(), append(args, "--out", out, "--rounds-per-job", "5"), &stdout, &stderr), stderr.String())
	require.Contains(t, stderr.String(), "gssl-beam: job 1/1: rounds 0–4\n")
}

// TestRoundsPerJobAsync: jobs that must run one after the other cannot be
// submitted without waiting.
func TestRoundsPerJobAsync(t *testing.T) {
	t.Cleanup(func() { require.NoError(t, flag.Set("async", "false")) })
	dir, edges, labels := writeFiles(t)
	var stdout, stderr bytes.Buffer
	args := []string{"labelprop", "--edges", edges, "--labels", labels, "--rounds", "4", "--out", filepath.Join(dir, "p.csv"), "--rounds-per-job", "2", "--async"}
	require.Equal(t, 1, run(context.Background(), args, &stdout, &stderr))
	require.Contains(t, stderr.String(), "--async cannot run 2 jobs one after the other (--rounds-per-job 2)")
}

func TestPropagateCommand(t *testing.T) {
	dir, edges, _ := writeFiles(t)
	feats := filepath.Join(dir, "x.csv")
	require.NoError(t, os.WriteFile(feats, []byte("id,a\nann,1\nbob,0\ncy,0\ndee,0\neve,0\n"), 0o644))
	out := filepath.Join(dir, "y.csv")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"propagate", "--edges", edges, "--features", feats, "--k", "1", "--out", out}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	// S̃x for x = e_ann: ann keeps 1/3 (d̃ = 3), bob and dee get 1/3 each.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Equal(t, "id,f1", lines[0])
	want := map[string]float64{"ann": 1.0 / 3, "bob": 1.0 / 3, "cy": 0, "dee": 1.0 / 3, "eve": 0}
	require.Len(t, lines, 1+len(want))
	for k, id := range []string{"ann", "bob", "cy", "dee", "eve"} {
		f := strings.Split(lines[1+k], ",")
		require.Equal(t, id, f[0])
		v, err := strconv.ParseFloat(f[1], 64)
		require.NoError(t, err)
		require.InDelta(t, want[id], v, 1e-15, id)
	}
}

func TestFlagErrors(t *testing.T) {
	dir, edges, labels := writeFiles(t)
	out := filepath.Join(dir, "p.csv")
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("u,v,w\nann,bob,1\nbob,cy,-1\n"), 0o644))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--alpha", "1.5"}, "--alpha 1.5 is invalid: it must be inside the open interval (0, 1)"},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--runner", "spork"}, `--runner "spork" is invalid`},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", filepath.Join(dir, "no", "p.csv")}, "does not exist"},
		{[]string{"labelprop", "--edges", filepath.Join(dir, "none.csv"), "--labels", labels, "--out", out}, "no such file or directory"},
		{[]string{"labelprop", "--labels", labels, "--out", out}, "--edges is required"},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--header", "maybe"}, `header mode "maybe" is invalid`},
		{[]string{"cluster"}, `unknown command "cluster"`},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--rounds-per-job", "-1"}, "--rounds-per-job -1 is invalid: it must be in [0, 10000] (0: all rounds in one job)"},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--rounds-per-job", "10001"}, "--rounds-per-job 10001 is invalid: it must be in [0, 10000]"},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--rounds-per-job", "x"}, `invalid value "x" for flag -rounds-per-job`},
		{[]string{"labelprop", "--edges", edges, "--labels", labels, "--out", out, "--rounds-per-job", "2", "--runner", "flink"}, "--work is required with --rounds-per-job and --runner flink"},
		{[]string{"labelprop", "--edges", bad, "--labels", labels, "--out", out, "--rounds", "2"}, "gssl-beam: loaders: " + bad + ":3: weight -1 is negative; weights must be ≥ 0\n"},
	} {
		var stdout, stderr bytes.Buffer
		require.Equal(t, 1, run(context.Background(), c.args, &stdout, &stderr), c.args)
		require.Contains(t, stderr.String(), c.want, c.args)
	}
}
