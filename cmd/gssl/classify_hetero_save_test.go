package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/nodeclass"
)

// writeHeteroFolder writes a node folder of 3 classes of m nodes each that
// is not homophilous: with compatible, node i's edges go to class i+1 mod
// 3 (the neighbours' classes are informative: --classifier auto adds
// belief propagation to the feature models), otherwise to any node alike
// (they say little: the feature models alone). The features show the
// class, noisily.
func writeHeteroFolder(t *testing.T, m int, compatible bool) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	n, d := 3*m, 9
	var edges, labels strings.Builder
	for u := 0; u < n; u++ {
		fmt.Fprintln(&labels, u%3)
		for e := 0; e < 3; e++ {
			v := 3*rng.IntN(m) + (u%3+1)%3
			if !compatible {
				v = rng.IntN(n)
			}
			fmt.Fprintf(&edges, "%d %d\n", u, v)
		}
	}
	writeNodeFolder(t, dir, rng, edges.String(), labels.String(), n, d, 3, 0.5, 0.15)
	return dir
}

// modelKinds maps the start of a chosen model's name (classify's "model")
// to the kind of its saved file.
var modelKinds = map[string]string{
	"Channels+MLP": "nodeclass.ChannelMLP",
	"SepGNN":       "nodeclass.SepGNN",
	"LINKX":        "nodeclass.LINKX",
	"LinBP":        "linbp.Propagation",
	"appnp-net":    "nodeclass.APPNPNet",
	"sgc(":         "nodeclass.SGC",
}

// TestClassifyHeteroSaveThenPredict: gssl classify --save with
// --classifier auto on heterophilous graphs of both kinds (whichever model
// auto chooses), and with channels and linbp, the models auto may choose
// that predict their fitted nodes only, and appnp-net, which predicts its
// fitted nodes only too, saves the chosen model itself;
// gssl model info names its kind, gssl predict gives classify --out's
// predicted class and probabilities (distributions, whichever model),
// bitwise as printed, for every node --out lists, and refuses new nodes.
func TestClassifyHeteroSaveThenPredict(t *testing.T) {
	compatible, features := writeHeteroFolder(t, 40, true), writeHeteroFolder(t, 40, false)
	for _, tc := range []struct{ data, classifier, family string }{
		{compatible, "auto", "class compatibility"},
		{features, "auto", "say little"},
		{features, "channels", ""},
		{features, "appnp-net", ""},
		{compatible, "linbp", ""},
	} {
		name := tc.classifier + " " + tc.family
		dir := t.TempDir()
		saved, out, pred := filepath.Join(dir, "m.gssl"), filepath.Join(dir, "fit.csv"), filepath.Join(dir, "pred.csv")
		stdout, _, err := runRoot(t, "classify", "--data", tc.data, "--classifier", tc.classifier, "--split", "per-class:10,10", "--out", out, "--save", saved, "--json")
		require.NoError(t, err, name)
		res := decodeOne(t, []byte(stdout))
		assert.Equal(t, saved, res["saved"], name)
		if tc.family != "" {
			// homophily.Advise's reason, and the grid it calls for: belief
			// propagation and the four feature models, or those alone.
			assert.Contains(t, res["advice"], tc.family, name)
			assert.EqualValues(t, map[string]int{"class compatibility": 5, "say little": 4}[tc.family], res["candidates"], name)
		}
		model, _ := res["model"].(string)
		kind := ""
		for prefix, k := range modelKinds {
			if strings.HasPrefix(model, prefix) {
				kind = k
			}
		}
		require.NotEmpty(t, kind, "%s: chose %q", name, model)
		t.Logf("%s: chose %s (%s)", name, model, kind)
		stdout, _, err = runRoot(t, "model", "info", saved, "--json")
		require.NoError(t, err, name)
		assert.Equal(t, kind, decodeOne(t, []byte(stdout))["kind"], "%s: chose %q", name, model)

		_, _, err = runRoot(t, "predict", "--model", saved, "--out", pred)
		require.NoError(t, err, name)
		fit, got := readCSV(t, out), readCSV(t, pred)
		require.Equal(t, []string{"id", "predicted", "label", "split"}, fit[0][:4], name)
		require.Equal(t, []string{"id", "predicted"}, got[0][:2], name)
		require.Equal(t, len(fit[0])-2, len(got[0]), "%s: the same score columns", name)
		require.Len(t, got, 1+120, name)
		require.Len(t, fit, 1+120-30, name)
		byID := map[string][]string{}
		for _, r := range got[1:] {
			byID[r[0]] = r
		}
		require.Equal(t, "p_0", fit[0][4], name)
		for _, r := range fit[1:] {
			checkDistribution(t, name, r[4:])
			p, ok := byID[r[0]]
			require.True(t, ok, "%s: node %s", name, r[0])
			assert.Equal(t, append([]string{r[0], r[1]}, r[4:]...), p, "%s: node %s", name, r[0])
		}
		edges := filepath.Join(dir, "new.csv")
		require.NoError(t, os.WriteFile(edges, []byte("source,target\nnew_1,1\nnew_1,2\n"), 0o644))
		_, _, err = runRoot(t, "predict", "--model", saved, "--edges", edges)
		assert.Error(t, err, "%s: new nodes by their edges alone", name)
	}
}

// TestClassifyAutoNoTrainingEdge: on a graph where no edge joins two
// training nodes (a ring labelled on every fourth node, as a few labels per
// class leave a large sparse graph), classify --classifier auto searches
// the smoothing and the feature models together instead of failing, says
// why, and reports a base model exactly when Correct & Smooth refined the
// choice.
func TestClassifyAutoNoTrainingEdge(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	n := 96
	var edges, labels, split strings.Builder
	for u := 0; u < n; u++ {
		fmt.Fprintf(&edges, "%d %d\n", u, (u+1)%n)
		fmt.Fprintln(&labels, (u/8)%3)
		part := []string{"train", "val", "test", "test"}[u%4]
		fmt.Fprintf(&split, "%s %d\n", part, u)
	}
	writeNodeFolder(t, dir, rng, edges.String(), labels.String(), n, 9, 3, 0.6, 0.1)
	splitFile := filepath.Join(dir, "split.txt")
	require.NoError(t, os.WriteFile(splitFile, []byte(split.String()), 0o644))
	stdout, _, err := runRoot(t, "classify", "--data", dir, "--classifier", "auto", "--split", splitFile, "--json")
	require.NoError(t, err)
	res := decodeOne(t, []byte(stdout))
	assert.Contains(t, res["advice"], "cannot tell homophily from heterophily")
	assert.EqualValues(t, 2*len(nodeclass.KGrid())*len(nodeclass.L2Grid())+3, res["candidates"], "SGC's and APPNP's grids and the three networks")
	model, _ := res["model"].(string)
	_, based := res["base_model"]
	assert.Equal(t, strings.HasPrefix(model, "correct-smooth("), based, "chose %q", model)
	t.Logf("chose %s", model)
}
