package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/svm"
)

func TestSVMJSONOnTwoMoons(t *testing.T) {
	var out, errw bytes.Buffer
	opts := svmOptions{N: 600, Noise: 0.15, Kernel: "gaussian", Sigma: 0.5, C: 1, JSON: true}
	require.NoError(t, runSVM(context.Background(), opts, &out, &errw))
	obj := decodeOne(t, out.Bytes())
	// Course ch. 4: about 99 % with the Gaussian kernel.
	assert.GreaterOrEqual(t, obj["accuracy"].(float64), 0.97)
	assert.Equal(t, 300.0, obj["train"])
	assert.Equal(t, 300.0, obj["test"])
	assert.Greater(t, obj["support_vectors"].(float64), 0.0)
	assert.Contains(t, obj, "fit_seconds")
}

func TestSVMOnCSV(t *testing.T) {
	x, labels, err := svm.TwoMoons(200, 0.1, 3)
	require.NoError(t, err)
	var b bytes.Buffer
	b.WriteString("x,y,class\n")
	for i, l := range labels {
		b.WriteString(formatRow(x.At(i, 0), x.At(i, 1), l))
	}
	p := filepath.Join(t.TempDir(), "moons.csv")
	require.NoError(t, os.WriteFile(p, b.Bytes(), 0o644))
	var out bytes.Buffer
	require.NoError(t, runSVM(context.Background(), svmOptions{CSV: p, Train: 150, Kernel: "gaussian", Sigma: 0.5, C: 10}, &out, &out))
	assert.Contains(t, out.String(), "train 150, test 50")
	assert.Contains(t, out.String(), "test accuracy")

	bad := filepath.Join(t.TempDir(), "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("0.1,0.2,1\n0.3,0.1,0.5\n"), 0o644))
	err = runSVM(context.Background(), svmOptions{CSV: bad, Kernel: "linear", C: 1}, &out, &out)
	require.ErrorContains(t, err, "data row 2: class 0.5 in the last column is not a non-negative integer")
	err = runSVM(context.Background(), svmOptions{N: 50, Noise: 0.1, Kernel: "poly", C: 1}, &out, &out)
	require.ErrorContains(t, err, `--kernel "poly" is invalid`)
	err = runSVM(context.Background(), svmOptions{N: 50, Noise: 0.1, Kernel: "gaussian", Sigma: 0, C: 1}, &out, &out)
	require.ErrorContains(t, err, "sigma=0 is invalid")
	err = runSVM(context.Background(), svmOptions{N: 50, Noise: 0.1, Kernel: "linear", C: 0}, &out, &out)
	require.ErrorContains(t, err, "--C 0 is invalid")
	err = runSVM(context.Background(), svmOptions{N: 50, Noise: 0.1, Kernel: "linear", C: 1, Train: 50}, &out, &out)
	require.ErrorContains(t, err, "--train 50 is invalid")
}

func formatRow(a, b float64, l int) string {
	return fmtFloat(a) + "," + fmtFloat(b) + "," + fmtFloat(float64(l)) + "\n"
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
