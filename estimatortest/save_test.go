package estimatortest

import (
	"bytes"
	"encoding/gob"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// savedCentroid is centroid with a file format, to exercise the check that
// reads a model back in a new process.
type savedCentroid struct{ centroid }

func (m *savedCentroid) Kind() string { return "centroid" }

func (m *savedCentroid) Clone() *savedCentroid { return &savedCentroid{*m.centroid.Clone()} }

type centroidFile struct {
	Shrink, Bias float64
	Rows, Cols   int
	Means        []float64
}

func (m *savedCentroid) MarshalBinary() ([]byte, error) {
	if m.means == nil {
		return nil, estimator.NotFitted("savedCentroid.MarshalBinary")
	}
	r, c := m.means.Dims()
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(centroidFile{m.Shrink, m.Bias, r, c, m.means.RawMatrix().Data})
	return b.Bytes(), err
}

func (m *savedCentroid) UnmarshalBinary(data []byte) error {
	var f centroidFile
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&f); err != nil {
		return err
	}
	if f.Rows*f.Cols != len(f.Means) {
		return errors.New("centroid: damaged file")
	}
	m.Shrink, m.Bias, m.means = f.Shrink, f.Bias, mat.NewDense(f.Rows, f.Cols, f.Means)
	return nil
}

func TestCheckReadsBackInANewProcess(t *testing.T) {
	c := centroidCase("")
	c.New = func() estimator.Estimator { return &savedCentroid{centroid{Shrink: 0.1, Bias: 2}} }
	Check(t, c)
}
