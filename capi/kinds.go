package main

import (
	"slices"

	"github.com/gssl/gssl/persist"
)

// newKind returns an unfitted model of a kind with every hyperparameter at
// its default, from the registry of model kinds (package persist), which
// gssl predict and serve open model files through too. The model is then
// driven only through its estimator role (roles.go): a kind whose package
// does not implement a role yet is reported with role "none" and refuses
// fit.
func newKind(kind string) (any, error) { return persist.New(kind) }

// kindNames returns the kinds, sorted.
func kindNames() []string {
	out := persist.Kinds()
	slices.Sort(out)
	return out
}
