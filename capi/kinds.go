package main

import (
	"slices"

	"github.com/gssl/gssl/gp"
	"github.com/gssl/gssl/graphkernels"
	"github.com/gssl/gssl/imgp"
	"github.com/gssl/gssl/krr"
	"github.com/gssl/gssl/labelprop"
	"github.com/gssl/gssl/nodeclass"
	"github.com/gssl/gssl/spectral"
	"github.com/gssl/gssl/stkr"
	"github.com/gssl/gssl/svm"
)

// constructors maps a model kind to a constructor of an unfitted model with
// every hyperparameter at its default. It stands in for the registry of
// kinds the estimator contract's lead is adding; the model behind each
// kind is driven only through its estimator role (roles.go), so a kind
// whose package does not implement a role yet is listed with role "none"
// and refuses fit.
var constructors = map[string]func() any{
	labelprop.SpreadingKind:         newSpreadingRole,
	labelprop.HarmonicKind:          newHarmonicRole,
	stkr.RegressorKind:              func() any { return &stkr.Regressor{} },
	gp.RegressorKind:                func() any { return &gp.Regressor{} },
	imgp.RegressorKind:              func() any { return &imgp.Regressor{} },
	krr.ExactKind:                   func() any { return &krr.Exact{} },
	krr.NystromKind:                 func() any { return &krr.Nystrom{} },
	krr.FalkonKind:                  func() any { return &krr.Falkon{} },
	krr.RandomFeaturesKind:          func() any { return &krr.RandomFeatures{} },
	svm.PointSVCKind:                func() any { return &svm.PointSVC{} },
	spectral.SpectralClusteringKind: func() any { return &spectral.SpectralClustering{} },
	nodeclass.SGCKind:               func() any { return &nodeclass.SGC{} },
	nodeclass.APPNPKind:             func() any { return &nodeclass.APPNP{} },
	nodeclass.CorrectSmoothKind:     func() any { return &nodeclass.CorrectSmooth{} },
	graphkernels.WLClassifierKind:   func() any { return &graphkernels.WLClassifier{} },
}

// kindNames returns the kinds, sorted.
func kindNames() []string {
	out := make([]string, 0, len(constructors))
	for k := range constructors {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
