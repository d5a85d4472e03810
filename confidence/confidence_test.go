package confidence_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/internal/sharedtest"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/modelfile"
)

// nll is the negative log-likelihood of softmax(z/t) on rows idx, written
// out independently of package eval.
func nll(z *mat.Dense, labels, idx []int, t float64) float64 {
	var s float64
	for _, i := range idx {
		row := z.RawRowView(i)
		m := math.Inf(-1)
		for _, v := range row {
			m = math.Max(m, v/t)
		}
		var e float64
		for _, v := range row {
			e += math.Exp(v/t - m)
		}
		s += m + math.Log(e) - row[labels[i]]/t
	}
	return s
}

// TestFitAgainstBruteForce checks the temperature against a scan of the
// likelihood and the prediction sets against their definition.
func TestFitAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, c = 400, 4
	scores := mat.NewDense(n, c, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = rng.IntN(c)
		for k := 0; k < c; k++ {
			v := rng.ExpFloat64()
			if k == labels[i] {
				v *= 3 // over-confident scores of the true class
			}
			scores.Set(i, k, v)
		}
	}
	idx := make([]int, 0, n/2)
	for i := 0; i < n; i += 2 {
		idx = append(idx, i)
	}
	cal, err := confidence.Fit(scores, labels, idx, 0.2, 7)
	if err != nil {
		t.Fatal(err)
	}
	if cal.Logits {
		t.Fatalf("non-negative scores taken as logits")
	}
	// z of the smoothing Fit chose, and of none; the likelihood scan over T
	// must find Fit's temperature, and no lower likelihood without
	// smoothing (0 is among Fit's choices).
	logs := func(eps float64) *mat.Dense {
		z := mat.NewDense(n, c, nil)
		for i := 0; i < n; i++ {
			var s float64
			for k := 0; k < c; k++ {
				s += scores.At(i, k)
			}
			for k := 0; k < c; k++ {
				z.Set(i, k, math.Log((1-eps)*scores.At(i, k)/s+eps/c))
			}
		}
		return z
	}
	scan := func(z *mat.Dense) (best, bestT float64) {
		best = math.Inf(1)
		for tt := 0.05; tt < 5; tt += 0.0005 {
			if v := nll(z, labels, idx, tt); v < best {
				best, bestT = v, tt
			}
		}
		return best, bestT
	}
	best, bestT := scan(logs(cal.Smoothing))
	if math.Abs(cal.Temperature-bestT) > 1e-3 {
		t.Errorf("temperature %v, the likelihood scan's minimum is at %v", cal.Temperature, bestT)
	}
	if none, _ := scan(logs(0)); none < best-1e-6 {
		t.Errorf("smoothing %v has likelihood %v, none has %v", cal.Smoothing, best, none)
	}
	p, err := cal.Probabilities(scores)
	if err != nil {
		t.Fatal(err)
	}
	// The threshold: the ⌈(m+1)(1−α)⌉-th smallest calibration score.
	var cs []float64
	score := func(i, y int) float64 {
		s := p.At(i, y) * confidence.Uniform(7, uint64(i))
		for k := 0; k < c; k++ {
			if p.At(i, k) > p.At(i, y) {
				s += p.At(i, k)
			}
		}
		return s
	}
	for _, i := range idx {
		cs = append(cs, score(i, labels[i]))
	}
	slices.Sort(cs)
	q := cs[int(math.Ceil(float64(len(cs)+1)*0.8))-1]
	if cal.Conformal.Threshold != q {
		t.Errorf("threshold %v, want %v", cal.Conformal.Threshold, q)
	}
	sets := cal.Sets(p)
	for i := 0; i < n; i++ {
		var want []int
		for y := 0; y < c; y++ {
			if score(i, y) <= q {
				want = append(want, y)
			}
		}
		got := slices.Clone(sets[i])
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("row %d: set %v, want %v", i, sets[i], want)
		}
		row, set, err := cal.Row(scores.RawRowView(i), uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(set, sets[i]) || !slices.Equal(row, p.RawRowView(i)) {
			t.Fatalf("row %d: Row gives %v %v, the matrix forms %v %v", i, row, set, p.RawRowView(i), sets[i])
		}
	}
}

func TestReadRefusesBadValues(t *testing.T) {
	for name, v := range map[string][]float64{
		"temperature": {0, 0, 0.1, 0.5, 10, 0, 0, 1},
		"smoothing":   {1, 1, 0.1, 0.5, 10, 0, 0, 1},
		"alpha":       {1, 0, 1.5, 0.5, 10, 0, 0, 1},
		"threshold":   {1, 0, 0.1, math.NaN(), 10, 0, 0, 1},
		"count":       {1, 0, 0.1, 0.5, 0.5, 0, 0, 1},
		"logits":      {1, 0, 0.1, 0.5, 10, 2, 0, 1},
		"seed":        {1, 0, 0.1, 0.5, 10, 0, 0, 1 << 33},
		"length":      {1, 0.1, 0.5},
	} {
		f := modelfile.New("x", 1)
		f.PutFloat64s("calibration.values", v)
		f2, err := roundTrip(f)
		if err != nil {
			continue // the container refuses it already
		}
		if _, err := confidence.Read(f2); err == nil {
			t.Errorf("%s: %v read without an error", name, v)
		}
	}
}

func roundTrip(f *modelfile.File) (*modelfile.File, error) {
	b, err := f.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return modelfile.Unmarshal(b)
}

// randomSplits fits base (label spreading when nil) on splits of ds
// drawn with seeds 0..splits−1 (perClass training nodes per class, then
// cal calibration nodes, the rest test) and returns the mean test
// coverage and the mean set size.
func randomSplits(t *testing.T, ds *loaders.NodeDataset, base estimator.NodeClassifier, splits, perClass, cal int, alpha float64) (cover, size float64) {
	if base == nil {
		base = &labelprop.Spreading{}
	}
	n := len(ds.Labels)
	for s := 0; s < splits; s++ {
		rng := rand.New(rand.NewPCG(uint64(s), 99))
		perm := rng.Perm(n)
		taken := map[int]int{}
		labels := make([]int, n)
		for i := range labels {
			labels[i] = -1
		}
		var rest []int
		for _, i := range perm {
			if y := ds.Labels[i]; y >= 0 && taken[y] < perClass {
				taken[y]++
				labels[i] = y
			} else if y >= 0 {
				rest = append(rest, i)
			}
		}
		held, test := rest[:cal], rest[cal:]
		for _, i := range held {
			labels[i] = ds.Labels[i]
		}
		m := &confidence.Classifier{Base: base, Alpha: alpha}
		if err := m.FitHeldOut(context.Background(), estimator.Nodes{Graph: ds.Graph}, labels, held); err != nil {
			t.Fatal(err)
		}
		if m.Calibration().Logits {
			t.Fatalf("split %d: the %T's scores were taken as logits: it returned a negative probability", s, base)
		}
		sets, err := m.Sets(context.Background(), estimator.FittedNodes)
		if err != nil {
			t.Fatal(err)
		}
		c, z, err := eval.Coverage(sets, ds.Labels, test)
		if err != nil {
			t.Fatal(err)
		}
		cover += c / float64(splits)
		size += z / float64(splits)
	}
	return cover, size
}

// checkCoverage checks the mean coverage over random splits against the
// split-conformal guarantee: given the calibration set, coverage is
// Beta(n+1−l, l) with l = ⌊(n+1)α⌋ (Vovk 2012), with mean ≥ 1 − α and
// ≤ 1 − α + 1/(n+1) for distinct scores, and the test nodes add binomial
// noise; the mean of many splits is within 4 standard deviations of that
// interval.
func checkCoverage(t *testing.T, name string, cover, size float64, splits, cal, test int, alpha float64) {
	l := math.Floor(float64(cal+1) * alpha)
	a, b := float64(cal)+1-l, l
	v := a*b/((a+b)*(a+b)*(a+b+1)) + alpha*(1-alpha)/float64(test)
	sd := math.Sqrt(v / float64(splits))
	lo, hi := 1-alpha-4*sd, 1-alpha+1/float64(cal+1)+4*sd
	t.Logf("%s: mean coverage %.4f over %d splits (interval [%.4f, %.4f]), mean set size %.2f", name, cover, splits, lo, hi, size)
	if cover < lo || cover > hi {
		t.Errorf("%s: mean coverage %.4f is outside [%.4f, %.4f]", name, cover, lo, hi)
	}
}

func TestCoverageCora(t *testing.T) {
	if testing.Short() {
		t.Skip("100 fits of label spreading on Cora")
	}
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		t.Fatal(err)
	}
	const splits, perClass, cal, alpha = 100, 20, 500, 0.1
	cover, size := randomSplits(t, ds, nil, splits, perClass, cal, alpha)
	checkCoverage(t, "Cora", cover, size, splits, cal, len(ds.Labels)-7*perClass-cal, alpha)
}

func TestCoverageChameleon(t *testing.T) {
	if testing.Short() {
		t.Skip("100 fits of label spreading on chameleon")
	}
	ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, "chameleon_filtered"))
	if err != nil {
		t.Fatal(err)
	}
	const splits, perClass, cal, alpha = 100, 20, 300, 0.1
	cover, size := randomSplits(t, ds, nil, splits, perClass, cal, alpha)
	checkCoverage(t, "chameleon_filtered", cover, size, splits, cal, len(ds.Labels)-5*perClass-cal, alpha)
}

// TestCoverageLinBPChameleon: linearised belief propagation's
// probabilities calibrated on held-out nodes keep the coverage guarantee
// on a heterophilous graph, the class compatibility matrix estimated anew
// on each split's training nodes.
func TestCoverageLinBPChameleon(t *testing.T) {
	if testing.Short() {
		t.Skip("100 fits of belief propagation on chameleon")
	}
	ds, err := loaders.LoadNodeDataset(sharedtest.Data(t, "chameleon_filtered"))
	if err != nil {
		t.Fatal(err)
	}
	const splits, perClass, cal, alpha = 100, 20, 300, 0.1
	cover, size := randomSplits(t, ds, &linbp.Propagation{}, splits, perClass, cal, alpha)
	checkCoverage(t, "LinBP chameleon_filtered", cover, size, splits, cal, len(ds.Labels)-5*perClass-cal, alpha)
}

// ece fits base on the training nodes of a split, calibrates on its
// validation nodes and returns the expected calibration error on its test
// nodes, before and after calibration, and the test accuracy.
func ece(t *testing.T, ds *loaders.NodeDataset, split *loaders.Split) (raw, calibrated, acc float64) {
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range split.Train {
		labels[i] = ds.Labels[i]
	}
	for _, i := range split.Val {
		labels[i] = ds.Labels[i]
	}
	m := &confidence.Classifier{Base: &labelprop.Spreading{}}
	if err := m.FitHeldOut(context.Background(), estimator.Nodes{Graph: ds.Graph}, labels, split.Val); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	_, calibrated, err = eval.Reliability(p, ds.Labels, split.Test, eval.DefaultCalibrationBins)
	if err != nil {
		t.Fatal(err)
	}
	// The uncalibrated probabilities: the base's row-normalised scores.
	base := &labelprop.Spreading{}
	train := slices.Clone(labels)
	for _, i := range split.Val {
		train[i] = -1
	}
	if err := base.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph}, train); err != nil {
		t.Fatal(err)
	}
	s, err := base.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	r, c := s.Dims()
	for i := 0; i < r; i++ {
		row := s.RawRowView(i)
		var sum float64
		for _, v := range row {
			sum += v
		}
		for k := range row {
			if sum == 0 {
				row[k] = 1 / float64(c)
			} else {
				row[k] /= sum
			}
		}
	}
	_, raw, err = eval.Reliability(s, ds.Labels, split.Test, eval.DefaultCalibrationBins)
	if err != nil {
		t.Fatal(err)
	}
	acc, err = eval.Accuracy(estimator.Argmax(p), ds.Labels, split.Test)
	if err != nil {
		t.Fatal(err)
	}
	if acc2, _ := eval.Accuracy(estimator.Argmax(s), ds.Labels, split.Test); acc2 != acc {
		t.Errorf("calibration changed the accuracy: %v, before %v", acc, acc2)
	}
	return raw, calibrated, acc
}

// TestECE checks the expected calibration error on the test nodes of
// Cora's Planetoid split and of tolokers' first published split after
// temperature scaling on the validation nodes (issue #32: ≤ 0.05).
func TestECE(t *testing.T) {
	cora, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		t.Fatal(err)
	}
	raw, cal, acc := ece(t, cora, cora.Split)
	t.Logf("Cora: ECE %.4f uncalibrated, %.4f calibrated; accuracy %.4f", raw, cal, acc)
	if cal > 0.05 {
		t.Errorf("Cora: ECE %.4f after calibration, want ≤ 0.05", cal)
	}
	dir := sharedtest.Data(t, "tolokers")
	tol, err := loaders.LoadNodeDataset(dir)
	if err != nil {
		t.Fatal(err)
	}
	split, err := loaders.ReadSplit(dir+"/split_0.txt", len(tol.Labels))
	if err != nil {
		t.Fatal(err)
	}
	raw, cal, acc = ece(t, tol, split)
	t.Logf("tolokers: ECE %.4f uncalibrated, %.4f calibrated; accuracy %.4f", raw, cal, acc)
	if cal > 0.05 {
		t.Errorf("tolokers: ECE %.4f after calibration, want ≤ 0.05", cal)
	}
}

// TestEvaluate checks the report of a calibration of label spreading on
// Cora's Planetoid split against counts made here.
func TestEvaluate(t *testing.T) {
	ds, err := loaders.LoadNodeDataset("../testdata/cora")
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, len(ds.Labels))
	for i := range labels {
		labels[i] = -1
	}
	for _, i := range ds.Split.Train {
		labels[i] = ds.Labels[i]
	}
	m := &labelprop.Spreading{}
	if err := m.Fit(context.Background(), estimator.Nodes{Graph: ds.Graph}, labels); err != nil {
		t.Fatal(err)
	}
	s, err := m.Predict(context.Background(), estimator.FittedNodes)
	if err != nil {
		t.Fatal(err)
	}
	r, err := confidence.Evaluate(s, ds.Labels, ds.Split.Val, ds.Split.Test, 0.1, 3)
	if err != nil {
		t.Fatal(err)
	}
	hit, size := 0, 0
	for _, i := range ds.Split.Test {
		size += len(r.Sets[i])
		if slices.Contains(r.Sets[i], ds.Labels[i]) {
			hit++
		}
	}
	n := float64(len(ds.Split.Test))
	if r.Tested != len(ds.Split.Test) || r.Coverage != float64(hit)/n || r.SetSize != float64(size)/n {
		t.Errorf("report: %d tested, coverage %v, set size %v; counted %d, %v, %v", r.Tested, r.Coverage, r.SetSize, len(ds.Split.Test), float64(hit)/n, float64(size)/n)
	}
	if !(r.ECEAfter < r.ECEBefore) {
		t.Errorf("ECE %v after calibration, %v before", r.ECEAfter, r.ECEBefore)
	}
	total := 0
	for _, b := range r.Bins {
		total += b.Count
	}
	if total != len(ds.Split.Test) {
		t.Errorf("the reliability bins hold %d nodes, want %d", total, len(ds.Split.Test))
	}
	t.Logf("Cora: coverage %.3f, mean set size %.2f, ECE %.3f -> %.3f, T %.3f, smoothing %v", r.Coverage, r.SetSize, r.ECEBefore, r.ECEAfter, r.Temperature, r.Smoothing)
}
