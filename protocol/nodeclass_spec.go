package protocol

import (
	"math"
	"strings"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
)

// NodeClassSpec describes gssl classify's model search by names and
// numbers, as a command line, a configuration file or another front end
// gives it; Search builds it (NodeClassSearch).
type NodeClassSpec struct {
	Classifier    string  `json:"classifier" flag:"classifier"`         // one of NodeClassModels
	FeatureWeight float64 `json:"feature_weight" flag:"feature-weight"` // the stkr classifier's feature kernel weight, finite and ≥ 0; 0 for the others
	Embed         int     `json:"embed" flag:"embed"`                   // eigenmap coordinates appended to the features, ≥ 0 (0: none)
}

func nodeClassSpecError(field string, v any, reason string) error {
	return &estimator.FieldError{Package: "protocol", Field: field, Value: v, Reason: reason}
}

// Validate reports the first field outside its valid range as an
// *estimator.FieldError.
func (s NodeClassSpec) Validate() error {
	known := false
	for _, m := range NodeClassModels {
		known = known || m == s.Classifier || (s.Classifier == "cs" && m == "correct-smooth")
	}
	switch {
	case !known:
		return nodeClassSpecError("Classifier", s.Classifier, "want "+strings.Join(NodeClassModels[:len(NodeClassModels)-1], ", ")+" or "+NodeClassModels[len(NodeClassModels)-1])
	case s.FeatureWeight != 0 && s.Classifier != "stkr":
		return nodeClassSpecError("FeatureWeight", s.FeatureWeight, "it applies to the stkr classifier only")
	case !(s.FeatureWeight >= 0) || math.IsInf(s.FeatureWeight, 0):
		return nodeClassSpecError("FeatureWeight", s.FeatureWeight, "it must be finite and ≥ 0")
	case s.Embed < 0:
		return nodeClassSpecError("Embed", s.Embed, "it must be ≥ 0 (0: no embedding)")
	}
	return nil
}

// Search returns the search s describes (NodeClassSearch; for auto, the
// smoothing models' until NodeClassAuto sees the data), or the first
// invalid field as an *estimator.FieldError.
func (s NodeClassSpec) Search() (eval.NodeSearch, error) {
	if err := s.Validate(); err != nil {
		return eval.NodeSearch{}, err
	}
	return NodeClassSearch(s.Classifier, s.FeatureWeight, s.Embed > 0)
}
