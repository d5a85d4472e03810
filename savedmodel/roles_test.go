package savedmodel

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

type declares estimator.Output

func (d declares) Output() estimator.Output { return estimator.Output(d) }

// TestClassPredictionsFollowOutput checks that a role model's rows reach
// the prediction as Probabilities only when it declares probabilities.
func TestClassPredictionsFollowOutput(t *testing.T) {
	rows := mat.NewDense(2, 3, []float64{0.2, 0.5, 0.3, 0.6, 0.1, 0.3})
	for _, c := range []struct {
		m     any
		probs bool
	}{
		{declares(estimator.Probabilities), true},
		{declares(estimator.DecisionValues), false},
		{struct{}{}, false},
	} {
		got := classPredictions(c.m, rows)
		for i, p := range got {
			want := rows.RawRowView(i)
			row := p.Scores
			if c.probs {
				row = p.Probabilities
				if p.Scores != nil {
					t.Errorf("%T: row %d has scores beside its probabilities", c.m, i)
				}
			} else if p.Probabilities != nil {
				t.Errorf("%T: row %d of decision values labelled probabilities", c.m, i)
			}
			if !mat.Equal(mat.NewVecDense(3, row), mat.NewVecDense(3, want)) {
				t.Errorf("%T: row %d = %v, want %v", c.m, i, row, want)
			}
			if wantLabel := []string{"1", "0"}[i]; p.Label != wantLabel {
				t.Errorf("%T: row %d label %q, want %q", c.m, i, p.Label, wantLabel)
			}
		}
	}
}
