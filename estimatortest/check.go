package estimatortest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Case is one model kind under test.
type Case[X, Q any] struct {
	// Name names the case in test output: the model's kind, e.g.
	// "labelprop.Spreading".
	Name string
	// New returns a fresh, unfitted model with valid hyperparameters
	// (small ones: the checks fit it several times).
	New func() estimator.Estimator
	// Invalid maps the name of a hyperparameter field to a function that
	// returns a model whose only invalid hyperparameter is that field.
	// Validate's error must name the field.
	Invalid map[string]func() estimator.Estimator
	// X is the data to fit on, with Labels (a classifier's, −1 for
	// unknown) or Targets (a regressor's, NaN for unknown); transformers
	// and clusterers take neither.
	X       X
	Labels  []int
	Targets []float64
	// Query names items to predict that were not fitted, QueryRows of
	// them.
	Query     Q
	QueryRows int
	// FittedRows is the number of items the zero query names (the fitted
	// items), or 0 when the model does not predict them from the zero
	// query.
	FittedRows int
	// Columns is the number of columns of a classifier's scores or a
	// transformer's rows (0: not checked).
	Columns int
	// Output states what a classifier's Predict returns: Probabilities
	// (every row a distribution) or DecisionValues. A classifier's case
	// must state it, and it must agree with the model's declaration
	// (estimator.OutputDeclarer) and its documentation of Predict (which
	// promises "class probabilities" or does not). Other roles leave it
	// Unstated.
	Output Output
	// SumTol is how far from 1 a row of probabilities may sum (0:
	// DefaultSumTol); a model that stores its probabilities in float32
	// states its float32 rounding.
	SumTol float64
}

// T is what Check needs of a test: *testing.T through Wrap, or a recorder
// in this package's own tests.
type T interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Run(name string, f func(T)) bool
	Name() string
	TempDir() string
}

type wrapped struct{ *testing.T }

func (w wrapped) Run(name string, f func(T)) bool {
	return w.T.Run(name, func(t *testing.T) { f(wrapped{t}) })
}

// Wrap adapts a *testing.T to T.
func Wrap(t *testing.T) T { return wrapped{t} }

// childEnv names the environment variables of the process that reads a
// saved model back: the case, the model file and the file of predictions.
const (
	childCase  = "GSSL_ESTIMATORTEST_CASE"
	childModel = "GSSL_ESTIMATORTEST_MODEL"
	childOut   = "GSSL_ESTIMATORTEST_OUT"
)

// Check runs the contract's checks on c as subtests of t. The test that
// calls Check is re-run in a child process (the same test binary, the
// same top-level test) to read a saved model back; in that child, Check
// does nothing but read the model and write its predictions.
func Check[X, Q any](t *testing.T, c Case[X, Q]) {
	t.Helper()
	if name := os.Getenv(childCase); name != "" {
		if name == c.Name {
			if err := child(c); err != nil {
				t.Fatalf("%s: the child process: %v", c.Name, err)
			}
		}
		return
	}
	CheckT(Wrap(t), c, true)
}

// CheckT is Check on any T; newProcess says whether to read the saved model
// back in a new process (false: in this one).
func CheckT[X, Q any](t T, c Case[X, Q], newProcess bool) {
	t.Helper()
	t.Run(c.Name, func(t T) {
		r, err := roleOf(c)
		if err != nil {
			t.Fatalf("%v", err)
		}
		t.Run("validate", func(t T) { checkValidate(t, c) })
		t.Run("not fitted", func(t T) { checkNotFitted(t, c, r) })
		var fitted estimator.Estimator
		t.Run("fit and predict", func(t T) { fitted = checkFit(t, c, r) })
		if fitted == nil {
			return
		}
		t.Run("probabilities", func(t T) { checkProbabilities(t, c, r, fitted) })
		t.Run("deterministic", func(t T) { checkDeterministic(t, c, r, fitted) })
		t.Run("clone", func(t T) { checkClone(t, c, r, fitted) })
		t.Run("save and load", func(t T) { checkSave(t, c, r, fitted, newProcess) })
		t.Run("cancel", func(t T) { checkCancel(t, c, r) })
	})
}

// role is a model's fit and predict, whatever its role.
type role[X, Q any] struct {
	name    string
	fit     func(ctx context.Context, m estimator.Estimator) error
	predict func(ctx context.Context, m estimator.Estimator, q Q) (rows, cols int, values []float64, err error)
}

func roleOf[X, Q any](c Case[X, Q]) (role[X, Q], error) {
	m := c.New()
	switch m.(type) {
	case estimator.Classifier[X, Q]:
		return role[X, Q]{
			name: "classifier",
			fit: func(ctx context.Context, m estimator.Estimator) error {
				return m.(estimator.Classifier[X, Q]).Fit(ctx, c.X, c.Labels)
			},
			predict: func(ctx context.Context, m estimator.Estimator, q Q) (int, int, []float64, error) {
				return dense(m.(estimator.Classifier[X, Q]).Predict(ctx, q))
			},
		}, nil
	case estimator.Regressor[X, Q]:
		return role[X, Q]{
			name: "regressor",
			fit: func(ctx context.Context, m estimator.Estimator) error {
				return m.(estimator.Regressor[X, Q]).Fit(ctx, c.X, c.Targets)
			},
			predict: func(ctx context.Context, m estimator.Estimator, q Q) (int, int, []float64, error) {
				p, err := m.(estimator.Regressor[X, Q]).Predict(ctx, q)
				if err != nil {
					return 0, 0, nil, err
				}
				if p.Variance != nil && len(p.Variance) != len(p.Mean) {
					return 0, 0, nil, fmt.Errorf("%d variances for %d means", len(p.Variance), len(p.Mean))
				}
				cols := 1
				if p.Variance != nil {
					cols = 2
				}
				return len(p.Mean), cols, append(append([]float64(nil), p.Mean...), p.Variance...), nil
			},
		}, nil
	case estimator.Transformer[X, Q]:
		return role[X, Q]{
			name: "transformer",
			fit: func(ctx context.Context, m estimator.Estimator) error {
				return m.(estimator.Transformer[X, Q]).Fit(ctx, c.X)
			},
			predict: func(ctx context.Context, m estimator.Estimator, q Q) (int, int, []float64, error) {
				return dense(m.(estimator.Transformer[X, Q]).Transform(ctx, q))
			},
		}, nil
	case estimator.Clusterer[X, Q]:
		return role[X, Q]{
			name: "clusterer",
			fit: func(ctx context.Context, m estimator.Estimator) error {
				return m.(estimator.Clusterer[X, Q]).Fit(ctx, c.X)
			},
			predict: func(ctx context.Context, m estimator.Estimator, q Q) (int, int, []float64, error) {
				a, err := m.(estimator.Clusterer[X, Q]).Predict(ctx, q)
				if err != nil {
					return 0, 0, nil, err
				}
				v := make([]float64, len(a))
				for i, k := range a {
					v[i] = float64(k)
				}
				return len(a), 1, v, nil
			},
		}, nil
	}
	var x X
	var q Q
	return role[X, Q]{}, fmt.Errorf("%s (%T) implements no role over items %T and queries %T: not a Classifier, Regressor, Transformer or Clusterer", c.Name, m, x, q)
}

func dense(d *mat.Dense, err error) (int, int, []float64, error) {
	if err != nil {
		return 0, 0, nil, err
	}
	if d == nil {
		return 0, 0, nil, errors.New("a nil matrix and no error")
	}
	r, cols := d.Dims()
	v := make([]float64, 0, r*cols)
	for i := 0; i < r; i++ {
		for j := 0; j < cols; j++ {
			v = append(v, d.At(i, j))
		}
	}
	return r, cols, v, nil
}

func checkValidate[X, Q any](t T, c Case[X, Q]) {
	if err := c.New().Validate(); err != nil {
		t.Fatalf("Validate of the case's model: %v", err)
	}
	if len(c.Invalid) == 0 && hasHyperparameters(c.New()) {
		t.Errorf("the case lists no invalid hyperparameter, and %T has hyperparameters to check", c.New())
	}
	for field, bad := range c.Invalid {
		m := bad()
		err := m.Validate()
		if err == nil {
			t.Errorf("Validate accepts the invalid %s", field)
			continue
		}
		if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(field)) {
			t.Errorf("Validate's error for an invalid %s does not name the field: %v", field, err)
		}
	}
}

func checkNotFitted[X, Q any](t T, c Case[X, Q], r role[X, Q]) {
	ctx := context.Background()
	var zero Q
	for _, q := range []struct {
		name string
		q    Q
		use  bool
	}{{"the query", c.Query, c.QueryRows > 0}, {"the fitted items", zero, c.FittedRows > 0}} {
		if !q.use {
			continue
		}
		_, _, _, err := r.predict(ctx, c.New(), q.q)
		if !errors.Is(err, estimator.ErrNotFitted) {
			t.Errorf("predicting %s before Fit: want an error wrapping ErrNotFitted, got %v", q.name, err)
		}
	}
	if s, ok := c.New().(estimator.Saver); ok {
		if _, err := s.MarshalBinary(); err == nil {
			t.Errorf("MarshalBinary of an unfitted model succeeds")
		}
	}
}

func checkFit[X, Q any](t T, c Case[X, Q], r role[X, Q]) estimator.Estimator {
	m := c.New()
	before := exported(m)
	if err := r.fit(context.Background(), m); err != nil {
		t.Fatalf("Fit: %v", err)
	}
	if after := exported(m); !reflect.DeepEqual(before, after) {
		t.Errorf("Fit rewrote hyperparameters: %s", diff(before, after))
	}
	var zero Q
	checkShape(t, c, r, m, c.Query, c.QueryRows, "the query")
	checkShape(t, c, r, m, zero, c.FittedRows, "the fitted items")
	return m
}

func checkShape[X, Q any](t T, c Case[X, Q], r role[X, Q], m estimator.Estimator, q Q, want int, what string) {
	if want == 0 {
		return
	}
	rows, cols, v, err := r.predict(context.Background(), m, q)
	if err != nil {
		t.Errorf("predicting %s: %v", what, err)
		return
	}
	if rows != want {
		t.Errorf("predicting %s: %d rows, want %d", what, rows, want)
	}
	if c.Columns > 0 && r.name != "regressor" && r.name != "clusterer" && cols != c.Columns {
		t.Errorf("predicting %s: %d columns, want %d", what, cols, c.Columns)
	}
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Errorf("predicting %s: value %d is %v", what, i, x)
			break
		}
	}
}

func predictAll[X, Q any](c Case[X, Q], r role[X, Q], m estimator.Estimator) ([]float64, error) {
	var out []float64
	var zero Q
	if c.QueryRows > 0 {
		_, _, v, err := r.predict(context.Background(), m, c.Query)
		if err != nil {
			return nil, fmt.Errorf("the query: %w", err)
		}
		out = append(out, v...)
	}
	if c.FittedRows > 0 {
		_, _, v, err := r.predict(context.Background(), m, zero)
		if err != nil {
			return nil, fmt.Errorf("the fitted items: %w", err)
		}
		out = append(out, v...)
	}
	return out, nil
}

func checkDeterministic[X, Q any](t T, c Case[X, Q], r role[X, Q], fitted estimator.Estimator) {
	want, err := predictAll(c, r, fitted)
	if err != nil {
		t.Fatalf("%v", err)
	}
	again := c.New()
	if err := r.fit(context.Background(), again); err != nil {
		t.Fatalf("second Fit: %v", err)
	}
	got, err := predictAll(c, r, again)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if i := firstDiff(want, got); i >= 0 {
		t.Errorf("two fits of the same model differ at value %d: %v and %v", i, want[i], got[i])
	}
}

func checkClone[X, Q any](t T, c Case[X, Q], r role[X, Q], fitted estimator.Estimator) {
	method := reflect.ValueOf(fitted).MethodByName("Clone")
	if !method.IsValid() || method.Type().NumIn() != 0 || method.Type().NumOut() != 1 {
		t.Fatalf("%T has no Clone() method returning one value", fitted)
	}
	clone, ok := method.Call(nil)[0].Interface().(estimator.Estimator)
	if !ok || reflect.TypeOf(clone) != reflect.TypeOf(fitted) {
		t.Fatalf("Clone of %T returns %T", fitted, clone)
	}
	if reflect.ValueOf(clone).Pointer() == reflect.ValueOf(fitted).Pointer() {
		t.Fatalf("Clone returns the model itself")
	}
	if a, b := exported(fitted), exported(clone); !reflect.DeepEqual(a, b) {
		t.Errorf("Clone does not keep every hyperparameter: %s", diff(a, b))
	}
	var zero Q
	q, use := c.Query, c.QueryRows > 0
	if !use {
		q = zero
	}
	if _, _, _, err := r.predict(context.Background(), clone, q); !errors.Is(err, estimator.ErrNotFitted) {
		t.Errorf("a clone of a fitted model is fitted: predicting gives %v, want ErrNotFitted", err)
	}
	if err := r.fit(context.Background(), clone); err != nil {
		t.Fatalf("Fit of the clone: %v", err)
	}
	want, err := predictAll(c, r, fitted)
	if err != nil {
		t.Fatalf("%v", err)
	}
	got, err := predictAll(c, r, clone)
	if err != nil {
		t.Fatalf("the clone: %v", err)
	}
	if i := firstDiff(want, got); i >= 0 {
		t.Errorf("the fitted clone predicts differently at value %d: %v, the model %v", i, got[i], want[i])
	}
}

func checkSave[X, Q any](t T, c Case[X, Q], r role[X, Q], fitted estimator.Estimator, newProcess bool) {
	s, ok := fitted.(estimator.Saver)
	if !ok {
		// A model that is not a Saver must say so when encoded.
		if m, ok := fitted.(interface{ MarshalBinary() ([]byte, error) }); ok {
			if _, err := m.MarshalBinary(); err == nil {
				t.Errorf("%T encodes without being a Saver (no Kind)", fitted)
			}
		}
		return
	}
	if s.Kind() != c.Name {
		t.Errorf("Kind() = %q, the case is %q", s.Kind(), c.Name)
	}
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	want, err := predictAll(c, r, fitted)
	if err != nil {
		t.Fatalf("%v", err)
	}
	var got []float64
	if newProcess {
		got, err = inChild(t, c.Name, data)
	} else {
		got, err = load(c, r, data)
	}
	if err != nil {
		t.Fatalf("reading the model back: %v", err)
	}
	if len(got) != len(want) {
		t.Fatalf("read back, the model predicts %d values, before %d", len(got), len(want))
	}
	if i := firstDiff(want, got); i >= 0 {
		t.Errorf("read back, the model predicts differently at value %d: %v, before %v", i, got[i], want[i])
	}
}

func load[X, Q any](c Case[X, Q], r role[X, Q], data []byte) ([]float64, error) {
	m := c.New()
	s, ok := m.(estimator.Saver)
	if !ok {
		return nil, fmt.Errorf("%T is not a Saver", m)
	}
	if err := s.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("UnmarshalBinary: %w", err)
	}
	return predictAll(c, r, m)
}

// inChild re-runs the current top-level test in a new process that reads
// the model from a file and writes its predictions to another.
func inChild(t T, name string, data []byte) ([]float64, error) {
	dir := t.TempDir()
	model, out := filepath.Join(dir, "model.gssl"), filepath.Join(dir, "predictions")
	if err := os.WriteFile(model, data, 0o644); err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	cmd := exec.Command(exe, "-test.run=^"+top+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), childCase+"="+name, childModel+"="+model, childOut+"="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("the child process: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		return nil, fmt.Errorf("the child process wrote no predictions: %w", err)
	}
	return decode(b)
}

func child[X, Q any](c Case[X, Q]) error {
	r, err := roleOf(c)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(os.Getenv(childModel))
	if err != nil {
		return err
	}
	v, err := load(c, r, data)
	if err != nil {
		return err
	}
	return os.WriteFile(os.Getenv(childOut), encode(v), 0o644)
}

func encode(v []float64) []byte {
	var b strings.Builder
	for _, x := range v {
		fmt.Fprintf(&b, "%016x\n", math.Float64bits(x))
	}
	return []byte(b.String())
}

func decode(b []byte) ([]float64, error) {
	var v []float64
	for _, line := range strings.Fields(string(b)) {
		var bits uint64
		if _, err := fmt.Sscanf(line, "%x", &bits); err != nil {
			return nil, err
		}
		v = append(v, math.Float64frombits(bits))
	}
	return v, nil
}

func checkCancel[X, Q any](t T, c Case[X, Q], r role[X, Q]) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := r.fit(ctx, c.New())
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Fit under a cancelled context: want an error wrapping context.Canceled, got %v", err)
	}
}

// hasHyperparameters says whether m has an exported field other than a
// callback (a function: progress reporting is not a hyperparameter).
func hasHyperparameters(m any) bool {
	for _, v := range exported(m) {
		if _, isFunc := v.(bool); !isFunc {
			return true
		}
	}
	return false
}

// exported returns the exported fields of the struct m points to, with
// functions reduced to whether they are set (funcs do not compare) and the
// exported fields of an embedded struct promoted, as Go promotes them (its
// unexported fields are learned state).
func exported(m any) map[string]any {
	v := reflect.ValueOf(m)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	out := map[string]any{}
	if v.Kind() != reflect.Struct {
		return out
	}
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		if f.Anonymous && fv.Kind() == reflect.Struct {
			for k, e := range exported(fv.Addr().Interface()) {
				out[f.Name+"."+k] = e
			}
			continue
		}
		switch fv.Kind() {
		case reflect.Func, reflect.Chan:
			out[f.Name] = !fv.IsNil()
		default:
			out[f.Name] = fv.Interface()
		}
	}
	return out
}

func diff(a, b map[string]any) string {
	var s []string
	for k, va := range a {
		if vb := b[k]; !reflect.DeepEqual(va, vb) {
			s = append(s, fmt.Sprintf("%s: %v, then %v", k, va, vb))
		}
	}
	return strings.Join(s, "; ")
}

// firstDiff returns the first index where a and b differ bitwise, or −1.
func firstDiff(a, b []float64) int {
	for i := range a {
		if i >= len(b) || math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	if len(b) > len(a) {
		return len(a)
	}
	return -1
}
