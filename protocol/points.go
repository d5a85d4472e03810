package protocol

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/loaders"
)

// PointTask is a supervised problem on points in R^d: fit on the rows of X
// with their classes Y (or regression targets Targets), predict the rows of
// XTest and score the predictions against the true values known. It is
// the train/test setting of the point models (krr, svm).
type PointTask struct {
	Name string
	// X are the training points, XTest the points to predict (nil when
	// there are none).
	X, XTest *mat.Dense
	// ClassNames names the classes 0..C−1; nil for regression.
	ClassNames []string
	// Y is the class of every row of X (classification), Targets its
	// target (regression).
	Y       []int
	Targets []float64
	// Truth is the class of every row of XTest: −1 unknown, −2 a class no
	// training point has (a prediction of it is always wrong).
	// TruthTargets is the target of every row of XTest, NaN unknown.
	Truth        []int
	TruthTargets []float64
	// IDs and Sets are the id of every row of XTest and the part it
	// comes from ("features": a point of the training file without a
	// value; "test-features"; "test": the test part of an image set).
	IDs, Sets []string
}

// Regression reports whether t has regression targets (no classes).
func (t *PointTask) Regression() bool { return t.ClassNames == nil }

// NewPointTask splits the user's points s: the rows with a value train,
// the rows without one and every test point are predicted. labels says
// the values are classes (numbered as loaders.ValueColumn.Classes does, a
// test class no training point has is −2); otherwise s.Targets are used.
func NewPointTask(s *loaders.PointSet, labels bool) (*PointTask, error) {
	if s == nil || s.X == nil {
		return nil, errors.New("protocol: no points")
	}
	n, _ := s.X.Dims()
	if len(s.Values) != n || len(s.IDs) != n || (!labels && len(s.Targets) != n) {
		return nil, fmt.Errorf("protocol: %s: values or ids do not match the %d points", s.Name, n)
	}
	var known, unknown []int
	for i, v := range s.Values {
		if v == "" {
			unknown = append(unknown, i)
		} else {
			known = append(known, i)
		}
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("protocol: %s: no point has a value", s.Name)
	}
	t := &PointTask{Name: s.Name, X: Rows(s.X, known)}
	xt := []*mat.Dense{Rows(s.X, unknown)}
	for _, i := range unknown {
		t.IDs, t.Sets = append(t.IDs, s.IDs[i]), append(t.Sets, "features")
	}
	m := 0
	if s.XTest != nil {
		xt = append(xt, s.XTest)
		m, _ = s.XTest.Dims()
		for i := 0; i < m; i++ {
			t.IDs, t.Sets = append(t.IDs, s.TestIDs[i]), append(t.Sets, "test-features")
		}
	}
	t.XTest = stackRows(xt)
	if !labels {
		for _, i := range known {
			t.Targets = append(t.Targets, s.Targets[i])
		}
		t.TruthTargets = make([]float64, len(unknown)+m)
		for i := range t.TruthTargets {
			t.TruthTargets[i] = math.NaN()
		}
		copy(t.TruthTargets[len(unknown):], s.TestTargets)
		return t, nil
	}
	testVals := make([]string, len(unknown)+m)
	copy(testVals[len(unknown):], s.TestValues)
	train := make([]string, len(known))
	for p, i := range known {
		train[p] = s.Values[i]
	}
	t.setClasses(train, testVals)
	return t, nil
}

// setClasses numbers the training classes and maps the test values onto
// them (−1 unknown, −2 a class no training point has).
func (t *PointTask) setClasses(train, test []string) {
	col := loaders.ValueColumn{Values: train}
	t.Y, t.ClassNames = col.Classes()
	index := map[string]int{}
	for c, name := range t.ClassNames {
		index[name] = c
	}
	t.Truth = make([]int, len(test))
	for i, v := range test {
		t.Truth[i] = -1
		if v == "" {
			continue
		}
		if c, err := strconv.ParseInt(v, 10, 64); err == nil {
			v = strconv.FormatInt(c, 10) // as Classes spells an integer class
		}
		c, ok := index[v]
		if !ok {
			c = -2
		}
		t.Truth[i] = c
	}
}

// ReadImageTask reads an image folder with origin.txt
// (loaders.ReadImageSet): its train part trains and its test part is
// predicted, pixels/255 as features and the labels as classes (numbered in
// ascending order). train > 0 (test > 0) keeps only the first train (test)
// images of a part; 0 keeps all.
func ReadImageTask(dir string, train, test int) (*PointTask, error) {
	if train < 0 || test < 0 {
		return nil, fmt.Errorf("protocol: train=%d, test=%d is invalid: each must be ≥ 0 (0: all)", train, test)
	}
	set, err := loaders.ReadImageSet(dir, 0)
	if err != nil {
		return nil, err
	}
	if set.Train == nil {
		return nil, fmt.Errorf("protocol: %s: no origin.txt (\"train j\" / \"test j\" per image) to split train and test", dir)
	}
	tr, te := set.Train, set.Test
	if len(tr) == 0 || len(te) == 0 {
		return nil, fmt.Errorf("protocol: %s: origin.txt has %d train and %d test images; both parts are needed", dir, len(tr), len(te))
	}
	if set.Labels == nil {
		return nil, fmt.Errorf("protocol: %s: no labels.txt: the images need their classes", dir)
	}
	if train > 0 && train < len(tr) {
		tr = tr[:train]
	}
	if test > 0 && test < len(te) {
		te = te[:test]
	}
	vals := make([]string, len(set.Labels))
	for i, l := range set.Labels {
		vals[i] = strconv.Itoa(l)
	}
	col := loaders.ValueColumn{Values: vals}
	cls, names := col.Classes()
	t := &PointTask{Name: dir, X: set.Images.Dense(tr), XTest: set.Images.Dense(te), ClassNames: names}
	for _, i := range tr {
		t.Y = append(t.Y, cls[i])
	}
	for _, i := range te {
		t.Truth = append(t.Truth, cls[i])
		t.IDs, t.Sets = append(t.IDs, strconv.Itoa(i)), append(t.Sets, "test")
	}
	return t, nil
}

// FirstRowsTask is the classification task whose first train rows of x
// train and the others are predicted; labels are integer classes ≥ 0,
// numbered in ascending order. train must be in [2, n).
func FirstRowsTask(name string, x *mat.Dense, labels []int, train int) (*PointTask, error) {
	if x == nil {
		return nil, errors.New("protocol: no points")
	}
	n, dim := x.Dims()
	if len(labels) != n {
		return nil, fmt.Errorf("protocol: %d labels for %d points", len(labels), n)
	}
	if train < 2 || train >= n {
		return nil, fmt.Errorf("protocol: train=%d is invalid: it must be in [2, %d) for %d points", train, n, n)
	}
	vals := make([]string, n)
	for i, l := range labels {
		if l < 0 {
			return nil, fmt.Errorf("protocol: point %d has class %d; classes must be ≥ 0", i, l)
		}
		vals[i] = strconv.Itoa(l)
	}
	col := loaders.ValueColumn{Values: vals}
	cls, names := col.Classes()
	t := &PointTask{Name: name, X: mat.DenseCopyOf(x.Slice(0, train, 0, dim)), XTest: mat.DenseCopyOf(x.Slice(train, n, 0, dim)),
		Y: cls[:train], Truth: cls[train:], ClassNames: names}
	for i := train; i < n; i++ {
		t.IDs, t.Sets = append(t.IDs, strconv.Itoa(i)), append(t.Sets, "test")
	}
	return t, nil
}

// Rows copies the rows idx of x (a 0 × d matrix when idx is empty).
func Rows(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(max(len(idx), 1), d, nil)
	if len(idx) == 0 {
		return out.Slice(0, 0, 0, d).(*mat.Dense)
	}
	for p, i := range idx {
		copy(out.RawRowView(p), x.RawRowView(i))
	}
	return out
}

// stackRows stacks matrices with the same columns; nil when they have no
// rows.
func stackRows(ms []*mat.Dense) *mat.Dense {
	rows, d := 0, 0
	for _, m := range ms {
		r, c := m.Dims()
		rows, d = rows+r, c
	}
	if rows == 0 {
		return nil
	}
	out := mat.NewDense(rows, d, nil)
	at := 0
	for _, m := range ms {
		r, _ := m.Dims()
		for i := 0; i < r; i++ {
			copy(out.RawRowView(at), m.RawRowView(i))
			at++
		}
	}
	return out
}
