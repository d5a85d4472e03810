package protocol

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/svm"
)

// The data sources of the point models (gssl falkon, svm, gp and imgp):
// the user's files of points, an image folder or generated data, each
// read into the task its protocol runs. The tags are the command line's
// flags, and the errors name the fields by them.

// PointFiles are the user's points: a file of points (one per row),
// further points to predict and an id column; their values (one class or
// target per point) are a LabelFiles or a TargetFiles.
type PointFiles struct {
	Features     string `flag:"features"`
	TestFeatures string `flag:"test-features"`
	IDs          string `flag:"ids"`
	// Record, when set, sees how each file was read.
	Record func(...loaders.TableReport)
}

// LabelFiles are one class per point and per test point.
type LabelFiles struct {
	Labels     string `flag:"labels"`
	TestLabels string `flag:"test-labels"`
}

// TargetFiles are one regression target per point and per test point.
type TargetFiles struct {
	Targets     string `flag:"targets"`
	TestTargets string `flag:"test-targets"`
}

// Given reports whether a file of points is named.
func (in PointFiles) Given() bool { return in.Features != "" || in.TestFeatures != "" }

// Given reports whether a labels file is named.
func (l LabelFiles) Given() bool { return l.Labels != "" || l.TestLabels != "" }

// Given reports whether a targets file is named.
func (t TargetFiles) Given() bool { return t.Targets != "" || t.TestTargets != "" }

// Read reads the points with the values of the option what (labels or
// targets) and of test-what (loaders.ReadPointSet).
func (in PointFiles) Read(what, values, testValues string) (*loaders.PointSet, error) {
	switch {
	case in.Features == "":
		return nil, fmt.Errorf("--features is needed with --%s, --test-features or --test-%s", what, what)
	case values == "":
		return nil, fmt.Errorf("--%s is needed with --features: one value per point (blank for the points to predict)", what)
	case testValues != "" && in.TestFeatures == "":
		return nil, fmt.Errorf("--test-%s needs --test-features", what)
	}
	s, err := loaders.ReadPointSet(loaders.PointFiles{Features: in.Features, Values: values, TestFeatures: in.TestFeatures,
		TestValues: testValues, IDColumn: in.IDs, Labels: what == "labels"})
	var fe *loaders.PointFileError
	if errors.As(err, &fe) {
		flag := map[string]string{"Features": "features", "Values": what, "TestFeatures": "test-features", "TestValues": "test-" + what}[fe.Field]
		return nil, fmt.Errorf("--%s: %w", flag, fe.Err)
	}
	if err == nil && in.Record != nil {
		in.Record(s.Reports...)
	}
	return s, err
}

// KRRData is the data of kernel ridge regression (gssl falkon): an image
// folder with origin.txt (its first TrainImages and TestImages, 0: all),
// or the user's points with classes (Labels) or targets.
type KRRData struct {
	Points      PointFiles
	Labels      LabelFiles
	Targets     TargetFiles
	Images      string `flag:"images"`
	TrainImages int    `flag:"train-images"`
	TestImages  int    `flag:"test-images"`
}

// Load reads the one data source d names.
func (d KRRData) Load() (*PointTask, error) {
	if d.TrainImages < 0 || d.TestImages < 0 {
		return nil, fmt.Errorf("--train-images %d / --test-images %d is invalid: each must be ≥ 0 (0: all)", d.TrainImages, d.TestImages)
	}
	user := d.Points.Given() || d.Labels.Given() || d.Targets.Given()
	switch {
	case user && d.Images != "":
		return nil, errors.New("give either --images or --features with --labels/--targets")
	case !user && d.Images == "":
		return nil, errors.New("no data: give --features FILE with --labels FILE (classes) or --targets FILE (regression), or --images DIR (an image folder with origin.txt)")
	case d.Images != "":
		t, err := ReadImageTask(d.Images, d.TrainImages, d.TestImages)
		return t, withOption("images", err)
	case d.TrainImages != 0 || d.TestImages != 0:
		return nil, errors.New("--train-images and --test-images apply to --images")
	case d.Labels.Given() && d.Targets.Given():
		return nil, errors.New("give --labels (classification) or --targets (regression), not both")
	}
	what, vals, test := "labels", d.Labels.Labels, d.Labels.TestLabels
	if d.Targets.Given() {
		what, vals, test = "targets", d.Targets.Targets, d.Targets.TestTargets
	}
	p, err := d.Points.Read(what, vals, test)
	if err != nil {
		return nil, err
	}
	return NewPointTask(p, what == "labels")
}

// SVMData is the data of the support vector machine (gssl svm): the
// user's points with their classes, a CSV file of labelled points or Moons
// two-moons points (svm.TwoMoons), the last two split into their first
// TrainPoints rows (0: half) and the rest.
type SVMData struct {
	Points      PointFiles
	Labels      LabelFiles
	CSV         string  `flag:"csv"`
	Moons       int     `flag:"moons"`
	Noise       float64 `flag:"noise"`
	Seed        uint64  `flag:"seed"`
	TrainPoints int     `flag:"train-points"`
}

// Load reads or draws the points, refusing kernel matrices above budget
// (CheckSVMMemory; for two moons before they are drawn).
func (d SVMData) Load(budget memlimit.Budget) (*PointTask, error) {
	if d.Points.Given() || d.Labels.Given() {
		if d.CSV != "" {
			return nil, errors.New("give either --features/--labels or --csv")
		}
		p, err := d.Points.Read("labels", d.Labels.Labels, d.Labels.TestLabels)
		if err != nil {
			return nil, err
		}
		t, err := NewPointTask(p, true)
		if err == nil && t.XTest == nil {
			return nil, errors.New("nothing to predict: give rows with a blank label or --test-features")
		}
		return t, t.checkSVM(err, budget)
	}
	var x *mat.Dense
	var labels []int
	var err error
	name := d.CSV
	if d.CSV == "" {
		train := int64(d.TrainPoints)
		if train <= 0 {
			train = int64(d.Moons / 2)
		}
		if err := CheckSVMMemory(budget, train, int64(d.Moons)-train); err != nil {
			return nil, err
		}
		x, labels, err = svm.TwoMoons(d.Moons, d.Noise, d.Seed)
		name = fmt.Sprintf("two-moons(n=%d, noise=%g, seed=%d)", d.Moons, d.Noise, d.Seed)
	} else {
		x, labels, err = loaders.ReadLabelledPoints(d.CSV)
	}
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	train := d.TrainPoints
	if train == 0 {
		train = n / 2
	}
	if train < 2 || train >= n {
		return nil, fmt.Errorf("--train-points %d is invalid: it must be in [2, %d) for %d points (0 means half)", d.TrainPoints, n, n)
	}
	t, err := FirstRowsTask(name, x, labels, train)
	return t, t.checkSVM(err, budget)
}

// checkSVM refuses, unless err is already set, the SVM's kernel matrices
// of t above budget.
func (t *PointTask) checkSVM(err error, budget memlimit.Budget) error {
	if err != nil {
		return err
	}
	return CheckSVMMemory(budget, int64(rowCount(t.X)), int64(rowCount(t.XTest)))
}

// CheckSVMMemory refuses the dense kernel matrices of n training and m
// predicted points above budget: K_train as a dense and a symmetric copy,
// and the m × n cross matrix.
func CheckSVMMemory(budget memlimit.Budget, n, m int64) error {
	return budget.Check(8*(2*n*n+m*n), fmt.Sprintf("the dense kernel matrices of %d training and %d predicted points", n, m),
		"train on fewer points (--train-points), or use gssl falkon (Nyström kernel ridge regression, memory n·M)")
}

// RegressionData is the data of gp, imgp and imgp sweep: the user's
// points with their targets, an image regression folder or the synthetic
// curve.
type RegressionData struct {
	Points    PointFiles
	Targets   TargetFiles
	Images    string `flag:"images"`
	Synthetic int    `flag:"synthetic"`
	Seed      uint64 `flag:"seed"`
}

// Load reads the one data source d names.
func (d RegressionData) Load() (*RegressionTask, error) {
	user := d.Points.Given() || d.Targets.Given()
	sources := 0
	for _, given := range []bool{d.Images != "", d.Synthetic != 0, user} {
		if given {
			sources++
		}
	}
	switch {
	case sources == 0:
		return nil, errors.New("no data: give --features FILE --targets FILE (your points), --images DIR (a train/test image folder) or --synthetic N")
	case sources > 1:
		return nil, errors.New("give one of --features/--targets, --images and --synthetic")
	case d.Synthetic != 0:
		t, err := SyntheticRegression(d.Synthetic, d.Seed)
		if err != nil {
			return nil, fmt.Errorf("--synthetic %d is invalid: it must be in [2, %d]", d.Synthetic, imgp.MaxCurvePoints)
		}
		return t, nil
	case d.Images != "":
		t, err := ReadImageRegression(d.Images)
		return t, withOption("images", err)
	}
	p, err := d.Points.Read("targets", d.Targets.Targets, d.Targets.TestTargets)
	if err != nil {
		return nil, err
	}
	t, err := NewRegressionTask(p)
	return t, withOption("targets", err)
}

// LabelledRegression is RegressionData with the labelled points of a
// benchmark: those of the file Subset, or a seeded fraction Labelled. The
// user's points are labelled by their targets; LabelledGiven says
// Labelled was set rather than left at its default, which they refuse.
type LabelledRegression struct {
	RegressionData
	Labelled      float64 `flag:"labelled"`
	Subset        string  `flag:"subset"`
	LabelledGiven bool
}

// Load loads the data and chooses its labelled points, refusing an exact
// GP on them whose dense matrices pass budget (CheckGPMemory).
func (d LabelledRegression) Load(budget memlimit.Budget) (*RegressionTask, error) {
	if d.Points.Given() && d.LabelledGiven {
		return nil, errors.New("--labelled applies to --images and --synthetic; with --targets the labelled points are those with a target")
	}
	data, err := d.RegressionData.Load()
	switch {
	case err != nil:
		return nil, err
	case data.User && d.Subset != "":
		return nil, errors.New("--subset applies to --images and --synthetic; with --targets the labelled points are those with a target")
	case !data.User && d.Subset == "" && !(d.Labelled > 0 && d.Labelled <= 1):
		return nil, fmt.Errorf("--labelled %v is invalid: it must be a fraction in (0, 1]", d.Labelled)
	case !data.User:
		if err := data.Label(d.Subset, d.Labelled, d.Seed); err != nil && d.Subset == "" {
			return nil, fmt.Errorf("--labelled: %w", err)
		} else if err != nil {
			return nil, err
		}
	}
	return data, CheckGPMemory(budget, len(data.Labelled))
}

// CheckGPMemory refuses an exact GP on n points whose dense matrices (K,
// its factor and the distances: 3·8n² bytes) pass budget.
func CheckGPMemory(budget memlimit.Budget, n int) error {
	return budget.Check(3*8*int64(n)*int64(n), fmt.Sprintf("the exact GP's 3 dense %d×%d matrices (one row per labelled point)", n, n),
		"label fewer points, or use gssl falkon (Nyström, memory n·M)")
}

// withOption prefixes err with the option it concerns.
func withOption(flag string, err error) error {
	if err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	return nil
}
