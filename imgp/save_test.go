package imgp

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/modelfile"
)

// saveProblem is a small circle fit and query points near and off it.
func saveProblem(t *testing.T) (*Regressor, *mat.Dense) {
	x, theta, _ := noisyCircle(t, 9, 60, 3, 5)
	y := make([]float64, 60)
	for i := range y {
		y[i] = math.NaN()
		if i%3 == 0 {
			y[i] = math.Cos(theta[i])
		}
	}
	r := &Regressor{K: 5, Eigenpairs: 12, Iterations: 2, Seed: 3, Distance: MeanNeighbour,
		Euclidean: &gp.Regressor{Covariance: gp.SquaredExponential, Fixed: true}}
	require.NoError(t, r.Fit(context.Background(), x, y))
	rng := rand.New(rand.NewPCG(4, 4))
	q := mat.NewDense(8, 3, nil)
	for i := 0; i < 8; i++ {
		th, s := 2*math.Pi*rng.Float64(), 1+0.3*float64(i%3)
		q.SetRow(i, []float64{s * math.Cos(th), s * math.Sin(th), 0.05 * rng.NormFloat64()})
	}
	return r, q
}

func predictionBits(t *testing.T, r *Regressor, q *mat.Dense) []float64 {
	t.Helper()
	p, err := r.Posterior(context.Background(), q)
	require.NoError(t, err)
	nodes, err := r.Predict(context.Background(), nil)
	require.NoError(t, err)
	pq, err := r.Predict(context.Background(), q)
	require.NoError(t, err)
	var out []float64
	for _, v := range [][]float64{p.Mean, p.Variance, p.Observation, p.Gamma, p.EuclideanMean, nodes.Mean, nodes.Variance, pq.Mean, pq.Variance, r.NodeMean()} {
		out = append(out, v...)
	}
	s, err := r.Sample(context.Background(), q, 2, 5)
	require.NoError(t, err)
	return append(out, s.RawMatrix().Data...)
}

func sameBits(t *testing.T, what string, a, b []float64) {
	t.Helper()
	require.Len(t, b, len(a), what)
	for i := range a {
		require.Equal(t, math.Float64bits(a[i]), math.Float64bits(b[i]), "%s[%d]: %v vs %v", what, i, a[i], b[i])
	}
}

func TestRegressorModelRoundTrip(t *testing.T) {
	r, q := saveProblem(t)
	want := predictionBits(t, r, q)
	b, err := r.MarshalBinary()
	require.NoError(t, err)
	got := &Regressor{}
	require.NoError(t, got.UnmarshalBinary(b))
	sameBits(t, "after a round trip", want, predictionBits(t, got, q))
	assert.Equal(t, r.Hyperparameters(), got.Hyperparameters())
	assert.Equal(t, r.Info(), got.Info())
	assert.Equal(t, math.Float64bits(r.Variance()), math.Float64bits(got.Variance()))
	assert.Equal(t, []any{r.K, r.Eigenpairs, r.Iterations, r.Seed, r.Distance, r.Procedure},
		[]any{got.K, got.Eigenpairs, got.Iterations, got.Seed, got.Distance, got.Procedure})
	b2, err := got.MarshalBinary()
	require.NoError(t, err)
	assert.True(t, bytes.Equal(b, b2), "a read model writes the same bytes")

	// Predict is Posterior in the targets' units.
	p, _ := r.Posterior(context.Background(), q)
	pp, err := got.Predict(context.Background(), q)
	require.NoError(t, err)
	sc := r.TargetScaling()
	assert.NotEqual(t, Scaling{Scale: 1}, sc, "the targets were standardised")
	for i := range p.Mean {
		assert.InDelta(t, sc.Mean+sc.Scale*p.Mean[i], pp.Mean[i], 1e-12)
		assert.InDelta(t, sc.Scale*sc.Scale*p.Variance[i], pp.Variance[i], 1e-12)
	}
	_, err = got.Predict(context.Background(), mat.NewDense(1, 1, []float64{1}))
	assert.ErrorContains(t, err, "1 coordinates")

	rf, err := got.Refined(context.Background())
	require.NoError(t, err)
	rw, _ := r.Refined(context.Background())
	sameBits(t, "Refined", predictionBits(t, rw, q), predictionBits(t, rf, q))
	_, err = got.LogMarginalLikelihood(context.Background(), LikelihoodSettings{})
	assert.ErrorContains(t, err, "refit to evaluate it")

	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(r))
	viaGob := &Regressor{}
	require.NoError(t, gob.NewDecoder(&buf).Decode(viaGob))
	sameBits(t, "via gob", want, predictionBits(t, viaGob, q))
	_, err = json.Marshal(r)
	assert.ErrorIs(t, err, estimator.ErrJSON)

	for i := 0; i < len(b); i += 97 {
		d := bytes.Clone(b)
		d[i] ^= 0x21
		require.Error(t, (&Regressor{}).UnmarshalBinary(d), "byte %d", i)
	}
	require.Error(t, (&Regressor{}).UnmarshalBinary(b[:len(b)-1]))

	_, err = (&Regressor{}).MarshalBinary()
	assert.ErrorIs(t, err, estimator.ErrNotFitted)
	_, err = (&Regressor{}).Predict(context.Background(), q)
	assert.ErrorIs(t, err, ErrNotFitted)
	_, err = (&Regressor{}).Predict(context.Background(), nil)
	assert.ErrorIs(t, err, ErrNotFitted)
}

func TestFitMatchesFitIndexed(t *testing.T) {
	x, theta, _ := noisyCircle(t, 2, 40, 3, 4)
	y := make([]float64, 40)
	var lab []int
	var ty []float64
	for i := range y {
		y[i] = math.NaN()
		if i%4 == 1 {
			y[i] = math.Sin(theta[i])
			lab, ty = append(lab, i), append(ty, y[i])
		}
	}
	opts := Regressor{K: 4, Eigenpairs: 8, Iterations: -1, Euclidean: &gp.Regressor{Fixed: true}}
	a, b := opts, opts
	require.NoError(t, a.Fit(context.Background(), x, y))
	require.NoError(t, b.FitIndexed(context.Background(), x, lab, ty))
	ma, _ := a.Predict(context.Background(), nil)
	mb, _ := b.Predict(context.Background(), nil)
	sameBits(t, "Fit vs FitIndexed", mb.Mean, ma.Mean)
	assert.ErrorContains(t, a.Fit(context.Background(), x, y[1:]), "give one per point")
	assert.Equal(t, 3, a.Features())
	assert.Equal(t, 40, a.Nodes())
}

// TestModelNewProcess: a model saved here and read by a new process
// predicts bitwise the same.
func TestModelNewProcess(t *testing.T) {
	if os.Getenv("GSSL_IMGP_MODEL") != "" {
		return
	}
	r, q := saveProblem(t)
	f, err := r.ModelFile()
	require.NoError(t, err)
	dir := t.TempDir()
	path, out := filepath.Join(dir, "m.gssl"), filepath.Join(dir, "pred.bin")
	require.NoError(t, modelfile.WriteFile(path, f))
	cmd := exec.Command(os.Args[0], "-test.run=^TestModelNewProcessChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GSSL_IMGP_MODEL="+path, "GSSL_IMGP_OUT="+out)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	var got []float64
	for i := 0; i+8 <= len(raw); i += 8 {
		got = append(got, math.Float64frombits(binary.LittleEndian.Uint64(raw[i:])))
	}
	sameBits(t, "in a new process", predictionBits(t, r, q), got)
}

func TestModelNewProcessChild(t *testing.T) {
	path := os.Getenv("GSSL_IMGP_MODEL")
	if path == "" {
		t.Skip("run by TestModelNewProcess")
	}
	f, err := modelfile.ReadFile(path)
	require.NoError(t, err)
	r := &Regressor{}
	require.NoError(t, r.ReadModelFile(f))
	_, q := saveProblem(t) // the same query points
	var raw []byte
	for _, v := range predictionBits(t, r, q) {
		raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(v))
	}
	require.NoError(t, os.WriteFile(os.Getenv("GSSL_IMGP_OUT"), raw, 0o644))
}

// TestScalingIsStandardisation: the default fit is the fit of the
// standardised targets (mean and population standard deviation of the
// known ones, computed here independently) with the targets as they are,
// its predictions put back in the targets' units.
func TestScalingIsStandardisation(t *testing.T) {
	x, theta, _ := noisyCircle(t, 2, 40, 3, 4)
	y := make([]float64, 40)
	var known []float64
	for i := range y {
		y[i] = math.NaN()
		if i%4 == 1 {
			y[i] = 10 + 3*math.Sin(theta[i])
			known = append(known, y[i])
		}
	}
	var mean, ss float64
	for _, v := range known {
		mean += v / float64(len(known))
	}
	for _, v := range known {
		ss += (v - mean) * (v - mean)
	}
	scale := math.Sqrt(ss / float64(len(known)))
	std := make([]float64, len(y))
	for i, v := range y {
		std[i] = (v - mean) / scale
	}
	base := &Regressor{K: 4, Eigenpairs: 8, Iterations: 3, Euclidean: &gp.Regressor{Fixed: true}}
	def, ident := base.Clone(), base.Clone()
	ident.Scaling = &Scaling{Scale: 1}
	require.NoError(t, def.Fit(context.Background(), x, y))
	require.NoError(t, ident.Fit(context.Background(), x, std))
	assert.InDelta(t, mean, def.TargetScaling().Mean, 1e-12)
	assert.InDelta(t, scale, def.TargetScaling().Scale, 1e-12)
	for _, q := range []*mat.Dense{nil, mat.NewDense(2, 3, []float64{1, 0, 0, 0, 1.2, 0.1})} {
		a, err := def.Predict(context.Background(), q)
		require.NoError(t, err)
		b, err := ident.Predict(context.Background(), q)
		require.NoError(t, err)
		for i := range a.Mean {
			assert.InDelta(t, mean+scale*b.Mean[i], a.Mean[i], 1e-9)
			assert.InDelta(t, scale*scale*b.Variance[i], a.Variance[i], 1e-9)
		}
	}
	bad := base.Clone()
	bad.Scaling = &Scaling{Scale: 0}
	assert.ErrorContains(t, bad.Fit(context.Background(), x, y), "Scaling")
}
