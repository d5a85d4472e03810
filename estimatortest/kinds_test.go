package estimatortest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gssl/gssl/persist"
)

// checkedKinds holds the models some test of this package runs Check on,
// by package and type name ("labelprop.Spreading", the form of a model
// file's kind). Each table file adds its own with cover.
var checkedKinds = map[string]bool{}

// cover records that the named models are checked; it is called from
// package-level variable declarations, so the set is complete before any
// test runs.
func cover(names ...string) bool {
	for _, n := range names {
		checkedKinds[n] = true
	}
	return true
}

// models lists every exported type of the module's packages (outside
// cmd, internal and the test support) that has an exported Fit method:
// every model, which must be checked.
func models(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		switch name := e.Name(); {
		case !e.IsDir(), strings.HasPrefix(name, "."), name == "cmd", name == "internal", name == "beam",
			name == "testdata", name == "estimatortest", name == "capi", name == "python":
			continue
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, filepath.Join(root, e.Name()), func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for pkgName, pkg := range pkgs {
			if pkgName == "main" {
				continue
			}
			for _, f := range pkg.Files {
				for _, d := range f.Decls {
					fn, ok := d.(*ast.FuncDecl)
					if !ok || fn.Recv == nil || fn.Name.Name != "Fit" {
						continue
					}
					typ := fn.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
						out = append(out, pkgName+"."+id.Name)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pending lists the models whose cases are being written while the
// models are moved onto the contract's roles; it shrinks to empty.
var pending = map[string]bool{}

func TestEveryModelIsChecked(t *testing.T) {
	all := models(t)
	if len(all) < 10 {
		t.Fatalf("found only %d models (%v): the scan is broken", len(all), all)
	}
	for _, m := range all {
		if !checkedKinds[m] && !pending[m] {
			t.Errorf("%s has a Fit method but no estimatortest.Check case: add one to a table file of this package", m)
		}
	}
	for _, k := range persist.Kinds() {
		if !checkedKinds[k] && !pending[k] {
			t.Errorf("the model file kind %s (package persist) has no estimatortest.Check case", k)
		}
	}
}
