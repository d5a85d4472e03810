package logreg

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/gssl/gssl/estimator"
)

const (
	// DefaultL2 is the penalty λ when Classifier.L2 is zero.
	DefaultL2 = 1e-3
	// DefaultMaxIter is the cap on L-BFGS iterations when MaxIter is zero.
	DefaultMaxIter = 1000
	// DefaultGradTol is the gradient threshold (infinity norm) when GradTol
	// is zero.
	DefaultGradTol = 1e-6
	// DefaultMemory is the number of L-BFGS correction pairs when Memory is
	// zero. The fits of SGC's designs (Cora, chameleon, squirrel, actor)
	// end in 37 to 49 iterations, so 50 pairs keep every step: they take
	// 39 to 50 evaluations of J and ∇J where gonum's default of 15 pairs
	// took 50 to 90, at the same tolerance.
	DefaultMemory = 50
)

// ErrNotFitted (estimator.ErrNotFitted) is returned, wrapped, by the
// prediction methods of a Classifier that has not been fitted.
var ErrNotFitted = estimator.ErrNotFitted

// Classifier is L2-regularised softmax regression. Set the exported fields,
// then call Fit; Fit never changes them.
type Classifier struct {
	// L2 is the penalty λ on ‖W‖²/2; 0 means DefaultL2. It must be ≥ 0; a
	// negative value means exactly 0 (no penalty: the minimum may not exist
	// on separable data, and MaxIter ends the fit).
	L2 float64
	// Classes is the number of classes c; 0 means 1 + the largest label.
	Classes int
	// MaxIter caps the L-BFGS iterations; 0 means DefaultMaxIter.
	MaxIter int
	// GradTol stops the fit when ‖∇J‖_∞ falls below it; 0 means
	// DefaultGradTol.
	GradTol float64
	// Memory is the number of correction pairs L-BFGS keeps (its Store);
	// 0 means DefaultMemory. It must be ≥ 0. Each pair holds two vectors
	// of the (d+1)·c coefficients.
	Memory int
	// Primal, when true, always fits W directly instead of in the row space
	// of X when d > m (the same optimum; the primal path is the reference).
	Primal bool
	// Precondition, when true, runs L-BFGS on the coefficients scaled by
	// the square roots of a bound on the diagonal of J's Hessian (Jacobi
	// preconditioning, doc.go): the same optimum and stopping rule on ∇J,
	// in fewer iterations when the columns of X differ in scale, as the
	// orthogonal columns of a row-space design do. It applies to dense and
	// sparse designs.
	Precondition bool
	// Start, when set, is a fitted classifier on designs of the same width
	// and classes whose coefficients start L-BFGS (a warm start, e.g. the
	// fit at the next larger penalty along a path); nil starts from zero.
	// The optimum does not depend on it, only the iterations.
	Start *Classifier

	fit *fitted
}

var _ estimator.PointClassifier = (*Classifier)(nil)

type fitted struct {
	w       *mat.Dense // d×c
	b       []float64
	info    estimator.Info
	details Details
	d, c    int
}

// Details are the L-BFGS statistics of a fit beyond estimator.Info.
type Details struct {
	Objective float64 // J at the solution
	GradNorm  float64 // ‖∇J‖_∞ at the solution
	Status    string  // gonum's termination status
}

// Clone returns an unfitted copy with the same hyperparameters.
func (m *Classifier) Clone() *Classifier {
	c := *m
	c.fit = nil
	return &c
}

func (m *Classifier) l2() float64 {
	switch {
	case m.L2 == 0:
		return DefaultL2
	case m.L2 < 0:
		return 0
	}
	return m.L2
}

func (m *Classifier) memory() int {
	if m.Memory == 0 {
		return DefaultMemory
	}
	return m.Memory
}

// Validate checks the hyperparameters.
func (m *Classifier) Validate() error {
	if math.IsNaN(m.L2) || math.IsInf(m.L2, 0) {
		return fmt.Errorf("logreg: L2=%v is invalid: it must be finite", m.L2)
	}
	if m.Classes < 0 {
		return fmt.Errorf("logreg: Classes=%d is invalid: it must be ≥ 0 (0 means 1 + the largest label)", m.Classes)
	}
	if m.MaxIter < 0 {
		return fmt.Errorf("logreg: MaxIter=%d is invalid: it must be ≥ 0 (0 means %d)", m.MaxIter, DefaultMaxIter)
	}
	if m.Memory < 0 {
		return fmt.Errorf("logreg: Memory=%d is invalid: it must be ≥ 0 (0 means %d)", m.Memory, DefaultMemory)
	}
	if !(m.GradTol >= 0) || math.IsInf(m.GradTol, 0) {
		return fmt.Errorf("logreg: GradTol=%v is invalid: it must be finite and ≥ 0 (0 means %g)", m.GradTol, DefaultGradTol)
	}
	return nil
}

// Fit fits the classifier to the rows of x whose label is ≥ 0 (labels has
// one entry per row of x; −1 marks a row to ignore): the role's front
// door, FitDesign on Dense{x}.
func (m *Classifier) Fit(ctx context.Context, x *mat.Dense, labels []int) error {
	if x == nil {
		return fmt.Errorf("logreg: the design matrix x is nil")
	}
	return m.FitDesign(ctx, Dense{X: x}, labels)
}

// FitDesign fits the classifier to the rows of a dense or sparse design
// whose label is ≥ 0 (labels has one entry per row of x; −1 marks a row to
// ignore). It needs at least one labelled row; a class without rows gets
// its intercept driven down, not an error. If the iteration cap is reached
// the fit is kept and an *estimator.NotConvergedError returned.
func (m *Classifier) FitDesign(ctx context.Context, x Design, labels []int) error {
	if err := m.Validate(); err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	m.fit = nil
	rows, d := x.Dims()
	if len(labels) != rows {
		return fmt.Errorf("logreg: %d labels for %d rows: give one per row, −1 for a row to ignore", len(labels), rows)
	}
	c := m.Classes
	var idx []int
	for i, l := range labels {
		if l >= 0 {
			idx = append(idx, i)
			if m.Classes == 0 && l+1 > c {
				c = l + 1
			}
			if m.Classes > 0 && l >= m.Classes {
				return fmt.Errorf("logreg: label %d of row %d is outside [0, %d)", l, i, m.Classes)
			}
		} else if l != -1 {
			return fmt.Errorf("logreg: label %d of row %d is invalid: a class is ≥ 0, and −1 marks a row to ignore", l, i)
		}
	}
	if len(idx) == 0 {
		return fmt.Errorf("logreg: no labelled rows")
	}
	if c < 2 {
		c = 2
	}
	var sub Design = x
	if len(idx) != rows {
		sub = rowsOf(x, idx)
	}
	y := make([]int, len(idx))
	for k, i := range idx {
		y[k] = labels[i]
	}
	f, err := m.solve(ctx, sub, y, c)
	if f != nil {
		f.d, f.c = d, c
		m.fit = f
	}
	return err
}

// rowsOf restricts a design to rows.
func rowsOf(x Design, idx []int) Design {
	switch x := x.(type) {
	case Sparse:
		r := make([]int, len(idx))
		for k, i := range idx {
			r[k] = x.row(i)
		}
		return Sparse{X: x.X, Rows: r}
	case Dense:
		_, d := x.Dims()
		sub := mat.NewDense(len(idx), d, nil)
		for k, i := range idx {
			copy(sub.RawRowView(k), x.X.RawRowView(i))
		}
		return Dense{sub}
	}
	// Any other design: through a dense copy of the rows, by products with
	// the unit columns of Xᵀ.
	m, d := x.Dims()
	e := mat.NewDense(m, len(idx), nil)
	for k, i := range idx {
		e.Set(i, k, 1)
	}
	t := mat.NewDense(d, len(idx), nil)
	x.TMulTo(t, e)
	return Dense{mat.DenseCopyOf(t.T())}
}

// solve minimises J on the labelled design (rows with classes y).
func (m *Classifier) solve(ctx context.Context, x Design, y []int, c int) (*fitted, error) {
	rows, d := x.Dims()
	lambda := m.l2()
	reduce := !m.Primal && d > rows && lambda > 0
	var z Design = x
	var basis *mat.Dense // U Λ^{-1/2} (m×r): W = Xᵀ·basis·A
	if reduce {
		var err error
		var zd *mat.Dense
		zd, basis, err = RowSpace(x)
		if err != nil {
			return nil, err
		}
		z = Dense{zd}
	}
	_, dz := z.Dims()
	on := z
	if zd, ok := z.(Dense); ok {
		on = newPacked(zd)
	}
	obj := newObjective(on, y, c, lambda)
	x0 := make([]float64, (dz+1)*c)
	if m.Start != nil {
		if err := m.startAt(x0, x, basis, c); err != nil {
			return nil, err
		}
	}
	var pre *jacobi
	if m.Precondition {
		pre = newJacobi(z, c, lambda)
	}
	res, err := m.minimize(ctx, obj, pre, x0)
	if res == nil {
		return nil, fmt.Errorf("logreg: L-BFGS: %w", err)
	}
	theta := res.X
	if pre != nil {
		theta = pre.fromScaled(nil, theta)
	}
	w := mat.NewDense(dz, c, theta[:dz*c])
	if reduce {
		// W = Xᵀ·(basis·A).
		var ba mat.Dense
		ba.Mul(basis, w)
		wf := mat.NewDense(d, c, nil)
		x.TMulTo(wf, &ba)
		w = wf
	} else {
		w = mat.DenseCopyOf(w)
	}
	return m.result(ctx, obj, res, theta, w)
}

// minimize runs L-BFGS on J from x0 (on the scaled coefficients when pre
// is set, x0 then scaled in place), stopping at ‖∇_θ J‖_∞ < GradTol or
// MaxIter iterations.
func (m *Classifier) minimize(ctx context.Context, obj *objective, pre *jacobi, x0 []float64) (*optimize.Result, error) {
	maxIter := m.MaxIter
	if maxIter == 0 {
		maxIter = DefaultMaxIter
	}
	value, grad := obj.value, obj.grad
	if pre != nil {
		value, grad = pre.value(obj), pre.grad(obj)
		pre.toScaled(x0)
	}
	p := optimize.Problem{
		Func: value,
		Grad: grad,
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		GradientThreshold: m.gradTol(),
		MajorIterations:   maxIter,
		Converger:         optimize.NeverTerminate{},
	}
	if pre != nil {
		settings.Converger = gradientRule{p: pre, tol: m.gradTol()}
	}
	return optimize.Minimize(p, x0, settings, &optimize.LBFGS{Store: m.memory()})
}

func (m *Classifier) gradTol() float64 {
	if m.GradTol == 0 {
		return DefaultGradTol
	}
	return m.GradTol
}

// result returns the fit at theta (the coefficients θ = [W, b] of obj's
// design, W the classifier's d×c weights) with its statistics, and the
// error of a fit that ran out of iterations or was cancelled.
func (m *Classifier) result(ctx context.Context, obj *objective, res *optimize.Result, theta []float64, w *mat.Dense) (*fitted, error) {
	g := make([]float64, len(theta))
	fval := obj.value(theta)
	obj.grad(g, theta)
	gn := 0.0
	for _, v := range g {
		gn = math.Max(gn, math.Abs(v))
	}
	f := &fitted{
		w:       w,
		b:       append([]float64(nil), theta[obj.d*obj.c:]...),
		info:    estimator.Info{Iterations: res.MajorIterations, Residual: gn, Products: res.FuncEvaluations},
		details: Details{Objective: fval, GradNorm: gn, Status: res.Status.String()},
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return f, fmt.Errorf("logreg: fit stopped after %d iterations: %w", res.MajorIterations, ctxErr)
	}
	gtol := m.gradTol()
	if gn > gtol && res.Status != optimize.GradientThreshold {
		// Line-search failures near the optimum leave a tiny gradient;
		// report only a real shortfall.
		if gn > 100*gtol || res.Status == optimize.IterationLimit {
			return f, &estimator.NotConvergedError{Model: "logreg", Method: "L-BFGS (" + res.Status.String() + ")", Iterations: res.MajorIterations,
				Residual: gn, Tol: gtol, Hint: "the residual is ‖∇J‖_∞; raise MaxIter or GradTol"}
		}
	}
	return f, nil
}

// startAt writes the coefficients of m.Start into x0 ([W row-major, b] in
// the coordinates fitted: on the row-space design, A = Bᵀ·X·W, whose
// classifier Xᵀ·B·A is W projected on the row space of X, with the same
// logits).
func (m *Classifier) startAt(x0 []float64, x Design, basis *mat.Dense, c int) error {
	s, err := m.Start.fitted()
	if err != nil {
		return fmt.Errorf("logreg: the warm start: %w", err)
	}
	rows, d := x.Dims()
	if s.d != d || s.c != c {
		return fmt.Errorf("logreg: the warm start was fitted on %d columns and %d classes, the design has %d columns and %d classes", s.d, s.c, d, c)
	}
	w := s.w
	if basis != nil {
		xw := mat.NewDense(rows, c, nil)
		x.MulTo(xw, s.w)
		var a mat.Dense
		a.Mul(basis.T(), xw)
		w = &a
	}
	r, _ := w.Dims()
	for i := 0; i < r; i++ {
		copy(x0[i*c:(i+1)*c], w.RawRowView(i))
	}
	copy(x0[r*c:], s.b)
	return nil
}

// RowSpace returns the design Z = UΛ^{1/2} (m×r) of the row space of X and
// the basis B = UΛ^{-1/2} (m×r), from XXᵀ = UΛUᵀ with eigenvalues below
// 1e-12·λ_max dropped (doc.go): a classifier fitted on Z with coefficients
// A (r×c) is the classifier W = Xᵀ·B·A on X, at the same penalty. Fit uses
// it when d > m; callers fitting one design at several penalties can
// compute it once.
func RowSpace(x Design) (z, basis *mat.Dense, err error) {
	gram := x.Gram()
	var es mat.EigenSym
	if !es.Factorize(gram, true) {
		return nil, nil, fmt.Errorf("logreg: eigendecomposition of the Gram matrix failed")
	}
	vals := es.Values(nil)
	var u mat.Dense
	es.VectorsTo(&u)
	m := len(vals)
	top := vals[m-1]
	var keep []int
	for j, v := range vals {
		if v > 1e-12*top && v > 0 {
			keep = append(keep, j)
		}
	}
	if len(keep) == 0 {
		keep = []int{m - 1} // X = 0: any direction, a zero column of Z
	}
	z = mat.NewDense(m, len(keep), nil)
	basis = mat.NewDense(m, len(keep), nil)
	for k, j := range keep {
		s := math.Sqrt(math.Max(vals[j], 0))
		for i := 0; i < m; i++ {
			uij := u.At(i, j)
			z.Set(i, k, uij*s)
			if s > 0 {
				basis.Set(i, k, uij/s)
			}
		}
	}
	return z, basis, nil
}

func (m *Classifier) fitted() (*fitted, error) {
	if m.fit == nil {
		return nil, estimator.NotFitted("logreg")
	}
	return m.fit, nil
}

// Info describes the last fit: Iterations are L-BFGS's major iterations,
// Residual the final ‖∇J‖_∞ (what its stopping rule tests), Products its
// evaluations of J and ∇J. It is zero before Fit.
func (m *Classifier) Info() estimator.Info {
	if m.fit == nil {
		return estimator.Info{}
	}
	return m.fit.info
}

// Details returns the L-BFGS statistics of the last fit (zero before Fit).
func (m *Classifier) Details() Details {
	if m.fit == nil {
		return Details{}
	}
	return m.fit.details
}

// Coefficients returns copies of W (d×c) and b (c).
func (m *Classifier) Coefficients() (*mat.Dense, []float64, error) {
	f, err := m.fitted()
	if err != nil {
		return nil, nil, err
	}
	return mat.DenseCopyOf(f.w), append([]float64(nil), f.b...), nil
}

// Logits returns XW + 1bᵀ for the rows of x.
func (m *Classifier) Logits(x Design) (*mat.Dense, error) {
	f, err := m.fitted()
	if err != nil {
		return nil, err
	}
	rows, d := x.Dims()
	if d != f.d {
		return nil, fmt.Errorf("logreg: design has %d columns, the classifier was fitted on %d", d, f.d)
	}
	z := mat.NewDense(rows, f.c, nil)
	x.MulTo(z, f.w)
	for i := 0; i < rows; i++ {
		row := z.RawRowView(i)
		for j := range row {
			row[j] += f.b[j]
		}
	}
	return z, nil
}

// Predict returns the class probabilities (the softmax of the logits) of
// the rows of q, one row per point and one column per class. logreg keeps
// no points: a nil q is an error.
func (m *Classifier) Predict(ctx context.Context, q *mat.Dense) (*mat.Dense, error) {
	if _, err := m.fitted(); err != nil {
		return nil, err
	}
	if q == nil {
		return nil, fmt.Errorf("logreg: Predict: the query is nil: logreg keeps no fitted points, give their rows")
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return m.Probabilities(Dense{X: q})
}

// Output declares that Predict returns class probabilities
// (estimator.OutputDeclarer).
func (m *Classifier) Output() estimator.Output { return estimator.Probabilities }

// Probabilities returns the softmax of the logits (rows×c) of a dense or
// sparse design: Predict on any Design.
func (m *Classifier) Probabilities(x Design) (*mat.Dense, error) {
	z, err := m.Logits(x)
	if err != nil {
		return nil, err
	}
	r, _ := z.Dims()
	for i := 0; i < r; i++ {
		Softmax(z.RawRowView(i))
	}
	return z, nil
}

// Softmax replaces the logits in row by their probabilities, stably
// (shifted by the maximum), and returns the log of the normaliser.
func Softmax(row []float64) float64 {
	mx := math.Inf(-1)
	for _, v := range row {
		mx = math.Max(mx, v)
	}
	var s float64
	for j, v := range row {
		e := math.Exp(v - mx)
		row[j] = e
		s += e
	}
	for j := range row {
		row[j] /= s
	}
	return mx + math.Log(s)
}
