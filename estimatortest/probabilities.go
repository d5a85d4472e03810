package estimatortest

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/modelfile"
)

// Output says what a classifier's Predict returns: the declaration of
// package estimator, with the zero value Unstated for a case that states
// none.
type Output = estimator.Output

const (
	// Unstated is the zero Output: a classifier's case must state one.
	Unstated Output = 0
	// Probabilities: each row is a distribution over the classes.
	Probabilities = estimator.Probabilities
	// DecisionValues: scores, votes or outputs whose row's first maximum
	// is the class, and nothing more.
	DecisionValues = estimator.DecisionValues
)

// DefaultSumTol is how far from 1 a row of probabilities may sum when the
// case gives no SumTol: relative rounding of float64 normalisation, with
// room to spare.
const DefaultSumTol = modelfile.SumTol

// promise is the phrase by which a model's documentation of Predict
// promises probabilities (package estimator: "class probabilities for the
// models whose doc says so").
const promise = "class probabilities"

// checkProbabilities checks what the case states of a classifier's output
// against the documentation of its Predict, and, for probabilities, that
// every row predicted (of the query, of the fitted items, and of a
// Probabilities() method where the model has one) is a distribution.
func checkProbabilities[X, Q any](t T, c Case[X, Q], r role[X, Q], fitted estimator.Estimator) {
	if r.name != "classifier" {
		if c.Output != Unstated {
			t.Errorf("the case states Output %v for a %s: Output is a classifier's", c.Output, r.name)
		}
		if o, ok := estimator.OutputOf(fitted); ok {
			t.Errorf("%T, a %s, declares Output %v: Output is a classifier's", fitted, r.name, o)
		}
		return
	}
	if c.Output == Unstated {
		t.Fatalf("the case does not state Output: set Probabilities or DecisionValues, as %T's Predict documents", fitted)
	}
	checkDeclaredOutput(t, c, fitted)
	doc, err := predictDoc(fitted)
	if err != nil {
		t.Errorf("%v", err)
	} else if says := strings.Contains(strings.ToLower(doc), promise); says != (c.Output == Probabilities) {
		t.Errorf("the case states Output %v, and the documentation of %T's Predict %s %q", c.Output, fitted, map[bool]string{true: "says", false: "does not say"}[says], promise)
	}
	if c.Output != Probabilities {
		return
	}
	tol := c.SumTol
	if tol == 0 {
		tol = DefaultSumTol
	}
	var zero Q
	for _, q := range []struct {
		what string
		q    Q
		rows int
	}{{"the query", c.Query, c.QueryRows}, {"the fitted items", zero, c.FittedRows}} {
		if q.rows == 0 {
			continue
		}
		_, cols, v, err := r.predict(context.Background(), fitted, q.q)
		if err != nil {
			t.Errorf("predicting %s: %v", q.what, err)
			continue
		}
		if err := modelfile.CheckDistributions(v, cols, tol); err != nil {
			t.Errorf("predicting %s: the probabilities are not distributions: %v", q.what, err)
		}
	}
	if p, ok := fitted.(interface{ Probabilities() *mat.Dense }); ok {
		_, cols, v, err := dense(p.Probabilities(), nil)
		if err == nil {
			err = modelfile.CheckDistributions(v, cols, tol)
		}
		if err != nil {
			t.Errorf("Probabilities(): %v", err)
		}
	}
}

// checkDeclaredOutput checks the Output the model declares
// (estimator.OutputDeclarer), fitted and unfitted, against the case's.
func checkDeclaredOutput[X, Q any](t T, c Case[X, Q], fitted estimator.Estimator) {
	declared, ok := estimator.OutputOf(fitted)
	if !ok {
		t.Errorf("%T does not declare its Output: a classifier has an Output() estimator.Output method (estimator.OutputDeclarer)", fitted)
		return
	}
	if declared != c.Output {
		t.Errorf("%T declares Output %v, and the case states %v", fitted, declared, c.Output)
	}
	if before, _ := estimator.OutputOf(c.New()); before != declared {
		t.Errorf("%T declares Output %v before Fit and %v after: front ends ask an unfitted model", fitted, before, declared)
	}
}

// docs caches the documentation of each model type's Predict.
var docs sync.Map // reflect.Type → docResult

type docResult struct {
	doc string
	err error
}

// predictDoc returns the doc comment of the Predict method of m's type,
// read from the source of its package in this module: the method declared
// on the type, or else the one it promotes from an embedded struct.
func predictDoc(m any) (string, error) {
	typ := reflect.TypeOf(m)
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if d, ok := docs.Load(typ); ok {
		return d.(docResult).doc, d.(docResult).err
	}
	doc, found, err := findPredictDoc(typ.PkgPath(), strings.Split(typ.Name(), "[")[0])
	for i := 0; err == nil && !found && typ.Kind() == reflect.Struct && i < typ.NumField(); i++ {
		if f := typ.Field(i); f.Anonymous && hasPredict(f.Type) {
			doc, err = predictDoc(reflect.New(f.Type).Elem().Interface())
			found = err == nil
		}
	}
	if err == nil && !found {
		err = fmt.Errorf("no Predict method is declared on %s.%s or a struct it embeds", typ.PkgPath(), typ.Name())
	}
	docs.Store(typ, docResult{doc, err})
	return doc, err
}

func hasPredict(t reflect.Type) bool {
	_, ok := reflect.PointerTo(t).MethodByName("Predict")
	return ok
}

// findPredictDoc returns the doc comment of the Predict method declared on
// typeName in the package at pkgPath, and whether there is one.
func findPredictDoc(pkgPath, typeName string) (string, bool, error) {
	dir, err := packageDir(pkgPath)
	if err != nil {
		return "", false, fmt.Errorf("the documentation of %s.%s's Predict: %w", pkgPath, typeName, err)
	}
	pkgs, err := parser.ParseDir(token.NewFileSet(), dir, nil, parser.ParseComments)
	if err != nil {
		return "", false, err
	}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "Predict" && receiverName(fn) == typeName {
					return fn.Doc.Text(), true, nil
				}
			}
		}
	}
	return "", false, nil
}

// receiverName is the name of fn's receiver type, without pointer and type
// parameters, or "".
func receiverName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return ""
	}
	typ := fn.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// packageDir finds the directory of a package of the module the test runs
// in: go.mod above the working directory names the module.
func packageDir(pkgPath string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			module := modulePath(string(b))
			if rest, ok := strings.CutPrefix(pkgPath, module); ok && (rest == "" || rest[0] == '/') {
				return filepath.Join(dir, filepath.FromSlash(rest)), nil
			}
			return "", fmt.Errorf("the package is not in module %s (%s)", module, dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

func modulePath(gomod string) string {
	for _, line := range strings.Split(gomod, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
