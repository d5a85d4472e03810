package savedmodel

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/serve"
)

// The models that Decode opens by their estimator role, with no code of
// their own here: any kind registered in package persist whose model is
//
//   - a node classifier (estimator.NodeClassifier) of the graph alone, with
//     Nodes() (the fitted nodes) and Outputs() (the classes): it answers
//     its fitted nodes and new nodes given by their edges;
//   - a point classifier (estimator.PointClassifier) with Features() (the
//     points' dimension) and Outputs() (the classes): it answers points.
//
// The predicted class is the first largest score (estimator.Argmax); the
// model's Predict row is the prediction's Probabilities when the model
// declares probabilities (estimator.OutputOf), its Scores otherwise.
type (
	nodeClassifier interface {
		estimator.NodeClassifier
		Nodes() int
		Outputs() int
	}
	pointClassifier interface {
		estimator.PointClassifier
		Features() int
		Outputs() int
	}
)

// roleBackend returns the backend of m by its role, or false.
func roleBackend(m persist.Model) (backend, bool) {
	switch m := m.(type) {
	case nodeClassifier:
		return nodeRoleBackend{m}, true
	case pointClassifier:
		return pointRoleBackend{m}, true
	}
	return nil, false
}

// roleKinds lists the kinds of persist without a backend of their own that
// roleBackend opens.
func roleKinds() []string {
	var out []string
	own := ownKinds()
	for _, k := range persist.Kinds() {
		if m, err := persist.New(k); err == nil && !slices.Contains(own, k) {
			if _, ok := roleBackend(m); ok {
				out = append(out, k)
			}
		}
	}
	return out
}

// classPredictions turns the Predict rows of classifier m into
// predictions: the class number in Label (Saved names it) and the row as
// Probabilities if m declares probabilities, else as Scores.
func classPredictions(m any, rows *mat.Dense) []serve.Prediction {
	r, _ := rows.Dims()
	best := estimator.Argmax(rows)
	probs := false
	if o, ok := estimator.OutputOf(m); ok && o == estimator.Probabilities {
		probs = true
	}
	out := make([]serve.Prediction, r)
	for i := range out {
		out[i].Label = strconv.Itoa(best[i])
		if row := slices.Clone(rows.RawRowView(i)); probs {
			out[i].Probabilities = row
		} else {
			out[i].Scores = row
		}
	}
	return out
}

type nodeRoleBackend struct{ m nodeClassifier }

func (b nodeRoleBackend) nodes() int    { return b.m.Nodes() }
func (b nodeRoleBackend) features() int { return 0 }
func (b nodeRoleBackend) classes() int  { return b.m.Outputs() }
func (b nodeRoleBackend) fitted() []serve.Prediction {
	p, err := b.m.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		return nil // a model read from a file is fitted
	}
	return classPredictions(b.m, p)
}
func (b nodeRoleBackend) predictNodes(ctx context.Context, nn estimator.NewNodes) ([]serve.Prediction, error) {
	if nn.Len() == 0 {
		return nil, nil
	}
	p, err := b.m.Predict(ctx, estimator.NodeQuery{New: &nn})
	if err != nil {
		return nil, err
	}
	return classPredictions(b.m, p), nil
}

type pointRoleBackend struct{ m pointClassifier }

func (b pointRoleBackend) nodes() int                 { return 0 }
func (b pointRoleBackend) features() int              { return b.m.Features() }
func (b pointRoleBackend) classes() int               { return b.m.Outputs() }
func (b pointRoleBackend) fitted() []serve.Prediction { return nil }
func (b pointRoleBackend) predictNodes(context.Context, estimator.NewNodes) ([]serve.Prediction, error) {
	return nil, errors.New("unreachable: a model of points has no fitted nodes")
}
func (b pointRoleBackend) predictPoints(ctx context.Context, points [][]float64) ([]serve.Prediction, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(points) == 0 {
		return nil, nil
	}
	d := b.m.Features()
	data := make([]float64, 0, len(points)*d)
	for _, p := range points {
		data = append(data, p...)
	}
	s, err := b.m.Predict(ctx, mat.NewDense(len(points), d, data))
	if err != nil {
		return nil, err
	}
	return classPredictions(b.m, s), nil
}
