package imgp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/knngraph"
)

// DistanceRule says how dist(x, M) in the blend weight γ(x) is measured.
type DistanceRule int

const (
	// NearestNode uses the distance to the nearest graph node (IMGP eq. 12
	// as written): γ = 1 exactly on the nodes. The zero value.
	NearestNode DistanceRule = iota
	// MeanNeighbour uses the mean distance to the K nearest nodes (the
	// paper's footnote 5 and ALGORITHMS.md §3): smoother, below 1 on nodes.
	MeanNeighbour
)

func (d DistanceRule) String() string {
	switch d {
	case NearestNode:
		return "nearest-node"
	case MeanNeighbour:
		return "mean-neighbour"
	}
	return fmt.Sprintf("DistanceRule(%d)", int(d))
}

// Regressor is implicit-manifold Gaussian-process regression (IMGP). Set the
// exported fields, then call Fit; Fit never changes them.
type Regressor struct {
	// K is the number of nearest neighbours of the graph; 0 means DefaultK.
	K int
	// Nu is the integer smoothness ν of the graph Matérn prior; 0 means
	// DefaultNu.
	Nu int
	// Eigenpairs is the number L of eigenpairs used for prediction; 0
	// means DefaultEigenpairs, or every one of a graph with fewer nodes.
	Eigenpairs int
	// Initial hyperparameters; a zero field means: Alpha the graph's
	// knngraph.DefaultAlpha, Kappa 10, Amplitude such that the prior
	// variance on the nodes (estimated from diag(P)) matches the mean square
	// of the labelled targets, Noise 1e-2.
	Initial Hyperparameters
	// Iterations of Adam on the log hyperparameters; 0 means
	// DefaultIterations; a negative value keeps the initial
	// hyperparameters.
	Iterations int
	// LearningRate of Adam; 0 means DefaultLearningRate.
	LearningRate float64
	// Probes is the number of Rademacher vectors per Hutchinson trace
	// estimate; 0 means DefaultProbes.
	Probes int
	// Seed of the probe vectors.
	Seed uint64
	// Tol is the relative residual of the conjugate-gradient solves; 0 means
	// DefaultTol.
	Tol float64
	// Eigensolver for the prediction eigenpairs; nil means Lanczos{} (sparse,
	// O(N·L) memory). DenseComponents{} is the explicit dense reference.
	Eigensolver Eigensolver
	// Euclidean is the Euclidean GP blended in away from the graph (and the
	// baseline); nil means gp.Regressor{} (Matérn 5/2, fitted by marginal
	// likelihood on the labelled points).
	Euclidean *gp.Regressor
	// Distance is the rule for dist(x, M) in γ(x).
	Distance DistanceRule
	// Graph, if not nil, is the KNN graph of the N input rows to use
	// instead of searching (e.g. shared between fits on the same points);
	// K is then its K.
	Graph *knngraph.Graph
	// MinNoise is the smallest σ_ε² training and the refit may reach; 0 means
	// 1e-5, the lower bound of scikit-learn's WhiteKernel (and of package gp).
	// With exact targets the likelihood keeps growing as σ_ε² → 0 while the
	// predictive variances off the graph become overconfident.
	MinNoise float64
	// Procedure says how the hyperparameters used for prediction are
	// chosen. The zero value, ProcedureRefit, refits κ, s and σ_ε² after
	// the eigenpairs are computed by maximising the exact marginal
	// likelihood of the rank-L model that predictions use (O(L³) per
	// evaluation, α kept); ProcedurePaper keeps the hyperparameters of the
	// full-rank GMRF likelihood, as the paper does.
	Procedure Procedure
	// Approximate, if not nil, builds the KNN graph by NN-descent with these
	// settings (knngraph.Approximate); nil means the exact search, whose
	// O(N²d) time dominates for large N.
	Approximate *knngraph.Descent
	// Scaling standardises the targets: Fit fits the model to
	// (y − Mean)/Scale and Predict returns the targets' units again. nil
	// means the mean and population standard deviation of the known targets
	// (Scale 1 when they are all equal); &Scaling{Mean: 0, Scale: 1} fits
	// the targets as they are. A protocol that knows more targets than the
	// labelled ones (a benchmark's whole training set) may set it from
	// them.
	Scaling *Scaling
	// Progress, if not nil, is called after each Adam step.
	Progress func(iteration int, h Hyperparameters, grad [4]float64)

	fit *fitted
}

// Scaling is an affine standardisation of regression targets:
// standardised = (y − Mean)/Scale.
type Scaling struct {
	Mean, Scale float64
}

// KnownScaling returns the mean and population standard deviation (ddof 0)
// of the known (non-NaN) targets, Scale 1 when they are all equal: what a
// nil Regressor.Scaling means. ok is false when no target is known.
func KnownScaling(y []float64) (s Scaling, ok bool) {
	var n int
	for _, v := range y {
		if !math.IsNaN(v) {
			s.Mean += v
			n++
		}
	}
	if n == 0 {
		return Scaling{}, false
	}
	s.Mean /= float64(n)
	for _, v := range y {
		if !math.IsNaN(v) {
			s.Scale += (v - s.Mean) * (v - s.Mean)
		}
	}
	s.Scale = math.Sqrt(s.Scale / float64(n))
	if !(s.Scale > 0) {
		s.Scale = 1
	}
	return s, true
}

// Clone returns an unfitted copy of r with the same settings (Euclidean,
// Graph, Eigensolver, Approximate and Scaling are shared pointers; Fit
// never changes them).
func (r *Regressor) Clone() *Regressor {
	c := *r
	c.fit = nil
	return &c
}

// fitted is the learned state.
type fitted struct {
	h        Hyperparameters
	nu, k    int
	x        *mat.Dense
	geo      *knngraph.Graph
	w        *knngraph.Weights
	eig      *Eigenpairs
	phiScale []float64 // √(s Φ(λ_l))
	mu       []float64 // posterior mean of the feature weights
	chol     mat.Cholesky
	sigma    *mat.SymDense // posterior covariance of the feature weights
	gmrfMean []float64     // full-rank posterior mean on the nodes
	eucl     *gp.Regressor
	scale    Scaling // of the targets; the model is fitted to (y − Mean)/Scale
	labelled []int
	y        []float64
	steps    int
	cgIters  int
	times    Timings
}

// Timings splits the time of Fit into its stages.
type Timings struct {
	Graph     time.Duration // KNN search and symmetrisation
	Train     time.Duration // Adam on the marginal likelihood
	Eigen     time.Duration // eigenpairs and the rank-L posterior
	Euclidean time.Duration // the Euclidean GP fit
}

// The defaults of the Regressor's fields, used when a field is 0.
// DefaultEigenpairs is capped at the number of points.
const (
	DefaultK            = 50
	DefaultNu           = 2
	DefaultEigenpairs   = 100
	DefaultIterations   = 100
	DefaultLearningRate = 0.05
	DefaultProbes       = 4
	DefaultTol          = 1e-6
	DefaultMinNoise     = 1e-5
)

func (r *Regressor) defaults() (k, nu, l, iters int, lr float64, probes int, tol float64) {
	k, nu, l, iters, lr, probes, tol = r.K, r.Nu, r.Eigenpairs, r.Iterations, r.LearningRate, r.Probes, r.Tol
	if k == 0 {
		k = DefaultK
	}
	if nu == 0 {
		nu = DefaultNu
	}
	if l == 0 {
		l = DefaultEigenpairs
	}
	if iters == 0 {
		iters = DefaultIterations
	}
	if lr == 0 {
		lr = DefaultLearningRate
	}
	if probes == 0 {
		probes = DefaultProbes
	}
	if tol == 0 {
		tol = DefaultTol
	}
	return
}

func (r *Regressor) minNoise() float64 {
	if r.MinNoise == 0 {
		return DefaultMinNoise
	}
	return r.MinNoise
}

// Validate reports a setting outside its valid range.
func (r *Regressor) Validate() error {
	if !(r.MinNoise >= 0) || math.IsInf(r.MinNoise, 0) {
		return fmt.Errorf("imgp: MinNoise = %v is invalid: it must be finite and ≥ 0 (0 means %v)", r.MinNoise, DefaultMinNoise)
	}
	if s := r.Scaling; s != nil && (math.IsNaN(s.Mean) || math.IsInf(s.Mean, 0) || !(s.Scale > 0) || math.IsInf(s.Scale, 0)) {
		return fmt.Errorf("imgp: Scaling = %+v is invalid: Mean must be finite and Scale finite and > 0 (nil means the known targets' mean and standard deviation)", *s)
	}
	switch {
	case r.K < 0:
		return fmt.Errorf("imgp: K = %d is invalid: it must be ≥ 1 (0 means %d)", r.K, DefaultK)
	case r.Nu < 0:
		return checkNu(r.Nu)
	case r.Eigenpairs < 0:
		return fmt.Errorf("imgp: Eigenpairs = %d is invalid: it must be ≥ 1 (0 means min(N, %d))", r.Eigenpairs, DefaultEigenpairs)
	case r.Probes < 0:
		return fmt.Errorf("imgp: Probes = %d is invalid: it must be ≥ 1 (0 means %d)", r.Probes, DefaultProbes)
	case !(r.LearningRate >= 0) || math.IsInf(r.LearningRate, 0):
		return fmt.Errorf("imgp: LearningRate = %v is invalid: it must be finite and > 0 (0 means %v)", r.LearningRate, DefaultLearningRate)
	case !(r.Tol >= 0 && r.Tol < 1):
		return fmt.Errorf("imgp: Tol = %v is invalid: it must be in (0, 1) (0 means %v)", r.Tol, DefaultTol)
	case r.Distance != NearestNode && r.Distance != MeanNeighbour:
		return fmt.Errorf("imgp: Distance = %d is invalid: use NearestNode or MeanNeighbour", int(r.Distance))
	case r.Procedure != ProcedureRefit && r.Procedure != ProcedurePaper:
		return fmt.Errorf("imgp: Procedure = %d is invalid: use ProcedureRefit or ProcedurePaper", int(r.Procedure))
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"Alpha", r.Initial.Alpha}, {"Kappa", r.Initial.Kappa}, {"Amplitude", r.Initial.Amplitude}, {"Noise", r.Initial.Noise}} {
		if !(p.v >= 0) || math.IsInf(p.v, 0) {
			return fmt.Errorf("imgp: Initial.%s = %v is invalid: it must be finite and > 0 (0 means the default)", p.name, p.v)
		}
	}
	if r.Euclidean != nil {
		if err := r.Euclidean.Validate(); err != nil {
			return fmt.Errorf("imgp: Euclidean: %w", err)
		}
	}
	return nil
}

// checkData validates the inputs of Fit.
func checkData(x *mat.Dense, labelled []int, y []float64, k int) error {
	if x == nil || x.IsEmpty() {
		return errors.New("imgp: no input points")
	}
	n, d := x.Dims()
	if k >= n {
		return fmt.Errorf("imgp: K = %d is invalid for %d points: it must be at most N − 1 = %d", k, n, n-1)
	}
	if len(labelled) == 0 {
		return errors.New("imgp: no labelled points: IMGP needs at least one labelled node")
	}
	if len(y) != len(labelled) {
		return fmt.Errorf("imgp: %d labelled indices but %d targets", len(labelled), len(y))
	}
	seen := make(map[int]int, len(labelled))
	for p, i := range labelled {
		if i < 0 || i >= n {
			return fmt.Errorf("imgp: labelled[%d] = %d is not a point index in [0, %d)", p, i, n)
		}
		if q, dup := seen[i]; dup {
			return fmt.Errorf("imgp: point %d is labelled twice (labelled[%d] and labelled[%d])", i, q, p)
		}
		seen[i] = p
	}
	for p, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("imgp: target %d (point %d) is %v; targets must be finite", p, labelled[p], v)
		}
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("imgp: point %d, coordinate %d is %v", i, j, v)
			}
		}
	}
	_ = d
	return nil
}

// FitIndexed is Fit with the points that have a target as an index list:
// y[k] is the target of row labelled[k] of x (distinct rows; every other
// row is unlabelled). It is the low-level entry point for callers that hold
// a split's index lists.
func (r *Regressor) FitIndexed(ctx context.Context, x *mat.Dense, labelled []int, y []float64) error {
	if err := r.Validate(); err != nil {
		return err
	}
	k, nu, l, iters, lr, nprobe, tol := r.defaults()
	if err := checkData(x, labelled, y, k); err != nil {
		return err
	}
	scale, _ := KnownScaling(y)
	if r.Scaling != nil {
		scale = *r.Scaling
	}
	if scale != (Scaling{Scale: 1}) {
		std := make([]float64, len(y))
		for i, v := range y {
			std[i] = (v - scale.Mean) / scale.Scale
		}
		y = std
	}
	n, _ := x.Dims()
	if r.Eigenpairs == 0 {
		l = min(l, n)
	}
	if l > n {
		return fmt.Errorf("imgp: Eigenpairs = %d is invalid for %d points: it must be at most N", l, n)
	}
	start := time.Now()
	geo := r.Graph
	if geo != nil {
		if geo.Dist2.Nodes() != n {
			return fmt.Errorf("imgp: Graph has %d nodes but there are %d input points", geo.Dist2.Nodes(), n)
		}
		k = geo.K
	} else {
		var err error
		if geo, err = BuildGraph(ctx, x, k, r.Approximate); err != nil {
			return err
		}
	}
	f := &fitted{nu: nu, k: k, x: mat.DenseCopyOf(x), geo: geo, scale: scale, labelled: append([]int(nil), labelled...)}
	f.times.Graph = time.Since(start)
	start = time.Now()
	pr := &gmrf{geo: geo, nu: nu, labelled: f.labelled, y: append([]float64(nil), y...), tol: tol}
	h, err := r.initial(geo, pr)
	if err != nil {
		return err
	}
	if iters > 0 {
		h, err = r.adam(ctx, pr, h, iters, lr, nprobe, f)
		if err != nil {
			return err
		}
	}
	f.h = h
	f.times.Train = time.Since(start)
	if err := r.finish(ctx, f, pr, l); err != nil {
		return err
	}
	r.fit = f
	return nil
}

// BuildGraph returns the symmetrised (or-rule) K-nearest-neighbour graph of
// the rows of x that Fit builds: exact search, or NN-descent with the given
// settings when approximate is not nil.
func BuildGraph(ctx context.Context, x *mat.Dense, k int, approximate *knngraph.Descent) (*knngraph.Graph, error) {
	var nb *knngraph.Neighbors
	var err error
	if approximate != nil {
		nb, err = knngraph.Approximate(ctx, x, k, approximate)
	} else {
		nb, err = knngraph.Exact(ctx, x, k, nil)
	}
	if err != nil {
		return nil, fmt.Errorf("imgp: KNN graph: %w", err)
	}
	geo, err := knngraph.NewGraph(nb, knngraph.Or)
	if err != nil {
		return nil, fmt.Errorf("imgp: KNN graph: %w", err)
	}
	return geo, nil
}

// initial fills the zero fields of Initial.
func (r *Regressor) initial(geo *knngraph.Graph, pr *gmrf) (Hyperparameters, error) {
	h := r.Initial
	if h.Alpha == 0 {
		h.Alpha = geo.DefaultAlpha()
	}
	if h.Kappa == 0 {
		h.Kappa = 10
	}
	if h.Noise == 0 {
		h.Noise = 1e-2
	}
	if h.Amplitude == 0 {
		w, err := geo.Weights(h.Alpha)
		if err != nil {
			return h, err
		}
		p := newPrecision(w.A, w.D, pr.nu, 2*float64(pr.nu)/(h.Kappa*h.Kappa), 1)
		// (P⁻¹)_ii ≥ 1/P_ii: the diagonal gives a lower bound on C.
		var c float64
		for _, v := range p.Diagonal() {
			c += 1 / v
		}
		c /= float64(p.Dim())
		var ms float64
		for _, v := range pr.y {
			ms += v * v
		}
		ms = math.Max(ms/float64(len(pr.y)), 1e-6)
		h.Amplitude = ms / c
	}
	return h, h.validate("Initial.")
}

// adam maximises log p(y) over the log hyperparameters.
func (r *Regressor) adam(ctx context.Context, pr *gmrf, h Hyperparameters, iters int, lr float64, nprobe int, f *fitted) (Hyperparameters, error) {
	rng := rand.New(rand.NewPCG(r.Seed, 0x1e7b5))
	n := pr.geo.Dist2.Nodes()
	u := []float64{math.Log(h.Alpha), math.Log(h.Kappa), math.Log(h.Amplitude), math.Log(h.Noise)}
	var m1, m2 [4]float64
	const b1, b2, eps = 0.9, 0.999, 1e-8
	probes := make([][]float64, nprobe)
	for i := range probes {
		probes[i] = make([]float64, n)
	}
	for it := 1; it <= iters; it++ {
		if err := ctx.Err(); err != nil {
			return h, err
		}
		for _, z := range probes {
			for i := range z {
				if rng.Uint64()&1 == 0 {
					z[i] = 1
				} else {
					z[i] = -1
				}
			}
		}
		res, err := pr.evaluate(ctx, h, probes)
		f.cgIters += res.Iterations
		if err != nil {
			return h, fmt.Errorf("imgp: Adam step %d: %w", it, err)
		}
		for p := 0; p < 4; p++ {
			g := -res.Grad[p] // minimise −log p
			m1[p] = b1*m1[p] + (1-b1)*g
			m2[p] = b2*m2[p] + (1-b2)*g*g
			mh := m1[p] / (1 - math.Pow(b1, float64(it)))
			vh := m2[p] / (1 - math.Pow(b2, float64(it)))
			u[p] -= lr * mh / (math.Sqrt(vh) + eps)
		}
		// Keep the noise above MinNoise: the likelihood
		// of exact data grows without bound as σ_ε² → 0.
		u[3] = math.Max(u[3], math.Log(r.minNoise()))
		h = Hyperparameters{Alpha: math.Exp(u[0]), Kappa: math.Exp(u[1]), Amplitude: math.Exp(u[2]), Noise: math.Exp(u[3])}
		f.steps = it
		f.gmrfMean = res.Mean
		if r.Progress != nil {
			r.Progress(it, h, res.Grad)
		}
	}
	return h, nil
}

// finish computes the eigenpairs, the rank-L posterior and the Euclidean GP.
func (r *Regressor) finish(ctx context.Context, f *fitted, pr *gmrf, l int) error {
	start := time.Now()
	var err error
	if f.w, err = f.geo.Weights(f.h.Alpha); err != nil {
		return err
	}
	solver := r.Eigensolver
	if solver == nil {
		solver = Lanczos{}
	}
	if f.eig, err = solver.Smallest(ctx, f.w, l); err != nil {
		return err
	}
	// Full-rank posterior mean at the fitted hyperparameters.
	st, err := pr.state(f.h, false)
	if err != nil {
		return err
	}
	b := make([]float64, st.p.Dim())
	for k, i := range pr.labelled {
		b[i] = pr.y[k] / f.h.Noise
	}
	if f.gmrfMean, _, err = st.solveQ(ctx, b, pr.tol); err != nil {
		return err
	}
	if r.Procedure == ProcedureRefit {
		f.h = newTruncated(f.eig, f.nu, pr.labelled, pr.y).refine(ctx, f.h, r.minNoise())
	}
	if err := f.posterior(pr.y); err != nil {
		return err
	}
	f.times.Eigen = time.Since(start)
	start = time.Now()
	// Euclidean GP on the labelled points.
	eucl := &gp.Regressor{}
	if r.Euclidean != nil {
		eucl = r.Euclidean.Clone()
	}
	xl := mat.NewDense(len(pr.labelled), f.x.RawMatrix().Cols, nil)
	for a, i := range pr.labelled {
		xl.SetRow(a, f.x.RawRowView(i))
	}
	if err := eucl.Fit(ctx, xl, pr.y); err != nil {
		return fmt.Errorf("imgp: Euclidean GP: %w", err)
	}
	f.eucl = eucl
	f.times.Euclidean = time.Since(start)
	return nil
}

// posterior computes the rank-L posterior of the feature weights at f.h.
func (f *fitted) posterior(y []float64) error {
	// Rank-L kernel k = Σ_l φ_l(x)φ_l(x′), φ_l = √(sΦ(λ_l)) f_l, and the
	// Gaussian posterior of the feature weights (the L×L Woodbury form).
	L := len(f.eig.Values)
	c := 2 * float64(f.nu) / (f.h.Kappa * f.h.Kappa)
	f.phiScale = make([]float64, L)
	for q, lam := range f.eig.Values {
		f.phiScale[q] = math.Sqrt(f.h.Amplitude * spectralDensity(lam, c, f.nu))
	}
	nl := len(f.labelled)
	phi := mat.NewDense(nl, L, nil)
	for a, i := range f.labelled {
		for q := 0; q < L; q++ {
			phi.Set(a, q, f.phiScale[q]*f.eig.Vectors.At(i, q))
		}
	}
	prec := mat.NewSymDense(L, nil)
	prec.SymOuterK(1/f.h.Noise, phi.T())
	for q := 0; q < L; q++ {
		prec.SetSym(q, q, prec.At(q, q)+1)
	}
	var pc mat.Cholesky
	if !pc.Factorize(prec) {
		return errors.New("imgp: the feature posterior precision is not positive definite")
	}
	f.sigma = mat.NewSymDense(L, nil)
	if err := pc.InverseTo(f.sigma); err != nil {
		return err
	}
	rhs := mat.NewVecDense(L, nil)
	rhs.MulVec(phi.T(), mat.NewVecDense(nl, y))
	rhs.ScaleVec(1/f.h.Noise, rhs)
	mu := mat.NewVecDense(L, nil)
	if err := pc.SolveVecTo(mu, rhs); err != nil {
		return err
	}
	f.mu = mu.RawVector().Data
	if !f.chol.Factorize(f.sigma) {
		return errors.New("imgp: the feature posterior covariance is not positive definite")
	}
	f.y = y
	return nil
}

// Refined returns a copy of the fitted model whose κ, s and σ_ε² maximise
// the exact marginal likelihood of the rank-L model used for prediction
// (see ProcedureRefit), sharing the graph, eigenpairs and Euclidean GP.
func (r *Regressor) Refined(ctx context.Context) (*Regressor, error) {
	if r.fit == nil {
		return nil, errNotFitted
	}
	out := *r
	out.Procedure = ProcedureRefit
	f := *r.fit
	f.h = newTruncated(f.eig, f.nu, f.labelled, f.y).refine(ctx, f.h, r.minNoise())
	if err := f.posterior(f.y); err != nil {
		return nil, err
	}
	out.fit = &f
	return &out, nil
}
