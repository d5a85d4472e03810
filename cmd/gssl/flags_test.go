package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/serve"
)

// A library setting's *estimator.FieldError reads as its flag.
func TestFieldFlagError(t *testing.T) {
	for field, flag := range map[string]string{"MaxGraphNodes": "max-graph-nodes", "Alpha": "alpha", "K": "k", "maxIter": "max-iter"} {
		assert.Equal(t, flag, flagName(field))
	}
	err := fmt.Errorf("serve: %w", &estimator.FieldError{Field: "MaxBatchEdges", Value: int64(-2), Reason: "it must be ≥ 1"})
	assert.EqualError(t, fieldFlagError(err), "--max-batch-edges -2 is invalid: it must be ≥ 1")
	plain := errors.New("x")
	assert.Same(t, plain, fieldFlagError(plain))
}

// The version summary is what the print function it replaced wrote
// (its format strings are the reference).
func TestVersionSummary(t *testing.T) {
	yes, no := true, false
	for _, b := range []modelfile.Build{
		{Module: "m", Version: "v1", Go: "go1"},
		{Module: "m", Version: "v1", Go: "go1", Revision: "abc", Time: "t", Modified: &yes},
		{Module: "m", Version: "v1", Go: "go1", Revision: "abc", Time: "t", Modified: &no},
		{Module: "m", Version: "v1", Go: "go1", Revision: "abc", Time: "t"},
	} {
		want := fmt.Sprintf("gssl %s (%s, %s)\n", b.Version, b.Module, b.Go)
		if b.Revision != "" {
			mod := ""
			if b.Modified != nil && *b.Modified {
				mod = ", modified"
			}
			want += fmt.Sprintf("revision %s (%s%s)\n", b.Revision, b.Time, mod)
		}
		var got bytes.Buffer
		require.NoError(t, printSummary(&got, "version", b))
		assert.Equal(t, want, got.String())
	}
}

// The fit and predict summaries are what their print functions wrote.
func TestFitPredictSummaries(t *testing.T) {
	for _, r := range []fitResult{{Kind: "k", Data: "d", Nodes: 5, Labelled: 2, Classes: 3}, {Kind: "k", Data: "d", Nodes: 5, Labelled: 2, Classes: 3, Saved: "m.gssl"}} {
		want := fmt.Sprintf("fit: %s on %s: %d nodes, %d labelled, %d classes", r.Kind, r.Data, r.Nodes, r.Labelled, r.Classes)
		if r.Saved != "" {
			want += fmt.Sprintf("; saved to %s", r.Saved)
		}
		var got bytes.Buffer
		require.NoError(t, printSummary(&got, "fit", r))
		assert.Equal(t, want+"\n", got.String())
	}
	for _, r := range []predictResult{{Model: "m", Kind: "k", Input: "edges", Predicted: 4, Out: "o.csv"}, {Model: "m", Kind: "k", Input: "edges", Predicted: 4, NoEvidence: 2, Out: "o.csv"}} {
		want := fmt.Sprintf("predict: %d predictions of the %s model %s (%s) written to %s", r.Predicted, r.Kind, r.Model, r.Input, r.Out)
		if r.NoEvidence > 0 {
			want += fmt.Sprintf("; %d had no evidence and got the class prior", r.NoEvidence)
		}
		var got bytes.Buffer
		require.NoError(t, printSummary(&got, "predict", r))
		assert.Equal(t, want+"\n", got.String())
	}
}

// serve names a negative limit by its flag (serve.Config.Validate's
// *estimator.FieldError mapped by fieldFlagError).
func TestServeLimitNamesTheFlag(t *testing.T) {
	model := filepath.Join(t.TempDir(), "m.gssl")
	_, _, err := runRoot(t, "labelprop", "--alpha", "0.9", "--split", "none", "--save", model)
	require.NoError(t, err)
	_, _, err = runRoot(t, "serve", "--model", model, "--max-graph-nodes", "-1")
	assert.EqualError(t, err, fmt.Sprintf("serve: --max-graph-nodes -1 is invalid: it must be ≥ 1 (0 means %d)", serve.DefaultMaxGraphNodes))
}
