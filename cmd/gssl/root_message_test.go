package main

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestUserMessageDropsPackageChains: the final message keeps the command's
// name and what the error names, not the packages it passed through.
func TestUserMessageDropsPackageChains(t *testing.T) {
	root := newRoot()
	classify, _, err := root.Find([]string{"classify"})
	require.NoError(t, err)
	info, _, err := root.Find([]string{"model", "info"})
	require.NoError(t, err)
	for _, c := range []struct {
		cmd       string
		err, want string
	}{
		{"classify", "classify: eval: seed 0: nodeclass: choose: eval: cross-validation needs 2", "classify: seed 0: cross-validation needs 2"},
		{"classify", "loaders: a.csv:2: bad", "a.csv:2: bad"},
		{"info", "info: --edges a.csv: no graph: here", "info: --edges a.csv: no graph: here"},
		{"info", "stkr: eta=2 is invalid", "eta=2 is invalid"},
		{"model info", "model info: savedmodel: f.gssl: truncated", "model info: f.gssl: truncated"},
	} {
		cmd := classify
		if c.cmd == "model info" {
			cmd = info
		}
		got := userMessage(cmd, fmt.Errorf("%w", errors.New(c.err)))
		if c.cmd == "info" {
			got = userMessage(nil, errors.New(c.err))
		}
		require.Equal(t, c.want, got, c.err)
	}
}

// TestLibraryPackagesListed: every library package of the module is in
// libraryPackages, so that its prefix is dropped from messages.
func TestLibraryPackagesListed(t *testing.T) {
	root := filepath.Join("..", "..")
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "cmd" || e.Name() == "internal" || e.Name()[0] == '.' {
			continue
		}
		goFiles, _ := filepath.Glob(filepath.Join(root, e.Name(), "*.go"))
		if len(goFiles) == 0 {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), goFiles[0], nil, parser.PackageClauseOnly)
		require.NoError(t, err)
		if f.Name.Name == "main" || f.Name.Name != e.Name() && f.Name.Name != e.Name()+"_test" {
			continue // commands and tools
		}
		require.True(t, slices.Contains(libraryPackages, e.Name()), "package %s is not in libraryPackages", e.Name())
	}
}
