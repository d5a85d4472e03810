package main

import (
	"fmt"
	"slices"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/persist"
	"github.com/gssl/gssl/spectral"
)

// Kinds that the C ABI fits and predicts but that have no model file
// format yet, so they are not in persist's registry (gssl predict and serve
// cannot open them, and save refuses them): the spectral embeddings.
const (
	laplacianEigenmapKind = "spectral.LaplacianEigenmap"
	kernelPCAKind         = "spectral.KernelPCA"
)

var unsavedKinds = map[string]func() any{
	laplacianEigenmapKind: func() any { return new(spectral.LaplacianEigenmap) },
	kernelPCAKind:         func() any { return new(spectral.KernelPCA) },
}

// conformalKind is the calibrated node classifier of package confidence: a
// wrapper of another kind (its Base hyperparameter). It is saved as its
// Base's model file with calibration sections, which is how gssl classify
// and gssl labelprop --conformal save too; a file with those sections opens
// as this kind (unmarshalModel).
const conformalKind = "confidence.Classifier"

// wrapperKinds are the savable kinds that are not in persist's registry:
// their model file is that of the model they wrap, with sections added.
var wrapperKinds = map[string]func() any{
	conformalKind: func() any { return new(confidence.Classifier) },
}

// newKind returns an unfitted model of a kind with every hyperparameter at
// its default, from the registry of model kinds (package persist), which
// gssl predict and serve open model files through too, or from
// unsavedKinds. The model is then driven only through its estimator role
// (roles.go): a kind whose package does not implement a role yet is
// reported with role "none" and refuses fit.
func newKind(kind string) (any, error) {
	if f, ok := unsavedKinds[kind]; ok {
		return f(), nil
	}
	if f, ok := wrapperKinds[kind]; ok {
		return f(), nil
	}
	m, err := persist.New(kind)
	if err != nil {
		return nil, fmt.Errorf("%w (the C ABI also has %v, which fit and predict but cannot be saved)", err, unsavedNames())
	}
	return m, nil
}

func unsavedNames() []string {
	out := make([]string, 0, len(unsavedKinds))
	for k := range unsavedKinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// kindNames returns the kinds, sorted.
func kindNames() []string {
	out := append(persist.Kinds(), unsavedNames()...)
	for k := range wrapperKinds {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
