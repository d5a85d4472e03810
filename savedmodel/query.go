package savedmodel

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/serve"
)

// ErrQueryUsage marks a Query whose files cannot go together whatever the
// model (CheckFor's errors about the flags' use rather than the model).
var ErrQueryUsage = errors.New("the query's files exclude each other")

// usageError is an error of ErrQueryUsage.
type usageError struct{ msg string }

func (e usageError) Error() string        { return e.msg }
func (e usageError) Is(target error) bool { return target == ErrQueryUsage }

// CheckFor refuses, in gssl predict's flag names, the inputs that do not
// fit the model of s (PredictFiles refuses them too): Graphs for a model of
// nodes or points, Edges or Features for a model of graphs, both Edges and
// Features for a model without node features. The errors about the
// combination alone are ErrQueryUsage.
func (q Query) CheckFor(s *Saved) error {
	meta := s.Metadata()
	graphs := meta.Input == serve.InputGraphs
	switch {
	case q.Graphs != "" && (q.Edges != "" || q.Features != ""):
		return usageError{"predict: --graphs excludes --edges and --features: new graphs, new nodes or new points"}
	case q.Graphs != "" && !graphs:
		return fmt.Errorf("predict: --graphs %s: a %s model does not classify graphs: give --edges (new nodes) or --features (new points)", q.Graphs, meta.Kind)
	case graphs && q.Edges != "":
		return fmt.Errorf("predict: --edges %s: a %s model classifies whole graphs, not nodes: give --graphs DIR (a TU data set folder)", q.Edges, meta.Kind)
	case graphs && q.Features != "":
		return fmt.Errorf("predict: --features %s: a %s model classifies whole graphs, not points: give --graphs DIR (a TU data set folder)", q.Features, meta.Kind)
	case q.Edges != "" && q.Features != "" && s.NodeFeatures() == 0:
		return usageError{fmt.Sprintf("predict: --edges and --features exclude each other for a %s model: new nodes, or new points (both together are for gssl classify's models)", meta.Kind)}
	}
	return nil
}

// FlagError names the flag (gssl predict's) of the file a PredictFiles
// error is about.
func (q Query) FlagError(err error) error {
	msg := err.Error()
	var pe *loaders.ParseError
	errors.As(err, &pe)
	for _, f := range []struct{ flag, path string }{{"edges", q.Edges}, {"features", q.Features}, {"feature-ids", q.FeatureIDs}, {"graphs", q.Graphs}} {
		switch {
		case f.path == "":
		case strings.HasPrefix(msg, f.path):
			return fmt.Errorf("--%s %w", f.flag, err)
		case (pe != nil && pe.Path == f.path) || f.flag == "graphs":
			return fmt.Errorf("--%s: %w", f.flag, err)
		}
	}
	return err
}

// AnswerReport sums up an Answer of the model in file path: its kind,
// classes and input, the predictions (and how many are the class prior,
// with no evidence) and the table written (Out).
type AnswerReport struct {
	Model       string             `json:"model"`
	Kind        string             `json:"kind"`
	Input       string             `json:"input"` // one of the Input… names
	Predicted   int                `json:"predicted"`
	NoEvidence  int                `json:"no_evidence"` // predictions that are the class prior
	Classes     []string           `json:"classes,omitempty"`
	Out         string             `json:"out,omitempty"`
	Predictions []serve.Prediction `json:"predictions,omitempty"`
}

// Report sums up a, the answer of the model in file path with metadata
// meta.
func (a *Answer) Report(path string, meta serve.Metadata) AnswerReport {
	return AnswerReport{Model: path, Kind: meta.Kind, Classes: meta.Classes, Input: a.Input, Predicted: len(a.Predictions), NoEvidence: a.NoEvidence()}
}
