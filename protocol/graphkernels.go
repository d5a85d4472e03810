package protocol

import (
	"context"
	"fmt"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/svm"
)

// GramEvaluation is the graph-classification protocol of Shervashidze et al.
// (JMLR 2011, §5) and of shared/bench/peers/wl.py: nested stratified
// cross-validation in which, for every outer fold, the candidate (a Gram
// matrix — one per WL height, say — and a value of Grid) with the best mean
// accuracy on InnerFolds inner folds of the outer training graphs is
// refitted on them and scored on the outer test fold; repeated for Seeds
// seeds Seed, Seed+1, ….
type GramEvaluation struct {
	Grams      []*mat.SymDense // candidate Gram matrices over all graphs
	Grid       []float64       // C (SVM) or ridge (Ridge) values, all > 0
	Machine    graphkernels.Machine
	OuterFolds int // ≥ 2; ignored with Folds
	InnerFolds int // ≥ 2
	Seeds      int // ≥ 1
	Seed       uint64
	// Folds, if not nil, holds the outer fold of every graph for each seed
	// (Folds[s][i] in 0..k−1), as read by loaders.ReadFolds.
	Folds [][]int
	// Progress, if not nil, is called after every seed.
	Progress func(done, total int)
}

// GramEvaluationResult is the outcome of a GramEvaluation. Candidate c stands for
// Grams[c / len(Grid)] with Grid[c % len(Grid)].
type GramEvaluationResult struct {
	Accuracy []float64 // mean outer accuracy of every seed
	Chosen   [][]int   // the candidate chosen in every outer fold of every seed
	Folds    int       // outer folds of the first seed
	// Fold and Prediction are, for every graph, its outer fold in the first
	// seed and the class the candidate chosen there predicts for it when
	// refitted on the other folds (out-of-fold predictions).
	Fold, Prediction []int
}

// Run evaluates on graphs with classes labels (0..C−1).
func (e GramEvaluation) Run(ctx context.Context, labels []int) (*GramEvaluationResult, error) {
	n := len(labels)
	switch {
	case e.Seeds < 1:
		return nil, fmt.Errorf("protocol: graph kernels: Seeds=%d is invalid: it must be ≥ 1", e.Seeds)
	case e.Folds == nil && e.OuterFolds < 2:
		return nil, fmt.Errorf("protocol: graph kernels: OuterFolds=%d is invalid: it must be ≥ 2", e.OuterFolds)
	case e.Folds != nil && len(e.Folds) < e.Seeds:
		return nil, fmt.Errorf("protocol: graph kernels: %d fold assignments for %d seeds", len(e.Folds), e.Seeds)
	}
	if err := e.checkCandidates(n); err != nil {
		return nil, fmt.Errorf("protocol: graph kernels: %w", err)
	}
	nGrid := len(e.Grid)
	cv := eval.NestedCV{
		InnerFolds: e.InnerFolds,
		Candidates: len(e.Grams) * nGrid,
		Score: func(ctx context.Context, c int, train, test []int) (float64, error) {
			return e.accuracy(ctx, c, labels, train, test)
		},
	}
	res := &GramEvaluationResult{}
	for s := 0; s < e.Seeds; s++ {
		seed := e.Seed + uint64(s)
		var fold []int
		var err error
		if e.Folds != nil {
			fold = e.Folds[s]
			if len(fold) != n {
				return nil, fmt.Errorf("protocol: graph kernels: fold assignment %d has %d entries for %d graphs", s, len(fold), n)
			}
		} else if fold, err = eval.StratifiedFolds(labels, e.OuterFolds, seed); err != nil {
			return nil, fmt.Errorf("protocol: graph kernels: %w", err)
		}
		nr, err := cv.Run(ctx, labels, fold, seed)
		if err != nil {
			return nil, fmt.Errorf("protocol: graph kernels: seed %d: %w", seed, err)
		}
		res.Accuracy = append(res.Accuracy, nr.Mean)
		res.Chosen = append(res.Chosen, nr.Chosen)
		if s == 0 {
			res.Folds = len(nr.Chosen)
			res.Fold = append([]int(nil), fold...)
			res.Prediction = make([]int, n)
			for i := range res.Prediction {
				res.Prediction[i] = -1
			}
			for f, c := range nr.Chosen {
				train, test := eval.FoldSplit(fold, f)
				pred, err := e.fitPredict(ctx, c, labels, train, test)
				if err != nil {
					return nil, fmt.Errorf("protocol: graph kernels: out-of-fold predictions: %w", err)
				}
				for p, i := range test {
					res.Prediction[i] = pred[p]
				}
			}
		}
		if e.Progress != nil {
			e.Progress(s+1, e.Seeds)
		}
	}
	return res, nil
}

// Select returns the candidate the protocol's inner selection chooses on
// all the graphs — the best mean accuracy over InnerFolds stratified folds
// of every graph, drawn with Seed, the lowest index on ties: the rule Run
// applies to each outer fold's training graphs, applied to the whole set,
// to configure a final model refitted on every graph (as scikit-learn's
// GridSearchCV refit). With one candidate it returns 0 without fitting.
func (e GramEvaluation) Select(ctx context.Context, labels []int) (int, error) {
	if err := e.checkCandidates(len(labels)); err != nil {
		return 0, fmt.Errorf("protocol: graph kernels: selection: %w", err)
	}
	cands := len(e.Grams) * len(e.Grid)
	if cands == 1 {
		return 0, nil
	}
	fold, err := eval.StratifiedFolds(labels, e.InnerFolds, e.Seed)
	if err != nil {
		return 0, fmt.Errorf("protocol: graph kernels: selection: %w", err)
	}
	means := make([]float64, cands)
	for c := range means {
		var sum float64
		for f := 0; f < e.InnerFolds; f++ {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
			train, test := eval.FoldSplit(fold, f)
			acc, err := e.accuracy(ctx, c, labels, train, test)
			if err != nil {
				return 0, fmt.Errorf("protocol: graph kernels: selection: candidate %d, fold %d: %w", c, f, err)
			}
			sum += acc
		}
		means[c] = sum / float64(e.InnerFolds)
	}
	best, err := eval.FirstBest(means)
	if err != nil {
		return 0, fmt.Errorf("protocol: graph kernels: selection: %w", err)
	}
	return best, nil
}

// checkCandidates checks what Run and Select share: the candidates, the
// inner folds and the machine, for n graphs.
func (e GramEvaluation) checkCandidates(n int) error {
	switch {
	case len(e.Grams) == 0 || len(e.Grid) == 0:
		return fmt.Errorf("no candidates (%d Gram matrices, %d grid values)", len(e.Grams), len(e.Grid))
	case e.InnerFolds < 2:
		return fmt.Errorf("InnerFolds=%d is invalid: it must be ≥ 2", e.InnerFolds)
	case e.Machine != graphkernels.SVM && e.Machine != graphkernels.Ridge:
		return fmt.Errorf("Machine=%d is invalid", int(e.Machine))
	}
	for _, k := range e.Grams {
		if r, _ := k.Dims(); r != n {
			return fmt.Errorf("a %d×%d Gram matrix for %d graphs", r, r, n)
		}
	}
	for _, v := range e.Grid {
		if !(v > 0) || v > 1e300 {
			return fmt.Errorf("grid value %v is invalid: every value must be finite and > 0", v)
		}
	}
	return nil
}

// accuracy is the fraction of the graphs test that candidate c, fitted on
// the graphs train, classifies right.
func (e GramEvaluation) accuracy(ctx context.Context, c int, labels, train, test []int) (float64, error) {
	pred, err := e.fitPredict(ctx, c, labels, train, test)
	if err != nil {
		return 0, err
	}
	right := 0
	for p, i := range test {
		if pred[p] == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(test)), nil
}

// fitPredict fits candidate c on the graphs train and predicts test.
func (e GramEvaluation) fitPredict(ctx context.Context, c int, labels, train, test []int) ([]int, error) {
	k := e.Grams[c/len(e.Grid)]
	v := e.Grid[c%len(e.Grid)]
	ktr := svm.SubGram(k, train)
	ytr := make([]int, len(train))
	for p, i := range train {
		ytr[p] = labels[i]
	}
	cross := svm.SubCross(k, test, train)
	var m estimator.Classifier[mat.Symmetric, mat.Matrix] = &svm.SVC{C: v}
	if e.Machine == graphkernels.Ridge {
		m = &svm.KernelRidge{Ridge: v}
	}
	if err := m.Fit(ctx, ktr, ytr); err != nil {
		return nil, err
	}
	scores, err := m.Predict(ctx, cross)
	if err != nil {
		return nil, err
	}
	return estimator.Argmax(scores), nil
}

// SweepKernels runs e once for each kernel alone (e.Grams replaced by that
// kernel's Gram matrix; e.Progress unused): the accuracy of every kernel
// fixed, as gssl graphkernel --heights sweeps the WL height. grams[i], when
// given and not nil, is kernel i's Gram matrix already computed; otherwise
// kernels[i] is fitted on graphs. Every result has the folds of e's seeds.
func (e GramEvaluation) SweepKernels(ctx context.Context, labels []int, graphs []graphkernels.Graph, kernels []graphkernels.Kernel, grams []*mat.SymDense) ([]*GramEvaluationResult, error) {
	e.Progress = nil
	out := make([]*GramEvaluationResult, len(kernels))
	for i, k := range kernels {
		var g *mat.SymDense
		if i < len(grams) {
			g = grams[i]
		}
		if g == nil {
			var err error
			if g, err = graphkernels.FitGram(ctx, k, graphs); err != nil {
				return nil, fmt.Errorf("protocol: kernel %d: %w", i, err)
			}
		}
		e.Grams = []*mat.SymDense{g}
		r, err := e.Run(ctx, labels)
		if err != nil {
			return nil, fmt.Errorf("protocol: kernel %d: %w", i, err)
		}
		out[i] = r
	}
	return out, nil
}

// TimedGram fits a kernel from newKernel on graphs and computes their Gram
// matrix runs times (runs ≥ 1; one warm-up run first when runs > 1, not
// timed), as the wall time of a Gram matrix is measured: it returns the
// last kernel and Gram matrix and the seconds of each timed run. newKernel
// gets the run's number (0 the warm-up when there is one).
func TimedGram(ctx context.Context, graphs []graphkernels.Graph, runs int, newKernel func(run int) graphkernels.Kernel) (graphkernels.Kernel, *mat.SymDense, []float64, error) {
	if runs < 1 {
		return nil, nil, nil, fmt.Errorf("protocol: TimedGram: runs=%d is invalid: it must be ≥ 1", runs)
	}
	total := runs
	if runs > 1 {
		total++ // the first is a warm-up
	}
	var k graphkernels.Kernel
	var gram *mat.SymDense
	var secs []float64
	for r := 0; r < total; r++ {
		k = newKernel(r)
		t0 := time.Now()
		g, err := graphkernels.FitGram(ctx, k, graphs)
		if err != nil {
			return nil, nil, nil, err
		}
		if r > 0 || total == 1 {
			secs = append(secs, time.Since(t0).Seconds())
		}
		gram = g
	}
	return k, gram, secs, nil
}

// The graph kernels a GraphKernelSpec names.
const (
	KernelWL = "wl" // Weisfeiler–Lehman subtree
	KernelSP = "sp" // shortest path
	KernelRW = "rw" // geometric random walk
	KernelVH = "vh" // vertex histogram (WL of height 0)
)

// GraphKernelSpec names a graph kernel of package graphkernels and its
// parameters: the kernels of gssl graphkernel.
type GraphKernelSpec struct {
	Name      string  // KernelWL, KernelSP, KernelRW or KernelVH
	H         int     // WL height, in [1, graphkernels.MaxWLHeight] for KernelWL
	Lambda    float64 // random-walk decay λ (checked by graphkernels.RandomWalk)
	Normalize bool    // cosine normalisation (graphkernels.Cosine)
}

// Validate checks the name and, for WL, the height.
func (s GraphKernelSpec) Validate() error {
	switch s.Name {
	case KernelWL:
		if s.H < 1 || s.H > graphkernels.MaxWLHeight {
			return fmt.Errorf("protocol: Kernel.H=%d is invalid: it must be in [1, %d]", s.H, graphkernels.MaxWLHeight)
		}
	case KernelSP, KernelRW, KernelVH:
	default:
		return fmt.Errorf("protocol: Kernel.Name=%q is invalid: want %s, %s, %s or %s", s.Name, KernelWL, KernelSP, KernelRW, KernelVH)
	}
	return nil
}

// New returns the kernel s names, at WL height h (ignored by the other
// kernels), observed by progress (nil for none).
func (s GraphKernelSpec) New(h int, progress graphkernels.Progress) graphkernels.Kernel {
	var k graphkernels.Kernel
	switch s.Name {
	case KernelWL:
		k = &graphkernels.WeisfeilerLehman{H: h, Progress: progress}
	case KernelSP:
		k = &graphkernels.ShortestPath{Progress: progress}
	case KernelRW:
		k = &graphkernels.RandomWalk{Lambda: s.Lambda, Progress: progress}
	default:
		k = &graphkernels.VertexHistogram{Progress: progress}
	}
	if s.Normalize {
		k = &graphkernels.Cosine{Kernel: k}
	}
	return k
}

// CandidateGrams returns the candidate kernels of a selection over WL
// heights: with selectH (WL only) the Gram matrices at heights 1..H (gram,
// when not nil, is the one at H, already computed), otherwise gram alone
// (fitted when nil) at height H.
func (s GraphKernelSpec) CandidateGrams(ctx context.Context, graphs []graphkernels.Graph, gram *mat.SymDense, selectH bool) ([]*mat.SymDense, []int, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	if selectH && s.Name != KernelWL {
		return nil, nil, fmt.Errorf("protocol: selecting the WL height needs the %s kernel, not %s", KernelWL, s.Name)
	}
	lo := s.H
	if selectH {
		lo = 1
	}
	var grams []*mat.SymDense
	var heights []int
	for h := lo; h <= s.H; h++ {
		kh := gram
		if h != s.H || kh == nil {
			var err error
			if kh, err = graphkernels.FitGram(ctx, s.New(h, nil), graphs); err != nil {
				return nil, nil, err
			}
		}
		grams, heights = append(grams, kh), append(heights, h)
	}
	return grams, heights, nil
}

// The defaults of a graph-kernel study, those of Shervashidze et al.'s
// protocol as shared/bench/peers/wl.py runs it: WL height 5, 10 outer and
// 3 inner folds, 10 seeds, and C in 10⁻³..10³; the random walk's decay
// 0.01.
const (
	DefaultWLHeight   = 5
	DefaultDecay      = 0.01
	DefaultOuterFolds = 10
	DefaultInnerFolds = 3
	DefaultSeeds      = 10
)

// DefaultCGrid returns wl.py's grid of C values.
func DefaultCGrid() []float64 { return []float64{1e-3, 1e-2, 1e-1, 1, 1e1, 1e2, 1e3} }

// GraphKernelStudy is the whole experiment of gssl graphkernel on a set of
// graphs: the Gram matrix of Kernel computed GramRuns times (timed, after
// a warm-up when more than once); the nested cross-validation of
// Evaluation (when Evaluation.Seeds > 0) over the candidates — the WL
// heights 1..H with SelectH, the kernel alone otherwise — and Grid; the
// same protocol once per height of Heights with that height fixed; and,
// with Refit, the WL classifier of the configuration the inner selection
// picks on all graphs (GramEvaluation.Select), refitted on every graph.
type GraphKernelStudy struct {
	Kernel  GraphKernelSpec
	SelectH bool  // choose the WL height in 1..H too
	Heights []int // WL heights evaluated one by one, each in [0, graphkernels.MaxWLHeight]
	// Evaluation is the protocol; its Grams are filled by Run.
	Evaluation GramEvaluation
	GramRuns   int  // ≥ 1
	Refit      bool // WL or VH with the SVM only
	// Progress, if not nil, observes the stages: "Gram matrix" (graphs,
	// once per timed or warm-up run, done restarting at 1) and "nested CV"
	// (seeds).
	Progress func(stage string, done, total int)
}

// HeightAccuracy is the nested cross-validated accuracy of every seed of
// the WL kernel with its height fixed at H.
type HeightAccuracy struct {
	H        int
	Accuracy []float64
}

// GraphKernelStudyResult is what a GraphKernelStudy found.
type GraphKernelStudyResult struct {
	Gram        *mat.SymDense // the kernel's Gram matrix at height H
	GramSeconds []float64     // the timed runs
	// Features is the dictionary size of an explicit-feature kernel (WL,
	// SP, VH), 0 for the random walk.
	Features int
	// Candidates is the number of configurations (kernels × grid values)
	// the selection chose from.
	Candidates int
	Evaluation *GramEvaluationResult // nil when Evaluation.Seeds is 0
	CVSeconds  float64
	// GridChosen counts how often each grid value was chosen, and HChosen
	// (with SelectH) each height 1..H, over the outer folds of every seed.
	GridChosen, HChosen []int
	Heights             []HeightAccuracy // one per Study.Heights
	// Model, with Refit, is the chosen configuration refitted on all graphs.
	Model *graphkernels.WLClassifier
}

// Validate checks the study's settings, naming the first invalid field.
func (s GraphKernelStudy) Validate() error {
	if err := s.Kernel.Validate(); err != nil {
		return err
	}
	if s.SelectH && s.Kernel.Name != KernelWL {
		return fmt.Errorf("protocol: SelectH needs Kernel.Name %s, not %s", KernelWL, s.Kernel.Name)
	}
	if s.GramRuns < 1 {
		return fmt.Errorf("protocol: GramRuns=%d is invalid: it must be ≥ 1", s.GramRuns)
	}
	if s.Evaluation.Seeds != 0 || s.Refit {
		if err := s.Evaluation.validate(); err != nil {
			return err
		}
	}
	for _, h := range s.Heights {
		if s.Kernel.Name != KernelWL || s.Evaluation.Seeds < 1 {
			return fmt.Errorf("protocol: Heights needs Kernel.Name %s and Evaluation.Seeds ≥ 1", KernelWL)
		}
		if h < 0 || h > graphkernels.MaxWLHeight {
			return fmt.Errorf("protocol: Heights value %d is invalid: every height must be in [0, %d]", h, graphkernels.MaxWLHeight)
		}
	}
	if s.Refit && (s.Kernel.Name != KernelWL && s.Kernel.Name != KernelVH || s.Evaluation.Machine != graphkernels.SVM) {
		return fmt.Errorf("protocol: Refit needs the %s or %s kernel and the SVM (graphkernels.WLClassifier)", KernelWL, KernelVH)
	}
	return nil
}

// validate checks the settings of a GramEvaluation that do not depend on
// the graphs, as fields of a GraphKernelStudy.
func (e GramEvaluation) validate() error {
	switch {
	case e.Seeds < 0:
		return fmt.Errorf("protocol: Evaluation.Seeds=%d is invalid: it must be ≥ 0", e.Seeds)
	case len(e.Grid) == 0:
		return fmt.Errorf("protocol: Evaluation.Grid is empty")
	case e.Folds == nil && e.OuterFolds < 2:
		return fmt.Errorf("protocol: Evaluation.OuterFolds=%d is invalid: it must be ≥ 2", e.OuterFolds)
	case e.InnerFolds < 2:
		return fmt.Errorf("protocol: Evaluation.InnerFolds=%d is invalid: it must be ≥ 2", e.InnerFolds)
	case e.Machine != graphkernels.SVM && e.Machine != graphkernels.Ridge:
		return fmt.Errorf("protocol: Evaluation.Machine=%d is invalid", int(e.Machine))
	}
	for _, v := range e.Grid {
		if !(v > 0) || v > 1e300 {
			return fmt.Errorf("protocol: Evaluation.Grid value %v is invalid: every value must be finite and > 0", v)
		}
	}
	return nil
}

// Run carries out the study on graphs with classes labels (0..C−1).
func (s GraphKernelStudy) Run(ctx context.Context, graphs []graphkernels.Graph, labels []int) (*GraphKernelStudyResult, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(labels) != len(graphs) {
		return nil, fmt.Errorf("protocol: %d labels for %d graphs", len(labels), len(graphs))
	}
	progress := func(stage string) func(int, int) {
		if s.Progress == nil {
			return nil
		}
		return func(done, total int) { s.Progress(stage, done, total) }
	}
	res := &GraphKernelStudyResult{}
	k, gram, secs, err := TimedGram(ctx, graphs, s.GramRuns, func(int) graphkernels.Kernel { return s.Kernel.New(s.Kernel.H, progress("Gram matrix")) })
	if err != nil {
		return nil, err
	}
	res.Gram, res.GramSeconds, res.Features = gram, secs, graphkernels.FeatureCount(k)
	if s.Evaluation.Seeds == 0 && !s.Refit {
		return res, nil
	}
	ev := s.Evaluation
	heights := []int{s.Kernel.H}
	if ev.Grams, heights, err = s.Kernel.CandidateGrams(ctx, graphs, gram, s.SelectH); err != nil {
		return nil, err
	}
	res.Candidates = len(ev.Grams) * len(ev.Grid)
	if ev.Seeds > 0 {
		if err := s.evaluate(ctx, ev, graphs, labels, heights, progress("nested CV"), res); err != nil {
			return nil, err
		}
	}
	if s.Refit {
		if res.Model, err = s.refit(ctx, ev, graphs, labels, heights); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// evaluate runs the nested cross-validation of the candidates and the
// sweep over Heights, and counts the choices.
func (s GraphKernelStudy) evaluate(ctx context.Context, ev GramEvaluation, graphs []graphkernels.Graph, labels, heights []int, progress func(int, int), res *GraphKernelStudyResult) error {
	ev.Progress = progress
	t0 := time.Now()
	er, err := ev.Run(ctx, labels)
	if err != nil {
		return err
	}
	res.Evaluation, res.CVSeconds = er, time.Since(t0).Seconds()
	nGrid := len(ev.Grid)
	res.GridChosen = make([]int, nGrid)
	if s.SelectH {
		res.HChosen = make([]int, s.Kernel.H)
	}
	for _, chosen := range er.Chosen {
		for _, c := range chosen {
			res.GridChosen[c%nGrid]++
			if s.SelectH {
				res.HChosen[heights[c/nGrid]-1]++
			}
		}
	}
	if len(s.Heights) == 0 {
		return nil
	}
	have := map[int]*mat.SymDense{}
	for i, h := range heights {
		have[h] = ev.Grams[i]
	}
	kernels := make([]graphkernels.Kernel, len(s.Heights))
	known := make([]*mat.SymDense, len(s.Heights))
	for i, h := range s.Heights {
		kernels[i], known[i] = s.Kernel.New(h, nil), have[h]
	}
	ers, err := ev.SweepKernels(ctx, labels, graphs, kernels, known)
	if err != nil {
		return fmt.Errorf("protocol: Heights: %w", err)
	}
	for i, r := range ers {
		res.Heights = append(res.Heights, HeightAccuracy{H: s.Heights[i], Accuracy: r.Accuracy})
	}
	return nil
}

// refit selects a configuration on all graphs and refits it as a
// WLClassifier (height 0 for the vertex histogram).
func (s GraphKernelStudy) refit(ctx context.Context, ev GramEvaluation, graphs []graphkernels.Graph, labels, heights []int) (*graphkernels.WLClassifier, error) {
	c, err := ev.Select(ctx, labels)
	if err != nil {
		return nil, err
	}
	nGrid := len(ev.Grid)
	m := &graphkernels.WLClassifier{H: heights[c/nGrid], C: ev.Grid[c%nGrid], Normalize: s.Kernel.Normalize}
	if s.Kernel.Name == KernelVH {
		m.H = 0
	}
	if err := m.Fit(ctx, graphs, labels); err != nil {
		return nil, fmt.Errorf("protocol: refitting h = %d, C = %g on all %d graphs: %w", m.H, m.C, len(graphs), err)
	}
	return m, nil
}
