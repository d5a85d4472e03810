package loaders

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadSVMLight(t *testing.T) {
	var want struct {
		Shape            []int
		Dense            []float64
		Classes, Targets []float64
	}
	require.NoError(t, json.Unmarshal(expectedFormats(t)["svm"], &want))
	for name, c := range map[string]struct {
		zeroBased bool
		labels    []float64
	}{
		"svm_classes.txt":            {false, want.Classes},
		"svm_qid.txt":                {false, want.Classes},
		"svm_targets_zero_based.txt": {true, want.Targets},
	} {
		s, y, err := ReadSVMLight(formatsFile(name), c.zeroBased)
		require.NoError(t, err, name)
		checkSparse(t, s)
		assert.Equal(t, c.labels, y, name)
		require.Equal(t, want.Shape[0], s.Rows, name)
		// The last column is empty in no row here, so max index + 1 is the
		// width sklearn wrote.
		require.Equal(t, want.Shape[1], s.Cols, name)
		assert.Equal(t, want.Dense, s.Dense(nil).RawMatrix().Data, name)
	}
	s, y, err := ReadSVMLight(writeFile(t, t.TempDir(), "x.svm.gz", gzipped(t, []byte("-1 1:0.5 3:2 # c\r\n+1 2:1\n\n"))), false)
	require.NoError(t, err)
	assert.Equal(t, []float64{-1, 1}, y)
	assert.Equal(t, []float64{0.5, 0, 2, 0, 1, 0}, s.Dense(nil).RawMatrix().Data)
}

func TestReadSVMLightErrors(t *testing.T) {
	for content, want := range map[string]struct {
		line int
		msg  string
	}{
		"1 1:1\n0 0:1\n":     {2, "feature index 0 in a 1-based file"},
		"1 2:1 1:1\n":        {1, "feature index 1 after 2: indices must be strictly ascending"},
		"1 2:1 2:1\n":        {1, "feature index 2 after 2"},
		"1,2 1:1\n":          {1, `multi-label line (labels "1,2") is not supported`},
		"1:1 2:1\n":          {1, `want a label before the features, got "1:1"`},
		"x 1:1\n":            {1, `label "x" is not a number`},
		"nan 1:1\n":          {1, "label nan is not finite"},
		"1 1:inf\n":          {1, "feature 1: value inf is not finite"},
		"1 1\n":              {1, `want "index:value", got "1"`},
		"1 1:1 qid:3\n":      {1, "qid:3 must come right after the label"},
		"1 qid:x 1:1\n":      {1, `qid "x" is not an integer`},
		"1 99999999999:1\n":  {1, "feature index 99999999999 is too large"},
		"1 -1:1\n":           {1, "feature index -1 is negative"},
		"1 1:1\n\n0 1:2\n":   {2, "blank line before more data"},
		"# only a comment\n": {0, "no samples"},
	} {
		_, _, err := ReadSVMLight(tempFile(t, "x.svm", content), false)
		requireParseError(t, err, want.line, want.msg)
	}
	_, _, err := ReadSVMLight(tempFile(t, "x.svm", "1 0:1\n"), true)
	require.NoError(t, err)
}
