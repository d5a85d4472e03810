package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/knngraph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/spectral"
)

type imgpOptions struct {
	Data         string  // srmnist-style folder (train/test images and angles)
	Synthetic    int     // > 0: the noisy closed curve in R^10 with this many nodes instead of Data
	Labelled     float64 // fraction of the training points that are labelled
	Subset       string  // file of labelled indices (overrides Labelled)
	K            int
	Nu           int
	Eigenpairs   int
	Iterations   int
	LearningRate float64
	Probes       int
	Seed         uint64
	Distance     string // nearest or mean
	Approximate  bool   // NN-descent KNN graph
	EuclFixed    bool   // keep the Euclidean GP's initial hyperparameters (timing runs)
	LikProbes    int    // SLQ probes of the log marginal likelihood; < 0 skips it
	LikSteps     int    // Lanczos steps per probe
	LikExact     int    // at most this many labels: the exact determinant lemma
	Plot         string
	JSON         bool
}

func init() { register(newIMGPCommand) }

func newIMGPCommand(g *globals) *cobra.Command {
	opts := imgpOptions{}
	cmd := &cobra.Command{
		Use:   "imgp",
		Short: "Implicit-manifold GP regression against a Euclidean GP (rotated MNIST angles)",
		Long: `imgp fits implicit-manifold Gaussian-process regression (IMGP) and the Euclidean
Matérn 5/2 GP it is blended with, on the same labelled points, and reports the
test RMSE and mean Gaussian NLL of both (targets standardised).

Data: a folder with train_images_u8.bin.gz, train_angles.txt, test_images_u8.bin.gz
and test_angles.txt (default ../shared/data/srmnist: 10 digits × 1001 rotations,
all training images are graph nodes, a fraction of them labelled, the test images
predicted off the graph). --synthetic N uses instead a noisy closed curve in R^10
with N nodes and a target that depends on arc length.

The labelled points are a seeded random subset (--labelled, --seed), or the
indices listed in --subset (e.g. train_subset10_seed0.txt, scikit-learn's split).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			if opts.Data == "" {
				opts.Data = sharedData("srmnist")
			}
			return runIMGP(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	addIMGPModelFlags(f, &opts)
	f.Float64Var(&opts.Labelled, "labelled", 0.1, "fraction of training points labelled, in (0, 1]")
	f.StringVar(&opts.Subset, "subset", "", "file of labelled training indices (overrides --labelled)")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the labelled subset and the probes")
	f.BoolVar(&opts.Approximate, "approximate", false, "approximate KNN graph by NN-descent (for large N)")
	f.BoolVar(&opts.EuclFixed, "euclidean-fixed", false, "do not fit the Euclidean GP's hyperparameters (keeps 1, 1, 1e-2; for timing the graph model)")
	f.StringVar(&opts.Plot, "plot", "", "write a PNG of predicted against true targets with ±2σ bands")
	f.IntVar(&opts.LikProbes, "likelihood-probes", 30, "SLQ probes of the reported log marginal likelihood (used above --likelihood-exact-labels labels; -1 skips it)")
	f.IntVar(&opts.LikSteps, "likelihood-steps", 50, "Lanczos steps per SLQ probe of the log marginal likelihood")
	f.IntVar(&opts.LikExact, "likelihood-exact-labels", 128, "compute the likelihood exactly (determinant lemma, n·ν CG solves) up to this many labels; -1: always SLQ")
	cmd.AddCommand(newIMGPSweepCommand(g))
	return cmd
}

// addIMGPModelFlags registers the data and model flags shared by imgp and
// imgp sweep.
func addIMGPModelFlags(f *pflag.FlagSet, opts *imgpOptions) {
	f.StringVar(&opts.Data, "data", "", "data folder (default ../shared/data/srmnist)")
	f.IntVar(&opts.Synthetic, "synthetic", 0, "use the synthetic closed curve in R^10 with this many nodes")
	f.IntVar(&opts.K, "k", 50, "nearest neighbours of the graph")
	f.IntVar(&opts.Nu, "nu", 2, "integer smoothness ν of the graph Matérn prior")
	f.IntVar(&opts.Eigenpairs, "eigenpairs", 100, "eigenpairs L for prediction")
	f.IntVar(&opts.Iterations, "iterations", 100, "Adam steps on the marginal likelihood")
	f.Float64Var(&opts.LearningRate, "learning-rate", 0.05, "Adam learning rate")
	f.IntVar(&opts.Probes, "probes", 4, "Hutchinson probe vectors per gradient")
	f.StringVar(&opts.Distance, "distance", "nearest", "dist(x, M) in the blend: nearest (node) or mean (of K neighbours)")
}

// imgpResult is the JSON object of one run. RMSE and NLL are in standardised
// target units; nll is the mean Gaussian negative log-likelihood of the test
// targets under the predictive mean and variance of a new observation.
type imgpResult struct {
	Data            string  `json:"data"`
	Nodes           int     `json:"nodes"`
	Test            int     `json:"test"`
	Labelled        float64 `json:"labelled"`
	NLabelled       int     `json:"n_labelled"`
	Seed            uint64  `json:"seed"`
	K               int     `json:"k"`
	Nu              int     `json:"nu"`
	Eigenpairs      int     `json:"eigenpairs"`
	RMSE            float64 `json:"rmse"`
	NLL             any     `json:"nll"`
	ManifoldRMSE    float64 `json:"manifold_rmse"`
	RefinedRMSE     float64 `json:"refined_rmse"`
	RefinedNLL      any     `json:"refined_nll"`
	RefinedKappa    float64 `json:"refined_kappa"`
	RefinedNoise    float64 `json:"refined_noise"`
	EuclideanRMSE   float64 `json:"euclidean_rmse"`
	EuclideanNLL    any     `json:"euclidean_nll"`
	NodeRMSE        float64 `json:"node_rmse"`
	NodeRMSEFull    float64 `json:"node_rmse_full_rank"`
	GammaMean       float64 `json:"gamma_mean"`
	Alpha           float64 `json:"alpha"`
	Kappa           float64 `json:"kappa"`
	Amplitude       float64 `json:"amplitude"`
	Variance        float64 `json:"variance"`
	Noise           float64 `json:"noise"`
	EuclideanAmp    float64 `json:"euclidean_amplitude"`
	EuclideanLength float64 `json:"euclidean_length_scale"`
	EuclideanNoise  float64 `json:"euclidean_noise"`
	EuclideanLML    float64 `json:"euclidean_log_marginal_likelihood"`
	// LML is the GMRF log marginal likelihood at the fitted hyperparameters
	// (imgp.Regressor.LogMarginalLikelihood), LMLStdErr its standard error
	// over the SLQ probes (0 when exact); null when skipped.
	LML             any     `json:"log_marginal_likelihood"`
	LMLStdErr       any     `json:"log_marginal_likelihood_stderr"`
	LMLExact        bool    `json:"log_marginal_likelihood_exact"`
	SecondsLML      float64 `json:"seconds_likelihood"`
	AdamSteps       int     `json:"adam_steps"`
	CGIterations    int     `json:"cg_iterations"`
	Components      int     `json:"components"`
	SecondsGraph    float64 `json:"seconds_graph"`
	SecondsTrain    float64 `json:"seconds_train"`
	SecondsEigen    float64 `json:"seconds_eigen"`
	SecondsEucl     float64 `json:"seconds_euclidean"`
	SecondsEuclPred float64 `json:"seconds_euclidean_predict"`
	SecondsPredict  float64 `json:"seconds_predict"`
	SecondsFit      float64 `json:"seconds_fit"`
	Seconds         float64 `json:"seconds"`
}

// regressionData is a transductive regression problem with test points.
type regressionData struct {
	name         string
	x, xt        *mat.Dense
	y, yt        []float64 // standardised targets
	scale        float64   // standard deviation of the raw training targets
	defaultSplit string    // file naming scikit-learn's subset, if any
}

func loadAngles(dir string) (*regressionData, error) {
	tr, err := loaders.ReadImages(filepath.Join(dir, "train_images_u8.bin.gz"), 784)
	if err != nil {
		return nil, err
	}
	te, err := loaders.ReadImages(filepath.Join(dir, "test_images_u8.bin.gz"), 784)
	if err != nil {
		return nil, err
	}
	atr, err := loaders.ReadFloats(filepath.Join(dir, "train_angles.txt"))
	if err != nil {
		return nil, err
	}
	ate, err := loaders.ReadFloats(filepath.Join(dir, "test_angles.txt"))
	if err != nil {
		return nil, err
	}
	if len(atr) != tr.Count || len(ate) != te.Count {
		return nil, fmt.Errorf("imgp: %s has %d training images but %d angles, %d test images but %d angles", dir, tr.Count, len(atr), te.Count, len(ate))
	}
	mu, sd := eval.MeanStd(atr) // population std (ddof 0), as gp.py
	if !(sd > 0) {
		return nil, fmt.Errorf("imgp: %s: the training angles are all equal; nothing to regress", dir)
	}
	d := &regressionData{name: dir, x: tr.DenseRange(0, tr.Count), xt: te.DenseRange(0, te.Count), scale: sd}
	d.y = make([]float64, len(atr))
	for i, a := range atr {
		d.y[i] = (a - mu) / sd
	}
	d.yt = make([]float64, len(ate))
	for i, a := range ate {
		d.yt[i] = (a - mu) / sd
	}
	return d, nil
}

// syntheticCurve is a flattened closed curve c(t) = (cos t, 0.15 sin t) with
// its two halves 0.3|sin t| apart, rotated into R^10 by a seeded orthogonal
// matrix, with N(0, 0.01²) noise in every coordinate; t is uniform (so the
// sampling density along the curve is not). The target is sin(2π·s/ℓ), s the
// arc length from t = 0 and ℓ the length: it takes opposite values on the two
// close halves, so Euclidean proximity misleads and geodesic proximity does
// not. 500 test points are fresh samples of the same curve.
func syntheticCurve(n int, seed uint64) *regressionData {
	const dim, flat, noise, tests = 10, 0.15, 0.01, 500
	rng := rand.New(rand.NewPCG(seed, 0xc0ffee))
	rot := mat.NewDense(dim, dim, nil)
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			rot.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(rot)
	var q mat.Dense
	qr.QTo(&q)
	// Arc length on a fine grid.
	const grid = 1 << 16
	arc := make([]float64, grid+1)
	for k := 1; k <= grid; k++ {
		t0, t1 := 2*math.Pi*float64(k-1)/grid, 2*math.Pi*float64(k)/grid
		arc[k] = arc[k-1] + math.Hypot(math.Cos(t1)-math.Cos(t0), flat*(math.Sin(t1)-math.Sin(t0)))
	}
	length := arc[grid]
	sample := func(m int) (*mat.Dense, []float64) {
		x := mat.NewDense(m, dim, nil)
		y := make([]float64, m)
		p := make([]float64, dim)
		for i := 0; i < m; i++ {
			t := 2 * math.Pi * rng.Float64()
			for j := range p {
				p[j] = noise * rng.NormFloat64()
			}
			p[0] += math.Cos(t)
			p[1] += flat * math.Sin(t)
			row := x.RawRowView(i)
			for a := 0; a < dim; a++ {
				var s float64
				for b := 0; b < dim; b++ {
					s += q.At(a, b) * p[b]
				}
				row[a] = s
			}
			pos := t / (2 * math.Pi) * grid
			k := min(int(pos), grid-1)
			s := arc[k] + (pos-float64(k))*(arc[k+1]-arc[k])
			y[i] = math.Sin(2 * math.Pi * s / length)
		}
		return x, y
	}
	d := &regressionData{name: fmt.Sprintf("synthetic-curve-N%d", n), scale: 1}
	d.x, d.y = sample(n)
	d.xt, d.yt = sample(tests)
	return d
}

// chooseLabelled returns the labelled training indices.
func chooseLabelled(opts imgpOptions, n int) ([]int, error) {
	if opts.Subset != "" {
		idx, err := loaders.ReadInts(opts.Subset)
		if err != nil {
			return nil, err
		}
		for p, i := range idx {
			if i < 0 || i >= n {
				return nil, fmt.Errorf("imgp: %s line %d: index %d is not a training point in [0, %d)", opts.Subset, p+1, i, n)
			}
		}
		return idx, nil
	}
	if !(opts.Labelled > 0 && opts.Labelled <= 1) {
		return nil, fmt.Errorf("imgp: --labelled %v is invalid: it must be a fraction in (0, 1]", opts.Labelled)
	}
	m := int(math.Round(opts.Labelled * float64(n)))
	if m < 1 {
		return nil, fmt.Errorf("imgp: --labelled %v of %d points labels no point; use at least %.3g", opts.Labelled, n, 1/float64(n))
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x1abe1))
	return rng.Perm(n)[:m], nil
}

func runIMGP(ctx context.Context, opts imgpOptions, stdout, stderr io.Writer) error {
	start := timeNow()
	var data *regressionData
	var err error
	if opts.Synthetic > 0 {
		data = syntheticCurve(opts.Synthetic, opts.Seed)
	} else {
		if data, err = loadAngles(opts.Data); err != nil {
			return err
		}
	}
	var distance imgp.DistanceRule
	switch opts.Distance {
	case "nearest", "":
		distance = imgp.NearestNode
	case "mean":
		distance = imgp.MeanNeighbour
	default:
		return fmt.Errorf("imgp: --distance %q is invalid: use nearest or mean", opts.Distance)
	}
	n, _ := data.x.Dims()
	lab, err := chooseLabelled(opts, n)
	if err != nil {
		return err
	}
	y := make([]float64, len(lab))
	for p, i := range lab {
		y[p] = data.y[i]
	}
	prog := newProgress(stderr, max(opts.Iterations, 1), "imgp: Adam")
	r := &imgp.Regressor{K: opts.K, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs, Iterations: opts.Iterations,
		LearningRate: opts.LearningRate, Probes: opts.Probes, Seed: opts.Seed, Distance: distance,
		Euclidean: &gp.Regressor{Fixed: opts.EuclFixed},
		Progress:  func(int, imgp.Hyperparameters, [4]float64) { prog.Add(1) }}
	if opts.Nu == 0 {
		return errors.New("imgp: --nu 0 is invalid: the sparse precision needs a positive integer ν")
	}
	if opts.Approximate {
		r.Approximate = &knngraph.Descent{Seed: opts.Seed}
	}
	logf(stderr, "imgp: %d nodes, %d labelled, %d test points; fitting", n, len(lab), len(data.yt))
	fitStart := timeNow()
	if err := r.Fit(ctx, data.x, lab, y); err != nil {
		prog.Finish()
		return err
	}
	prog.Finish()
	fitSeconds := seconds(fitStart)
	predStart := timeNow()
	p, err := r.Predict(ctx, data.xt)
	if err != nil {
		return err
	}
	res := imgpResult{Data: data.name, Nodes: n, Test: len(data.yt), NLabelled: len(lab), Seed: opts.Seed,
		K: opts.K, Nu: opts.Nu, Eigenpairs: opts.Eigenpairs, SecondsPredict: seconds(predStart), SecondsFit: fitSeconds}
	res.Labelled = float64(len(lab)) / float64(n)
	sc, err := scoreIMGP(ctx, r, p, data)
	if err != nil {
		return err
	}
	res.RMSE, res.NLL, res.RefinedRMSE, res.RefinedNLL = sc.RMSE, sc.NLL, sc.RefinedRMSE, sc.RefinedNLL
	res.EuclideanRMSE, res.EuclideanNLL = sc.EuclideanRMSE, sc.EuclideanNLL
	res.ManifoldRMSE, _ = eval.RMSE(p.ManifoldMean, data.yt)
	rh := sc.refined.Hyperparameters()
	res.RefinedKappa, res.RefinedNoise = rh.Kappa, rh.Noise
	e := r.EuclideanModel()
	eh := e.Hyperparameters()
	epStart := timeNow()
	if _, _, err := e.Predict(data.xt); err != nil {
		return err
	}
	res.SecondsEuclPred = seconds(epStart)
	nodeMean, _, _ := r.PredictNodes()
	unl := make([]bool, n)
	for i := range unl {
		unl[i] = true
	}
	for _, i := range lab {
		unl[i] = false
	}
	full := r.NodeMean()
	var pm, pf, tm []float64
	for i, u := range unl {
		if u {
			pm, pf, tm = append(pm, nodeMean[i]), append(pf, full[i]), append(tm, data.y[i])
		}
	}
	if len(pm) > 0 {
		res.NodeRMSE, _ = eval.RMSE(pm, tm)
		res.NodeRMSEFull, _ = eval.RMSE(pf, tm)
	}
	for _, g := range p.Gamma {
		res.GammaMean += g / float64(len(p.Gamma))
	}
	h := r.Hyperparameters()
	res.Alpha, res.Kappa, res.Amplitude, res.Noise, res.Variance = h.Alpha, h.Kappa, h.Amplitude, h.Noise, r.Variance()
	res.EuclideanAmp, res.EuclideanLength, res.EuclideanNoise, res.EuclideanLML = eh.Amplitude, eh.LengthScale, eh.Noise, e.LogMarginalLikelihood()
	if opts.LikProbes >= 0 {
		likStart := timeNow()
		var lprog *progress
		ll, err := r.LogMarginalLikelihood(ctx, imgp.LikelihoodSettings{ExactLabels: opts.LikExact, TraceSettings: spectral.TraceSettings{
			Probes: opts.LikProbes, Steps: opts.LikSteps, Seed: opts.Seed,
			Progress: func(_, total int) {
				if lprog == nil {
					lprog = newProgress(stderr, total, "imgp: likelihood")
				}
				lprog.Add(1)
			}}})
		if lprog != nil {
			lprog.Finish()
		}
		if err != nil {
			return err
		}
		res.LML, res.LMLStdErr, res.LMLExact = finite(ll.Value), finite(ll.StdErr), ll.Exact
		res.SecondsLML = seconds(likStart)
	}
	res.AdamSteps, res.CGIterations = r.Steps()
	_, res.Components = r.FittedGraph().Dist2.Components()
	t := r.Timings()
	res.SecondsGraph, res.SecondsTrain, res.SecondsEigen, res.SecondsEucl = t.Graph.Seconds(), t.Train.Seconds(), t.Eigen.Seconds(), t.Euclidean.Seconds()
	if opts.Plot != "" {
		if err := plotIMGP(opts.Plot, data, p, sc.refinedPred, eh.Noise, data.scale); err != nil {
			return err
		}
		logf(stderr, "imgp: wrote %s", opts.Plot)
	}
	res.Seconds = seconds(start)
	return report(stdout, opts.JSON, res, func(w io.Writer) { printIMGP(w, res) })
}

// imgpScores are the test metrics of one fit: IMGP, its rank-L refit and the
// Euclidean GP it blends in (NLL with the variance of a new observation).
type imgpScores struct {
	RMSE, RefinedRMSE, EuclideanRMSE float64
	NLL, RefinedNLL, EuclideanNLL    any
	refined                          *imgp.Regressor
	refinedPred                      *imgp.Prediction
}

func scoreIMGP(ctx context.Context, r *imgp.Regressor, p *imgp.Prediction, data *regressionData) (imgpScores, error) {
	var sc imgpScores
	sc.RMSE, _ = eval.RMSE(p.Mean, data.yt)
	nll, err := eval.GaussianNLL(p.Mean, p.Observation, data.yt)
	sc.NLL = finiteOrNil(nll, err)
	en := r.EuclideanModel().Hyperparameters().Noise
	ev := make([]float64, len(p.EuclideanVariance))
	for i, v := range p.EuclideanVariance {
		ev[i] = v + en
	}
	sc.EuclideanRMSE, _ = eval.RMSE(p.EuclideanMean, data.yt)
	enll, err := eval.GaussianNLL(p.EuclideanMean, ev, data.yt)
	sc.EuclideanNLL = finiteOrNil(enll, err)
	if sc.refined, err = r.Refined(ctx); err != nil {
		return sc, err
	}
	if sc.refinedPred, err = sc.refined.Predict(ctx, data.xt); err != nil {
		return sc, err
	}
	sc.RefinedRMSE, _ = eval.RMSE(sc.refinedPred.Mean, data.yt)
	rnll, err := eval.GaussianNLL(sc.refinedPred.Mean, sc.refinedPred.Observation, data.yt)
	sc.RefinedNLL = finiteOrNil(rnll, err)
	return sc, nil
}

func finiteOrNil(v float64, err error) any {
	if err != nil {
		return nil
	}
	return finite(v)
}

func printIMGP(w io.Writer, r imgpResult) {
	fmt.Fprintf(w, "IMGP on %s: %d nodes (%d components), %d labelled (%.3g%%), %d test points\n", r.Data, r.Nodes, r.Components, r.NLabelled, 100*r.Labelled, r.Test)
	fmt.Fprintf(w, "  K %d, ν %d, L %d, seed %d\n", r.K, r.Nu, r.Eigenpairs, r.Seed)
	fmt.Fprintf(w, "  %-14s %10s %10s\n", "model", "RMSE", "NLL")
	fmt.Fprintf(w, "  %-14s %10.4f %10s\n", "IMGP", r.RMSE, fmtAny(r.NLL))
	fmt.Fprintf(w, "  %-14s %10.4f %10s   (κ, s, σ_ε² refitted on the rank-L model: κ %.4g, σ_ε² %.4g)\n", "IMGP refined", r.RefinedRMSE, fmtAny(r.RefinedNLL), r.RefinedKappa, r.RefinedNoise)
	fmt.Fprintf(w, "  %-14s %10.4f %10s\n", "Euclidean GP", r.EuclideanRMSE, fmtAny(r.EuclideanNLL))
	fmt.Fprintf(w, "  unlabelled-node RMSE %.4f (rank-L), %.4f (full-rank GMRF mean); mean γ %.3f on the test points\n", r.NodeRMSE, r.NodeRMSEFull, r.GammaMean)
	fmt.Fprintf(w, "  fitted α %.4g, κ %.4g, σ² %.4g, σ_ε² %.4g (%d Adam steps, %d CG iterations)\n", r.Alpha, r.Kappa, r.Variance, r.Noise, r.AdamSteps, r.CGIterations)
	if v, ok := r.LML.(float64); ok {
		how := "exact determinant lemma"
		if !r.LMLExact {
			how = fmt.Sprintf("± %.3g, stochastic Lanczos quadrature", fmtStdErr(r.LMLStdErr))
		}
		fmt.Fprintf(w, "  log marginal likelihood at the fitted hyperparameters %.4f (%s; %.2fs)\n", v, how, r.SecondsLML)
	}
	fmt.Fprintf(w, "  Euclidean GP: amplitude %.4g, length scale %.4g, noise %.4g\n", r.EuclideanAmp, r.EuclideanLength, r.EuclideanNoise)
	fmt.Fprintf(w, "  time: graph %.2fs, training %.2fs, eigenpairs %.2fs, Euclidean GP %.2fs, prediction %.2fs; total %.2fs\n",
		r.SecondsGraph, r.SecondsTrain, r.SecondsEigen, r.SecondsEucl, r.SecondsPredict, r.Seconds)
}

func fmtStdErr(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}

func fmtAny(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.4f", f)
	}
	return "n/a"
}

// sortedBy returns the indices of v in increasing order.
func sortedBy(v []float64) []int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	return idx
}
