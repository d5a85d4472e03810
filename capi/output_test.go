package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestKindsOutput: gssl_kinds states an output for every kind with a
// classifier role and none for the other roles, and model info states the same for a fitted model
// and for one read back from its file.
func TestKindsOutput(t *testing.T) {
	b, err := kindsJSON()
	require.NoError(t, err)
	var kinds []struct {
		Kind, Role, Output string
	}
	require.NoError(t, json.Unmarshal(b, &kinds))
	byKind := map[string]string{}
	for _, k := range kinds {
		classifier := strings.HasSuffix(k.Role, "_classifier")
		if classifier {
			require.Contains(t, []string{"probabilities", "decision_values"}, k.Output, k.Kind)
		} else if k.Role != "none" { // svm.SVC and KernelRidge: classifiers of a precomputed kernel
			require.Empty(t, k.Output, "%s (role %s) states an output", k.Kind, k.Role)
		}
		byKind[k.Kind] = k.Output
	}
	// Two kinds whose answers are known from their mathematics: label
	// spreading normalises its rows, stkr.Classifier returns regression
	// outputs on one-hot targets, the heat classifier diffused one-hot labels.
	require.Equal(t, "probabilities", byKind["labelprop.Spreading"])
	require.Equal(t, "decision_values", byKind["stkr.Classifier"])
	require.Equal(t, "decision_values", byKind["diffusion.HeatClassifier"])

	g, y, _, _ := coraTrainVal(t)
	for _, kind := range []string{"labelprop.Spreading", "diffusion.HeatClassifier"} {
		e, err := newModel(kind, "")
		require.NoError(t, err)
		require.NoError(t, e.fit(context.Background(), fitData{graph: g, labels: y}))
		info := modelOutput(t, e)
		require.Equal(t, byKind[kind], info, kind)
		b, err := e.marshal()
		require.NoError(t, err)
		back, err := unmarshalModel(b)
		require.NoError(t, err)
		require.Equal(t, byKind[kind], modelOutput(t, back), "%s read back", kind)
	}
}

func modelOutput(t *testing.T, e *modelEntry) string {
	b, err := e.info()
	require.NoError(t, err)
	var info struct{ Output string }
	require.NoError(t, json.Unmarshal(b, &info))
	return info.Output
}
