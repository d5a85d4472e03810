package main

import (
	"encoding/json"
	"fmt"
	"github.com/gssl/gssl/estimator"
	"strings"

	"github.com/gssl/gssl/nodeids"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

func joinComma(s []string) string { return strings.Join(s, ",") }

func idsJSON(ids *nodeids.Map) ([]byte, error) {
	if ids == nil || ids.IsIdentity() {
		return []byte("[]"), nil
	}
	return json.Marshal(ids.Strings())
}

// kindsJSON describes every kind: its kind, role, default
// hyperparameters, whether a fitted model can be saved (a model file), and
// for a classifier the output its Predict declares with the default
// hyperparameters ("probabilities" or "decision_values";
// estimator.OutputDeclarer).
func kindsJSON() ([]byte, error) {
	type kindInfo struct {
		Kind            string          `json:"kind"`
		Role            string          `json:"role"`
		Hyperparameters json.RawMessage `json:"hyperparameters"`
		Savable         bool            `json:"savable"`
		Output          string          `json:"output,omitempty"`
	}
	var out []kindInfo
	for _, k := range kindNames() {
		m, err := newKind(k)
		if err != nil {
			return nil, err
		}
		p, err := getParams(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		_, savable := m.(estimator.Saver)
		out = append(out, kindInfo{Kind: k, Role: roleOf(m).String(), Hyperparameters: p, Savable: savable, Output: outputName(m)})
	}
	return json.Marshal(out)
}

func (e *modelEntry) setContext(js []byte) error {
	var c modelContext
	dec := json.NewDecoder(strings.NewReader(string(js)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return fmt.Errorf("model context: %w", err)
	}
	e.mu.Lock()
	e.classNames, e.data = c.ClassNames, c.Data
	e.mu.Unlock()
	return nil
}

// outputName is the output m declares ("probabilities" or
// "decision_values"), or "" when m is not a classifier.
func outputName(m any) string {
	if o, ok := estimator.OutputOf(m); ok {
		return o.String()
	}
	return ""
}
