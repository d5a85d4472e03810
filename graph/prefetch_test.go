package graph

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestPrefetchLoadsAreKept: a kernel's prefetching loads xor into a sink
// that only keep(sink) reads; without that call the compiler deletes the
// loads as dead code (the float32 kernels once lost theirs that way and
// ran at half the speed of the float64 ones on a 100 M-edge graph). Every
// function of the package that declares a sink must pass it to keep.
func TestPrefetchLoadsAreKept(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range pkgs {
		for name, f := range p.Files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				declares, kept := false, false
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.ValueSpec:
						for _, id := range n.Names {
							declares = declares || id.Name == "sink"
						}
					case *ast.CallExpr:
						if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "keep" && len(n.Args) == 1 {
							if a, ok := n.Args[0].(*ast.Ident); ok && a.Name == "sink" {
								kept = true
							}
						}
					}
					return true
				})
				if declares {
					checked++
					if !kept {
						t.Errorf("%s: %s declares a prefetch sink but never calls keep(sink): its prefetching loads are dead code", name, fn.Name.Name)
					}
				}
			}
		}
	}
	if checked < 2*maxUnrolled {
		t.Fatalf("found %d kernels with a prefetch sink, want at least %d (one per width and element type)", checked, 2*maxUnrolled)
	}
}
