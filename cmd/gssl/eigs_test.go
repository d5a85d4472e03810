package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func floatsOf(t *testing.T, v any) []float64 {
	t.Helper()
	arr, ok := v.([]any)
	require.True(t, ok, "not an array: %v", v)
	out := make([]float64, len(arr))
	for i, x := range arr {
		out[i] = x.(float64)
	}
	return out
}

func TestEigsJSONOnCora(t *testing.T) {
	var out, errw bytes.Buffer
	opts := eigsOptions{In: nodeInput{Data: coraDir}, JSON: true, Spec: eigsSpecFlags{Eigenpairs: 80, Laplacian: "sym", Isolated: "error"}}
	require.NoError(t, runEigs(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	vals := floatsOf(t, obj["eigenvalues"])
	require.Len(t, vals, 80)
	assert.True(t, sort.Float64sAreSorted(vals))
	// Cora has 78 connected components (testdata/cora/README.md, gssl info):
	// eigenvalue 0 of L_sym exactly 78 times, then positive ones.
	assert.Equal(t, 78.0, obj["components"])
	assert.Equal(t, 78.0, obj["zero_eigenvalues"])
	assert.Greater(t, vals[78], 1e-4)
	assert.LessOrEqual(t, obj["max_residual"].(float64), 1e-10)
	assert.Less(t, obj["orthogonality"].(float64), 1e-10)
	for _, key := range []string{"seconds", "load_seconds", "matvecs", "restarts", "peak_rss_mb"} {
		assert.Contains(t, obj, key)
	}
	assert.Contains(t, errw.String(), "78 components")

	out.Reset()
	opts.JSON, opts.Spec.Eigenpairs = false, 3
	require.NoError(t, runEigs(context.Background(), opts, &out, &errw))
	assert.Contains(t, out.String(), "3 smallest eigenvalues of L_sym (3 zero)")
}

// writeCycle writes the edge list of the cycle C_n.
func writeCycle(t *testing.T, n int) string {
	p := filepath.Join(t.TempDir(), "cycle.txt")
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d %d\n", i, (i+1)%n)
	}
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	return p
}

func TestEigsCycleClosedForm(t *testing.T) {
	// C_n: L_un 2 − 2cos(2πj/n), L_sym = L_rw = 1 − cos(2πj/n).
	const n, k = 300, 7
	p := writeCycle(t, n)
	want := map[string][]float64{}
	for _, lap := range []string{"un", "sym", "rw"} {
		var w []float64
		for j := 0; j < n; j++ {
			v := 1 - math.Cos(2*math.Pi*float64(j)/n)
			if lap == "un" {
				v *= 2
			}
			w = append(w, v)
		}
		sort.Float64s(w)
		want[lap] = w[:k]
	}
	for lap, w := range want {
		// automatic filter degree, no filter, a fixed degree (n = 300 is
		// above the dense-component size, so Lanczos runs)
		for _, filter := range []int{0, 1, 6} {
			var out, errw bytes.Buffer
			require.NoError(t, runEigs(context.Background(), eigsOptions{In: nodeInput{Data: p}, JSON: true, Spec: eigsSpecFlags{Eigenpairs: k, Laplacian: lap, FilterDegree: filter, Isolated: "error"}}, &out, &errw))
			obj := decodeOne(t, out.Bytes())
			assert.InDeltaSlice(t, w, floatsOf(t, obj["eigenvalues"]), 1e-9, "%s filter %d", lap, filter)
			assert.Less(t, obj["orthogonality"].(float64), 1e-10, "%s filter %d", lap, filter)
		}
	}
}

func TestEigsErrors(t *testing.T) {
	ctx := context.Background()
	var out bytes.Buffer
	err := runEigs(ctx, eigsOptions{In: nodeInput{Data: coraDir}, Spec: eigsSpecFlags{Eigenpairs: 5, Laplacian: "lap", Isolated: "error"}}, &out, &out)
	assert.ErrorContains(t, err, `--laplacian "lap" is invalid`)
	err = runEigs(ctx, eigsOptions{In: nodeInput{Data: coraDir}, Spec: eigsSpecFlags{Eigenpairs: 5, Laplacian: "sym", Isolated: "maybe"}}, &out, &out)
	assert.ErrorContains(t, err, `--isolated "maybe" is invalid`)
	err = runEigs(ctx, eigsOptions{In: nodeInput{Data: coraDir}, Spec: eigsSpecFlags{Eigenpairs: 3000, Laplacian: "sym", Isolated: "error"}}, &out, &out)
	assert.ErrorContains(t, err, "--eigenpairs 3000 is invalid: it must be in [1, 2708] (the number of nodes)")
	err = runEigs(ctx, eigsOptions{In: nodeInput{Data: coraDir}, Spec: eigsSpecFlags{Eigenpairs: 5, Laplacian: "sym", FilterDegree: -1, Isolated: "error"}}, &out, &out)
	assert.ErrorContains(t, err, "--filter-degree -1 is invalid: it must be ≥ 0")
	// An isolated node: an error naming it, or eigenvalue 1 with --isolated zero.
	p := filepath.Join(t.TempDir(), "iso.txt")
	require.NoError(t, os.WriteFile(p, []byte("0 1\n1 2\n"), 0o644))
	err = runEigs(ctx, eigsOptions{In: nodeInput{Edges: p, Nodes: 5}, Spec: eigsSpecFlags{Eigenpairs: 2, Laplacian: "sym", Isolated: "error"}}, &out, &out)
	assert.ErrorContains(t, err, "node 3 has degree 0 (and 1 more), so D^-1/2 is undefined: drop --isolated error")
	assert.NotContains(t, err.Error(), "IsolatedZero", "the message names the flag, not the library option")
	out.Reset()
	var errw bytes.Buffer
	require.NoError(t, runEigs(ctx, eigsOptions{In: nodeInput{Edges: p, Nodes: 5}, JSON: true, Spec: eigsSpecFlags{Eigenpairs: 5, Laplacian: "sym", Isolated: "zero"}}, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	// Path 0-1-2 (0, 1, 2) and two isolated nodes (1, 1).
	assert.InDeltaSlice(t, []float64{0, 1, 1, 1, 2}, floatsOf(t, obj["eigenvalues"]), 1e-12)
	assert.Equal(t, 2.0, obj["isolated"])
	err = runEigs(ctx, eigsOptions{In: nodeInput{Data: "/nonexistent"}, Spec: eigsSpecFlags{Eigenpairs: 2, Laplacian: "sym", Isolated: "error"}}, &out, &out)
	assert.Error(t, err)
}

func TestEigsMethodSingleAgainstBlock(t *testing.T) {
	// A connected random graph (a path plus random chords: simple spectrum)
	// above the dense-component size: --method single and --method block
	// must give the same eigenvalues with small residuals.
	rng := rand.New(rand.NewPCG(4, 2))
	const n = 700
	var b bytes.Buffer
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "%d %d\n", i-1, i)
	}
	for e := 0; e < 2*n; e++ {
		u, v := rng.IntN(n), rng.IntN(n)
		if u != v {
			fmt.Fprintf(&b, "%d %d\n", u, v)
		}
	}
	p := filepath.Join(t.TempDir(), "random.txt")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	vals := map[string][]float64{}
	for _, method := range []string{"single", "block"} {
		var out, errw bytes.Buffer
		require.NoError(t, runEigs(context.Background(), eigsOptions{In: nodeInput{Data: p}, JSON: true, Spec: eigsSpecFlags{Eigenpairs: 12, Laplacian: "sym", Method: method, Tol: 1e-12, Isolated: "error"}}, &out, &errw))
		obj := decodeOne(t, out.Bytes())
		vals[method] = floatsOf(t, obj["eigenvalues"])
		assert.LessOrEqual(t, obj["max_residual"].(float64), 1e-11, method)
		assert.Less(t, obj["orthogonality"].(float64), 1e-10, method)
	}
	assert.InDeltaSlice(t, vals["block"], vals["single"], 1e-10)
	var out bytes.Buffer
	err := runEigs(context.Background(), eigsOptions{In: nodeInput{Data: p}, Spec: eigsSpecFlags{Eigenpairs: 3, Laplacian: "sym", Method: "arnoldi", Isolated: "error"}}, &out, &out)
	assert.ErrorContains(t, err, `--method "arnoldi" is invalid`)
}
