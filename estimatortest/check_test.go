package estimatortest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// centroid is a small, correct point classifier: the nearest class mean,
// scores −distance². The broken variants below each break one rule.
type centroid struct {
	Shrink float64 // in [0, 1): how far each mean moves towards the grand mean
	Bias   float64 // added to every score; any finite value

	broken string
	means  *mat.Dense
}

func (m *centroid) Validate() error {
	if !(m.Shrink >= 0 && m.Shrink < 1) {
		return fmt.Errorf("Shrink=%v is invalid: it must be in [0, 1)", m.Shrink)
	}
	if math.IsNaN(m.Bias) || math.IsInf(m.Bias, 0) {
		return fmt.Errorf("Bias=%v is invalid: it must be finite", m.Bias)
	}
	return nil
}

func (m *centroid) Info() estimator.Info { return estimator.Info{} }

func (m *centroid) Clone() *centroid {
	c := &centroid{Shrink: m.Shrink, Bias: m.Bias, broken: m.broken}
	if m.broken == "clone" {
		c.Bias = 0
	}
	if m.broken == "clone-fitted" {
		c.means = m.means
	}
	return c
}

func (m *centroid) Fit(ctx context.Context, x *mat.Dense, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if m.broken != "cancel" {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	n, d := x.Dims()
	classes := 0
	for _, l := range labels {
		classes = max(classes, l+1)
	}
	means := mat.NewDense(classes, d, nil)
	count := make([]float64, classes)
	for i := 0; i < n; i++ {
		if labels[i] < 0 {
			continue
		}
		count[labels[i]]++
		for j := 0; j < d; j++ {
			means.Set(labels[i], j, means.At(labels[i], j)+x.At(i, j))
		}
	}
	for c := range count {
		for j := 0; j < d; j++ {
			means.Set(c, j, means.At(c, j)/count[c]*(1-m.Shrink))
		}
	}
	if m.broken == "rewrite" {
		m.Shrink = 0.5
	}
	if m.broken == "random" {
		means.Set(0, 0, means.At(0, 0)+float64(nondeterministic()))
	}
	m.means = means
	return nil
}

var counter struct {
	sync.Mutex
	n int
}

func nondeterministic() int {
	counter.Lock()
	defer counter.Unlock()
	counter.n++
	return counter.n
}

func (m *centroid) Predict(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	if m.means == nil {
		if m.broken == "notfitted" {
			return mat.NewDense(1, 1, nil), nil
		}
		return nil, estimator.NotFitted("centroid.Predict")
	}
	if x == nil {
		return nil, errors.New("centroid: give the points to predict")
	}
	n, d := x.Dims()
	c, _ := m.means.Dims()
	out := mat.NewDense(n, c, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < c; k++ {
			s := 0.0
			for j := 0; j < d; j++ {
				s += (x.At(i, j) - m.means.At(k, j)) * (x.At(i, j) - m.means.At(k, j))
			}
			out.Set(i, k, m.Bias-s)
		}
	}
	if m.broken == "rows" {
		return out.Slice(0, n-1, 0, c).(*mat.Dense), nil
	}
	return out, nil
}

var _ estimator.PointClassifier = (*centroid)(nil)

// Output declares decision values; broken "declared" declares
// probabilities instead.
func (m *centroid) Output() estimator.Output {
	if m.broken == "declared" {
		return estimator.Probabilities
	}
	return estimator.DecisionValues
}

func centroidCase(broken string) Case[*mat.Dense, *mat.Dense] {
	x := mat.NewDense(6, 2, []float64{0, 0, 0, 1, 1, 0, 5, 5, 5, 6, 6, 5})
	return Case[*mat.Dense, *mat.Dense]{
		Name: "centroid",
		New:  func() estimator.Estimator { return &centroid{Shrink: 0.1, Bias: 2, broken: broken} },
		Invalid: map[string]func() estimator.Estimator{
			"Shrink": func() estimator.Estimator { return &centroid{Shrink: 1} },
			"Bias":   func() estimator.Estimator { return &centroid{Bias: math.Inf(1)} },
		},
		X:         x,
		Labels:    []int{0, 0, -1, 1, 1, -1},
		Query:     mat.NewDense(3, 2, []float64{0, 0, 5, 5, 2, 2}),
		QueryRows: 3,
		Columns:   2,
		Output:    DecisionValues,
	}
}

// Centroid names centroid exported, so that a struct embedding it promotes
// its hyperparameters (Shrink, Bias) as a model's are.
type Centroid = centroid

// softmaxCentroid is centroid with probabilities: the softmax of its
// scores. Its broken variants perturb them.
type softmaxCentroid struct{ Centroid }

func (m *softmaxCentroid) Clone() *softmaxCentroid { return &softmaxCentroid{*m.Centroid.Clone()} }

// Predict returns the class probabilities of the rows of x, the softmax of
// the nearest-mean scores; broken "unnormalised" scales the first row
// (it sums to 1.5), "negative" flips the sign of its first entry.
func (m *softmaxCentroid) Predict(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	s, err := m.Centroid.Predict(ctx, x)
	if err != nil {
		return nil, err
	}
	r, c := s.Dims()
	for i := 0; i < r; i++ {
		row := s.RawRowView(i)
		top, sum := row[0], 0.0
		for _, v := range row {
			top = max(top, v)
		}
		for k, v := range row {
			row[k] = math.Exp(v - top)
			sum += row[k]
		}
		for k := range row {
			row[k] /= sum
		}
	}
	switch {
	case m.broken == "unnormalised" && r > 0:
		for k := 0; k < c; k++ {
			s.Set(0, k, 1.5*s.At(0, k))
		}
	case m.broken == "negative" && r > 0:
		s.Set(0, 0, -s.At(0, 0))
	}
	return s, nil
}

// Output declares probabilities; broken "declared" declares decision
// values instead.
func (m *softmaxCentroid) Output() estimator.Output {
	if m.broken == "declared" {
		return estimator.DecisionValues
	}
	return estimator.Probabilities
}

func softmaxCase(broken string) Case[*mat.Dense, *mat.Dense] {
	c := centroidCase(broken)
	c.New = func() estimator.Estimator { return &softmaxCentroid{centroid{Shrink: 0.1, Bias: 2, broken: broken}} }
	c.Output = Probabilities
	return c
}

// recorder is a T that records failures instead of failing the test.
type recorder struct {
	name   string
	dir    string
	mu     *sync.Mutex
	errors *[]string
}

func (r recorder) Helper()         {}
func (r recorder) Name() string    { return r.name }
func (r recorder) TempDir() string { return r.dir }
func (r recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.errors = append(*r.errors, r.name+": "+fmt.Sprintf(format, args...))
}
func (r recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r recorder) Run(name string, f func(T)) bool {
	sub := r
	sub.name = r.name + "/" + name
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(sub)
	}()
	<-done
	return true
}

func record(t *testing.T, c Case[*mat.Dense, *mat.Dense]) []string {
	var errs []string
	CheckT(recorder{name: t.Name(), dir: t.TempDir(), mu: new(sync.Mutex), errors: &errs}, c, false)
	return errs
}

func TestCheckPassesACorrectModel(t *testing.T) {
	if errs := record(t, centroidCase("")); len(errs) > 0 {
		t.Fatalf("a correct model fails Check:\n%s", strings.Join(errs, "\n"))
	}
}

func TestCheckFailsBrokenModels(t *testing.T) {
	for broken, want := range map[string]string{
		"notfitted":    "before Fit",
		"clone":        "does not keep every hyperparameter",
		"clone-fitted": "clone of a fitted model is fitted",
		"rewrite":      "rewrote hyperparameters",
		"random":       "two fits of the same model differ",
		"cancel":       "cancelled context",
		"rows":         "2 rows, want 3",
	} {
		errs := record(t, centroidCase(broken))
		if !strings.Contains(strings.Join(errs, "\n"), want) {
			t.Errorf("a model broken by %q: Check's failures do not say %q:\n%s", broken, want, strings.Join(errs, "\n"))
		}
	}
	if errs := record(t, softmaxCase("")); len(errs) > 0 {
		t.Errorf("a correct model of probabilities fails Check:\n%s", strings.Join(errs, "\n"))
	}
	c := centroidCase("")
	c.Invalid["Shrink"] = func() estimator.Estimator { return &centroid{Shrink: 0.5} }
	if errs := record(t, c); !strings.Contains(strings.Join(errs, "\n"), "accepts the invalid Shrink") {
		t.Errorf("a valid model listed as invalid passes: %v", errs)
	}
}

// TestCheckFailsBadProbabilities: a model of probabilities whose rows are
// perturbed fails, with the row named; so do cases whose Output is unset
// or disagrees with the model's documentation of Predict.
func TestCheckFailsBadProbabilities(t *testing.T) {
	for broken, want := range map[string]string{
		"unnormalised": "predicting the query: the probabilities are not distributions: row 0 sums to 1.5, not 1",
		"negative":     "predicting the query: the probabilities are not distributions: row 0 has -",
	} {
		errs := strings.Join(record(t, softmaxCase(broken)), "\n")
		if !strings.Contains(errs, want) {
			t.Errorf("probabilities broken by %q: Check's failures do not say %q:\n%s", broken, want, errs)
		}
	}
	for _, c := range []struct {
		name   string
		c      Case[*mat.Dense, *mat.Dense]
		output Output
		want   string
	}{
		{"unstated", softmaxCase(""), Unstated, "does not state Output"},
		{"probabilities as decision values", softmaxCase(""), DecisionValues, `*estimatortest.softmaxCentroid's Predict says "class probabilities"`},
		{"decision values as probabilities", centroidCase(""), Probabilities, `*estimatortest.centroid's Predict does not say "class probabilities"`},
		{"a promoted Predict", centroidCase(""), Probabilities, `*estimatortest.savedCentroid's Predict does not say`},
	} {
		c.c.Output = c.output
		if c.name == "a promoted Predict" {
			c.c.New = func() estimator.Estimator { return &savedCentroid{centroid{Shrink: 0.1, Bias: 2}} }
		}
		errs := strings.Join(record(t, c.c), "\n")
		if !strings.Contains(errs, c.want) {
			t.Errorf("%s: Check's failures do not say %q:\n%s", c.name, c.want, errs)
		}
	}
	for _, c := range []struct {
		name string
		c    Case[*mat.Dense, *mat.Dense]
		want string
	}{
		{"decision values declared as probabilities", centroidCase("declared"), "*estimatortest.centroid declares Output probabilities, and the case states decision_values"},
		{"probabilities declared as decision values", softmaxCase("declared"), "*estimatortest.softmaxCentroid declares Output decision_values, and the case states probabilities"},
	} {
		if errs := strings.Join(record(t, c.c), "\n"); !strings.Contains(errs, c.want) {
			t.Errorf("%s: Check's failures do not say %q:\n%s", c.name, c.want, errs)
		}
	}
	c := centroidCase("")
	c.Output = Probabilities
	if errs := strings.Join(record(t, c), "\n"); !strings.Contains(errs, "not distributions") {
		t.Errorf("scores −distance² checked as probabilities pass:\n%s", errs)
	}
}
