package savedmodel

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/stkr"
)

// TestDistributionTablesChecked: every model file that stores a table of
// probabilities (the fitted nodes' class probabilities, a class prior, or
// centred beliefs, whose rows sum to 0) is refused when a row is altered
// by a writer that keeps the checksums right, and the error names the
// section, the row and what is wrong. The same file unaltered is read.
func TestDistributionTablesChecked(t *testing.T) {
	fx := kindFixtures(t)
	n := tiny(t).Graph.Nodes()
	scaleRow1 := func(v []float64) {
		c := len(v) / n
		for k := c; k < 2*c; k++ {
			v[k] *= 0.43
		}
	}
	negative := func(v []float64) { c := len(v) / n; v[2*c+1] = -0.25 }
	for _, c := range []struct {
		kind, section string
		change        func([]float64)
		want          string
	}{
		{nodeclass.SGCKind, "probabilities", scaleRow1, `section "probabilities": row 1 sums to 0.43, not 1`},
		{nodeclass.APPNPKind, "probabilities", negative, `section "probabilities": row 2 has -0.25 in column 1`},
		{nodeclass.SepGNNKind, "probabilities", scaleRow1, `section "probabilities": row 1 sums to 0.43, not 1`},
		{nodeclass.LINKXKind, "probabilities", scaleRow1, `section "probabilities": row 1 sums to 0.43, not 1`},
		{nodeclass.ChannelMLPKind, "probabilities", negative, `section "probabilities": row 2 has -0.25 in column 1`},
		{nodeclass.APPNPNetKind, "probabilities", scaleRow1, `section "probabilities": row 1 sums to 0.43, not 1`},
		{labelprop.SpreadingKind, "prior", func(v []float64) { v[0] += 0.5 }, `section "prior": sums to 1.5, not 1`},
		{labelprop.HarmonicKind, "prior", func(v []float64) { v[1] = -v[1] }, `section "prior": has -`},
		{linbp.PropagationKind, "beliefs", func(v []float64) { v[len(v)/n] += 0.25 }, `section "beliefs": row 1 sums to 0.25, not 0`},
	} {
		f, err := File(fx[c.kind].m, fx[c.kind].c)
		require.NoError(t, err, c.kind)
		_, err = Decode(reencode(t, f))
		require.NoError(t, err, "%s unaltered", c.kind)
		_, err = Decode(reencode(t, tamper(t, f, c.section, c.change)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, section %s altered: %v, want an error saying %s", c.kind, c.section, err, c.want)
		}
	}
}

// TestCorrectSmoothBaseChecked: Correct & Smooth's base model, nested in
// its file, is read by the base's reader, which checks its probabilities.
func TestCorrectSmoothBaseChecked(t *testing.T) {
	fx := kindFixtures(t)
	f, err := File(fx[nodeclass.CorrectSmoothKind].m, fx[nodeclass.CorrectSmoothKind].c)
	require.NoError(t, err)
	base, err := f.Nested("base")
	require.NoError(t, err)
	bad := tamper(t, base, "probabilities", func(v []float64) { v[0] += 1 })
	g := cloneFile(t, f, "base", -1)
	require.NoError(t, g.PutNested("base", bad))
	_, err = Decode(reencode(t, g))
	if err == nil || !strings.Contains(err.Error(), `base: nodeclass: model file, section "probabilities": row 0 sums to 2, not 1`) {
		t.Errorf("a base whose probabilities are altered: %v", err)
	}
}

// TestSTKRPriorChecked: an STKR classifier's class prior, in the
// metadata, must be a distribution.
func TestSTKRPriorChecked(t *testing.T) {
	fx := kindFixtures(t)
	f, err := File(fx[stkr.ClassifierKind].m, fx[stkr.ClassifierKind].c)
	require.NoError(t, err)
	var meta map[string]any
	require.NoError(t, json.Unmarshal(f.Metadata, &meta))
	task, _ := meta["task"].(map[string]any)
	prior, _ := task["prior"].([]any)
	require.GreaterOrEqual(t, len(prior), 2, "the metadata has no prior of two classes or more: %s", f.Metadata)
	for _, c := range []struct {
		change func([]any)
		want   string
	}{
		{func(p []any) { p[0] = p[0].(float64) + 0.25 }, "task.prior (the class prior): sums to 1.25, not 1"},
		{func(p []any) { p[0], p[1] = p[0].(float64)+p[1].(float64)+0.5, -0.5 }, "task.prior (the class prior): has -0.5 in column 1"},
	} {
		bad := append([]any(nil), prior...)
		c.change(bad)
		task["prior"] = bad
		g := cloneFile(t, f, "", 0)
		g.Metadata, err = json.Marshal(meta)
		require.NoError(t, err)
		_, err = Decode(reencode(t, g))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("prior %v: %v, want an error saying %q", bad, err, c.want)
		}
	}
}

// tamper returns f with the float64 section name changed by change (on a
// copy), written through the encoder as another program could.
func tamper(t *testing.T, f *modelfile.File, name string, change func([]float64)) *modelfile.File {
	t.Helper()
	v, err := f.Float64sNonFinite(name)
	require.NoError(t, err, name)
	v = append([]float64(nil), v...)
	change(v)
	g := cloneFile(t, f, name, -1)
	g.PutFloat64s(name, v)
	return g
}

// reencode returns f written to bytes and read back, as a file from disk.
func reencode(t *testing.T, f *modelfile.File) *modelfile.File {
	t.Helper()
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	g, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	return g
}

// TestServedProbabilitiesAreDistributions: every model of every kind, read
// from its file, answers its fitted items with probabilities (where it
// gives any: gssl predict's p_ columns, serve's "probabilities") that are
// distributions.
func TestServedProbabilitiesAreDistributions(t *testing.T) {
	fx := kindFixtures(t)
	for kind, x := range fx {
		f, err := File(x.m, x.c)
		require.NoError(t, err, kind)
		s, err := Decode(reencode(t, f))
		require.NoError(t, err, kind)
		with := 0
		for i, p := range s.PredictFitted() {
			if p.Probabilities == nil {
				continue
			}
			with++
			if err := modelfile.CheckDistributions(p.Probabilities, len(p.Probabilities), modelfile.SumTol); err != nil {
				t.Errorf("%s: fitted item %d: %v", kind, i, err)
			}
		}
		t.Logf("%s: %d fitted items with probabilities", kind, with)
	}
}
