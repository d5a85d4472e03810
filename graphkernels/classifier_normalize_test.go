package graphkernels

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/modelfile"
	"github.com/gssl/gssl/svm"
)

func requireBitwise(t *testing.T, want, got [][]float64, what string) {
	t.Helper()
	require.Len(t, got, len(want), what)
	for i := range want {
		require.Len(t, got[i], len(want[i]), "%s: graph %d", what, i)
		for j := range want[i] {
			require.Equal(t, math.Float64bits(want[i][j]), math.Float64bits(got[i][j]), "%s: graph %d machine %d: %v vs %v", what, i, j, want[i][j], got[i][j])
		}
	}
}

// TestWLClassifierNormalizeMatchesCosine: with Normalize the classifier is
// the SVM on Cosine{WeisfeilerLehman} — the kernel gssl graphkernel
// evaluates — bit for bit, before and after a round trip, and its
// predictions of the training graphs from the stored features are those of
// the graphs themselves.
func TestWLClassifierNormalizeMatchesCosine(t *testing.T) {
	ctx := context.Background()
	train, labels := shapes(t, []int{4, 5, 6, 8, 9})
	test, _ := shapes(t, []int{7, 10})
	rng := rand.New(rand.NewPCG(5, 1))
	test = append(test, randomGraphs(t, rng, 3, 8, 0.4, 3)...)
	c := &WLClassifier{H: 3, C: 2, Normalize: true}
	require.NoError(t, c.Fit(ctx, train, labels))
	assert.Equal(t, []int{0, 1, 2}, c.Classes())
	assert.Equal(t, len(train), c.TrainingGraphs())

	k := &Cosine{Kernel: &WeisfeilerLehman{H: 3}}
	gram, err := FitGram(ctx, k, train)
	require.NoError(t, err)
	s := &svm.SVC{C: 2}
	require.NoError(t, s.Fit(ctx, gram, labels))
	cross, _, err := k.Cross(ctx, test)
	require.NoError(t, err)
	d, err := s.Decision(cross)
	require.NoError(t, err)
	want := make([][]float64, len(test))
	for i := range want {
		want[i] = d.RawRowView(i)
	}
	wantPred, err := svcClasses(s, cross)
	require.NoError(t, err)

	pred, dec, err := predictDecision(ctx, c, test)
	require.NoError(t, err)
	requireBitwise(t, want, dec, "fitted")
	assert.Equal(t, wantPred, pred)

	b, err := c.MarshalBinary()
	require.NoError(t, err)
	got := &WLClassifier{}
	require.NoError(t, got.UnmarshalBinary(b))
	assert.True(t, got.Normalize)
	p2, d2, err := predictDecision(ctx, got, test)
	require.NoError(t, err)
	requireBitwise(t, want, d2, "read back")
	assert.Equal(t, wantPred, p2)

	fp, fd, err := predictDecision(ctx, got, nil)
	require.NoError(t, err)
	tp, td, err := predictDecision(ctx, c, train)
	require.NoError(t, err)
	requireBitwise(t, td, fd, "training graphs from the stored features")
	assert.Equal(t, tp, fp)

	// A batch of no graphs is no predictions, not an error.
	p0, d0, err := predictDecision(ctx, got, []Graph{})
	require.NoError(t, err)
	assert.Empty(t, p0)
	assert.Empty(t, d0)
}

// TestWLClassifierReadsLayout1: a file of layout version 1 (no
// normalisation) still reads, and one that claims normalisation is refused.
func TestWLClassifierReadsLayout1(t *testing.T) {
	ctx := context.Background()
	train, labels := shapes(t, []int{4, 5, 6})
	c := &WLClassifier{H: 1}
	require.NoError(t, c.Fit(ctx, train, labels))
	f, err := c.ModelFile()
	require.NoError(t, err)
	f.KindVersion = 1
	b, err := f.MarshalBinary()
	require.NoError(t, err)
	got := &WLClassifier{}
	require.NoError(t, got.UnmarshalBinary(b))
	assert.False(t, got.Normalize)

	c.Normalize = true
	require.NoError(t, c.Fit(ctx, train, labels))
	f, err = c.ModelFile()
	require.NoError(t, err)
	f.KindVersion = 1
	b, err = f.MarshalBinary()
	require.NoError(t, err)
	g, err := modelfile.Unmarshal(b)
	require.NoError(t, err)
	assert.ErrorContains(t, (&WLClassifier{}).ReadModelFile(g), "layout version 1")
}
