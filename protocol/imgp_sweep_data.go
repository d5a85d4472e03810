package protocol

import (
	"errors"
	"fmt"

	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/memlimit"
	"github.com/gssl/gssl/spectral"
)

// IMGPSweepData is gssl imgp sweep's data and grid: a benchmark whose
// every training target and test target is known (an image folder or the
// synthetic curve), the labelled Fractions, Seeds runs of each, and
// optionally a folder of labelled subsets (SubsetFiles) instead of
// seeded draws.
type IMGPSweepData struct {
	RegressionData
	Fractions []float64 `flag:"fractions"`
	Seeds     int       `flag:"seeds"`
	Subsets   string    `flag:"subsets"`
}

// Validate checks the fractions.
func (d IMGPSweepData) Validate() error {
	if len(d.Fractions) == 0 {
		return fmt.Errorf("no --fractions")
	}
	for i, f := range d.Fractions {
		if !(f > 0 && f <= 1) {
			return fmt.Errorf("--fractions value %d (%v) is invalid: every labelled fraction must be in (0, 1]", i+1, f)
		}
	}
	return nil
}

// Sweep loads the data and returns the sweep of model (a template: its
// seed is each run's) over it, refusing data without every target and an
// exact GP on all the points above budget (CheckGPMemory).
func (d IMGPSweepData) Sweep(model *imgp.Regressor, budget memlimit.Budget) (*IMGPSweep, *RegressionTask, error) {
	if err := d.Validate(); err != nil {
		return nil, nil, err
	}
	data, err := d.Load()
	if err != nil {
		return nil, nil, err
	}
	if data.User || data.YTest == nil {
		return nil, nil, errors.New("needs every training target and scored test points: use --images or --synthetic")
	}
	n, _ := data.X.Dims()
	if err := CheckGPMemory(budget, n); err != nil {
		return nil, nil, err
	}
	model.Seed, model.Scaling = 0, &data.Scaling
	sw := &IMGPSweep{Model: model, Fractions: d.Fractions, Seeds: d.Seeds}
	if d.Subsets != "" {
		subset := SubsetFiles(d.Subsets, n)
		sw.Subset = func(frac float64, seed int) ([]int, error) {
			idx, err := subset(frac, seed)
			return idx, withOption("subsets", err)
		}
	}
	return sw, data, nil
}

// String is the run in one line, as gssl logs it.
func (run IMGPSweepRun) String() string {
	sc := run.Scores
	return fmt.Sprintf("fraction %g seed %d (%d labelled): IMGP RMSE %.4f NLL %.4g, refined %.4f %.4g, Euclidean RMSE %.4f NLL %.4g (%.1fs)",
		run.Fraction, run.Seed, run.Labelled, sc.RMSE, sc.NLL, sc.RefinedRMSE, sc.RefinedNLL, sc.EuclideanRMSE, sc.EuclideanNLL, run.Duration.Seconds())
}

// IMGPLikelihood are the settings of the log marginal likelihood IMGP
// reports (imgp.LikelihoodSettings): Probes < 0 skips it.
type IMGPLikelihood struct {
	Probes      int `flag:"likelihood-probes"`
	Steps       int `flag:"likelihood-steps"`
	ExactLabels int `flag:"likelihood-exact-labels"`
}

// DefaultIMGPLikelihood are the library's defaults.
func DefaultIMGPLikelihood() IMGPLikelihood {
	return IMGPLikelihood{Probes: spectral.DefaultProbes, Steps: spectral.DefaultSteps, ExactLabels: imgp.DefaultExactLabels}
}

// Settings are the likelihood settings (nil when skipped), the trace
// estimate seeded by seed and observed by progress.
func (l IMGPLikelihood) Settings(seed uint64, progress func(done, total int)) *imgp.LikelihoodSettings {
	if l.Probes < 0 {
		return nil
	}
	return &imgp.LikelihoodSettings{ExactLabels: l.ExactLabels, TraceSettings: spectral.TraceSettings{Probes: l.Probes, Steps: l.Steps, Seed: seed, Progress: progress}}
}
