package main

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// TestHelpFiles: every help file parses and belongs to a command, and every
// flag text in it names a flag the command has (help/flags.md: a flag some
// command has), so no text outlives its flag.
func TestHelpFiles(t *testing.T) {
	root := newRoot()
	byName := map[string]*cobra.Command{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		name := strings.ReplaceAll(strings.TrimPrefix(strings.TrimPrefix(c.CommandPath(), "gssl"), " "), " ", "-")
		if name == "" {
			name = "gssl"
		}
		byName[name] = c
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	anyHas := map[string]bool{}
	for _, c := range byName {
		c.Flags().VisitAll(func(f *pflag.Flag) { anyHas[f.Name] = true })
		c.PersistentFlags().VisitAll(func(f *pflag.Flag) { anyHas[f.Name] = true })
	}
	files, err := fs.Glob(helpFiles, "help/*.md")
	require.NoError(t, err)
	for _, file := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(file, "help/"), ".md")
		b, err := helpFiles.ReadFile(file)
		require.NoError(t, err)
		h, err := parseHelp(string(b))
		require.NoError(t, err, file)
		if name == "flags" {
			for flag := range h.Flags {
				require.True(t, anyHas[flag], "help/flags.md describes --%s, which no command has", flag)
			}
			continue
		}
		c, ok := byName[name]
		require.True(t, ok, "%s belongs to no command", file)
		require.True(t, strings.HasPrefix(string(b), "# "+c.CommandPath()+"\n"), "%s: the title must be %q", file, "# "+c.CommandPath())
		for flag := range h.Flags {
			require.True(t, c.Flags().Lookup(flag) != nil || c.PersistentFlags().Lookup(flag) != nil, "%s describes --%s, which gssl %s does not have", file, flag, name)
		}
	}
}

// TestRenamedFlags: an old name of help/<cmd>.md's "Renamed flags" is a
// hidden flag that sets the new one and says so on stderr.
func TestRenamedFlags(t *testing.T) {
	cmd := newCommand("eigs", &struct {
		Eigenpairs int `flag:"eigenpairs"`
	}{}, nil)
	var errw strings.Builder
	cmd.SetErr(&errw)
	require.NoError(t, cmd.Flags().Parse([]string{"--k", "7"}))
	require.Equal(t, "7", cmd.Flags().Lookup("eigenpairs").Value.String())
	require.True(t, cmd.Flags().Lookup("k").Hidden)
	require.Equal(t, "gssl eigs: --k is deprecated; use --eigenpairs\n", errw.String())
	require.Panics(t, func() { newCommand("eigs", &struct{}{}, nil) }, "a renamed flag whose new name the command lacks")
}
