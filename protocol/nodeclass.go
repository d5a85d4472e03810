package protocol

import (
	"errors"
	"fmt"
	"math"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/homophily"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/linbp"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/stkr"
)

// NodeClassModels are the names NodeClassSearch knows ("cs" is also read
// as correct-smooth).
var NodeClassModels = []string{"sgc", "appnp", "appnp-net", "correct-smooth", "auto", "stkr", "channels", "sepgnn", "linkx", "linbp"}

// NodeClassSearch returns the search of gssl classify --model name over the
// grids of package nodeclass: sgc and appnp (nodeclass.SGCGrid,
// APPNPGrid; without feature normalisation when embedded, the features
// then carrying eigenmap coordinates appended to normalised ones),
// correct-smooth (Correct & Smooth over the chosen SGC model), auto (SGC
// and APPNP, then Correct & Smooth on the chosen one), stkr (nodeclass.STKRGrid
// over stkr.EtaGrid and stkr.BetaGrid, with the cosine feature kernel of
// weight featureWeight ≥ 0 added to the graph kernel), appnp-net (nodeclass.APPNPNet, the
// paper's perceptron under K propagation steps), channels and
// linbp (one model each). featureWeight must be 0 for every model but
// stkr.
func NodeClassSearch(name string, featureWeight float64, embedded bool) (eval.NodeSearch, error) {
	if featureWeight != 0 && name != "stkr" {
		return eval.NodeSearch{}, fmt.Errorf("protocol: a feature weight applies to the stkr model only, not %q", name)
	}
	norm := nodeclass.RowSum
	if embedded {
		norm = nodeclass.NoNormalization
	}
	sgc := func(c int) []nodeclass.Base {
		return nodeclass.SGCGrid(&nodeclass.SGC{Classes: c, Normalization: norm})
	}
	appnp := func(c int) []nodeclass.Base {
		return nodeclass.APPNPGrid(&nodeclass.APPNP{Classes: c, Normalization: norm})
	}
	cs := func(best nodeclass.Base) []nodeclass.Base { return nodeclass.CorrectSmoothGrid(best) }
	switch name {
	case "stkr":
		if !(featureWeight >= 0) || math.IsInf(featureWeight, 0) {
			return eval.NodeSearch{}, fmt.Errorf("protocol: feature weight %v is invalid: it must be finite and ≥ 0", featureWeight)
		}
		return eval.NodeSearch{Grid: func(c int) []nodeclass.Base {
			return nodeclass.STKRGrid(&nodeclass.STKR{Classes: c, FeatureWeight: featureWeight}, stkr.EtaGrid(), stkr.BetaGrid())
		}}, nil
	case "sgc":
		return eval.NodeSearch{Grid: sgc}, nil
	case "appnp":
		return eval.NodeSearch{Grid: appnp}, nil
	case "appnp-net":
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base {
			return []nodeclass.Base{nodeclass.FitOnce(&nodeclass.APPNPNet{Normalization: norm})}
		}}, nil
	case "correct-smooth", "cs":
		return eval.NodeSearch{Grid: sgc, Refine: cs}, nil
	case "auto":
		return eval.NodeSearch{Grid: func(c int) []nodeclass.Base { return append(sgc(c), appnp(c)...) }, Refine: cs}, nil
	case "channels":
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base { return []nodeclass.Base{&nodeclass.ChannelMLP{}} }}, nil
	case "sepgnn":
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base { return []nodeclass.Base{&nodeclass.SepGNN{}} }}, nil
	case "linkx":
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base { return []nodeclass.Base{&nodeclass.LINKX{}} }}, nil
	case "linbp":
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base { return []nodeclass.Base{&linbp.Propagation{}} }}, nil
	}
	return eval.NodeSearch{}, fmt.Errorf("protocol: model %q is unknown: want one of %v", name, NodeClassModels)
}

// NodeClassSeeds returns the seeds of the runs of EvaluateSeeds: n seeds
// from first when the split depends on the seed; one when it does not and
// has validation nodes, since the models are deterministic and the seed
// then changes nothing (without validation nodes it still draws the
// cross-validation folds).
func NodeClassSeeds(splits *eval.Splitter, first uint64, n int) []uint64 {
	if !splits.Spec().Seeded() {
		if sp, _, err := splits.Split(first); err == nil && len(sp.Val) > 0 {
			n = 1
		}
	}
	return eval.SeedRange(first, n)
}

// NodeClassRun is one seed's run of EvaluateSeeds as gssl classify reports
// it; the test accuracy is nil without test nodes.
type NodeClassRun struct {
	Seed  uint64 `json:"seed"`
	Model string `json:"model"`
	Val   any    `json:"val_accuracy"`
	Test  any    `json:"test_accuracy"`
	// With ROC AUC as the metric: the validation and test AUC (Val is
	// then nil: the validation score that chose the model is the AUC).
	ValAUC  any `json:"val_auc,omitempty"`
	TestAUC any `json:"test_auc,omitempty"`
	// With a refining search (Correct & Smooth): the base model chosen
	// first.
	Base     string  `json:"base_model,omitempty"`
	BaseVal  float64 `json:"base_val_accuracy,omitempty"`
	BaseTest float64 `json:"base_test_accuracy,omitempty"`
}

// NodeClassReport sums up the runs of EvaluateSeeds: the accuracies as
// mean and standard deviation over the seeds (nil where undefined), and
// each run.
type NodeClassReport struct {
	Metric          string `json:"metric"` // what chose the model: accuracy or auc
	Model           string `json:"model"`  // the first run's chosen model
	SeedsRun        int    `json:"seeds_run"`
	Candidates      int    `json:"candidates"`
	ValAccuracy     any    `json:"val_accuracy"`
	TestAccuracy    any    `json:"test_accuracy"` // null without test nodes
	TestAccuracyStd any    `json:"test_accuracy_std"`
	// The base model of the first run the search refined (Correct &
	// Smooth's), and the mean and standard deviation of the refined runs'
	// base test accuracies.
	BaseModel   string         `json:"base_model,omitempty"`
	BaseTest    float64        `json:"base_test_accuracy,omitempty"`
	BaseTestStd float64        `json:"base_test_accuracy_std,omitempty"`
	ValAUC      any            `json:"val_auc,omitempty"`
	TestAUC     any            `json:"test_auc,omitempty"`
	TestAUCStd  any            `json:"test_auc_std,omitempty"`
	Runs        []NodeClassRun `json:"runs"`
	// Test and TestStd are the mean and standard deviation of the test
	// accuracies (NaN without test nodes).
	Test, TestStd float64 `json:"-"`
}

// ReportNodeClass sums up runs of the search s for labels of the given
// number of classes.
func ReportNodeClass(s eval.NodeSearch, classes int, runs []eval.NodeRun) NodeClassReport {
	r := NodeClassReport{Metric: s.Metric.String(), Model: runs[0].Model, SeedsRun: len(runs), Candidates: len(s.Grid(classes))}
	auc := s.Metric == eval.MetricROCAUC
	tests, vals := make([]float64, len(runs)), make([]float64, len(runs))
	var bt []float64 // the base test accuracies of the refined runs
	aucs := make([]float64, len(runs))
	for k, o := range runs {
		run := NodeClassRun{Seed: o.Seed, Model: o.Model, Val: o.Val}
		tests[k], aucs[k] = math.NaN(), math.NaN()
		if auc {
			run.Val, run.ValAUC = nil, o.Val
		}
		if len(o.Split.Test) > 0 {
			run.Test, tests[k] = o.TestAccuracy, o.TestAccuracy
			if auc {
				run.TestAUC, aucs[k] = o.Test, o.Test
			}
		}
		if o.Base != "" {
			run.Base, run.BaseVal, run.BaseTest = o.Base, o.BaseVal, o.BaseTest
			if r.BaseModel == "" {
				r.BaseModel = o.Base
			}
			bt = append(bt, o.BaseTest)
		}
		r.Runs = append(r.Runs, run)
		vals[k] = o.Val
	}
	r.Test, r.TestStd = eval.MeanStd(tests)
	r.TestAccuracy, r.TestAccuracyStd = number(r.Test), number(r.TestStd)
	if len(bt) > 0 {
		r.BaseTest, r.BaseTestStd = eval.MeanStd(bt)
	}
	v, _ := eval.MeanStd(vals)
	r.ValAccuracy = number(v)
	if auc {
		r.ValAccuracy, r.ValAUC = nil, number(v)
		m, sd := eval.MeanStd(aucs)
		r.TestAUC, r.TestAUCStd = number(m), number(sd)
	}
	return r
}

// NodeClassAuto returns the search of gssl classify --model auto for the
// graph g with the training labels train (−1 elsewhere; the validation and
// test labels must not be among them): the family homophily.Advise calls
// for on the graph's statistics from those labels, and its grid. A
// homophilous graph gets the smoothing models (NodeClassSearch "auto"); a
// heterophilous one whose neighbours' classes are informative gets
// linearised belief propagation beside the two feature models; otherwise
// the feature models alone: the channel perceptron (nodeclass.ChannelMLP),
// the trained ego/neighbour network (nodeclass.SepGNN), the adjacency-row
// network (nodeclass.LINKX) and one SGC of nodeclass.HeterophilyGrid,
// chosen on the validation nodes. When no edge joins two training nodes
// their labels cannot say which family the graph calls for
// (homophily.Unknown): both are searched, the smoothing models and the
// three trained feature models of nodeclass.HeterophilyNetworks, the choice
// refined by Correct & Smooth when it is SGC or APPNP.
func NodeClassAuto(g *graph.CSR, train []int, embedded bool) (eval.NodeSearch, homophily.Family, string, error) {
	st, err := homophily.Measure(g, train)
	if errors.Is(err, homophily.ErrNoEdges) {
		s, err := bothFamilies(embedded)
		return s, homophily.Unknown, "no edge joins two training nodes, so their labels cannot tell homophily from heterophily: the smoothing models (SGC and APPNP, then Correct & Smooth on the chosen one) and the feature models (the channel perceptron, SepGNN, LINKX) alike, chosen on the validation nodes", err
	}
	if err != nil {
		return eval.NodeSearch{}, 0, "", fmt.Errorf("protocol: --model auto measures homophily on the training labels: %w", err)
	}
	fam, why := homophily.Advise(st)
	features := nodeclass.HeterophilyGrid
	switch fam {
	case homophily.Compatibility:
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base {
			return append([]nodeclass.Base{&linbp.Propagation{}}, features()...)
		}}, fam, why, nil
	case homophily.Features:
		return eval.NodeSearch{Grid: func(int) []nodeclass.Base { return features() }}, fam, why, nil
	}
	s, err := NodeClassSearch("auto", 0, embedded)
	return s, fam, why, err
}

// bothFamilies is the search of NodeClassAuto when the training labels
// cannot say which family the graph calls for: the candidates of the
// smoothing search ("auto" of NodeClassSearch) and
// nodeclass.HeterophilyNetworks together, a chosen SGC or APPNP model then
// refined by Correct & Smooth as that search does, any other kept.
func bothFamilies(embedded bool) (eval.NodeSearch, error) {
	smoothing, err := NodeClassSearch("auto", 0, embedded)
	if err != nil {
		return eval.NodeSearch{}, err
	}
	return eval.NodeSearch{
		Grid: func(c int) []nodeclass.Base {
			return append(smoothing.Grid(c), nodeclass.HeterophilyNetworks()...)
		},
		Refine: func(best nodeclass.Base) []nodeclass.Base {
			switch best.(type) {
			case *nodeclass.SGC, *nodeclass.APPNP:
				return smoothing.Refine(best)
			}
			return nil
		},
	}, nil
}
