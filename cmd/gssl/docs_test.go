package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// The per-command flag tables of docs/cli.md lie between these markers and
// are written from the commands themselves:
//
//	GSSL_WRITE_DOCS=1 go test ./cmd/gssl -run TestCLIDocsListEveryFlag
const (
	docsPath       = "../../docs/cli.md"
	docsFlagsBegin = "<!-- flags:begin (generated from the commands: GSSL_WRITE_DOCS=1 go test ./cmd/gssl -run TestCLIDocsListEveryFlag) -->"
	docsFlagsEnd   = "<!-- flags:end -->"
)

// TestCLIDocsListEveryFlag: docs/cli.md lists every visible flag of every
// command, with its default and help text as the command has them, so a
// flag added or renamed without its documentation fails here.
func TestCLIDocsListEveryFlag(t *testing.T) {
	b, err := os.ReadFile(docsPath)
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, docsFlagsBegin), strings.Index(doc, docsFlagsEnd)
	require.True(t, i >= 0 && j > i, "docs/cli.md has no flag section between %q and %q", docsFlagsBegin, docsFlagsEnd)
	want := flagTables(newRoot())
	if os.Getenv("GSSL_WRITE_DOCS") != "" {
		doc = doc[:i+len(docsFlagsBegin)] + "\n" + want + doc[j:]
		require.NoError(t, os.WriteFile(docsPath, []byte(doc), 0o644))
		return
	}
	got := doc[i+len(docsFlagsBegin)+1 : j]
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for k := 0; k < len(wl); k++ {
			if k >= len(gl) || gl[k] != wl[k] {
				t.Fatalf("docs/cli.md's flag tables are out of date (first difference, line %d of the section):\n have %q\n want %q\nregenerate: GSSL_WRITE_DOCS=1 go test ./cmd/gssl -run TestCLIDocsListEveryFlag", k+1, at(gl, k), wl[k])
			}
		}
		t.Fatalf("docs/cli.md's flag tables have %d extra lines; regenerate: GSSL_WRITE_DOCS=1 go test ./cmd/gssl -run TestCLIDocsListEveryFlag", len(gl)-len(wl))
	}
	for _, name := range []string{"gp", "generate", "convert", "version"} {
		require.Contains(t, want, "### gssl "+name, "command %s", name)
	}
}

func at(s []string, k int) string {
	if k < len(s) {
		return s[k]
	}
	return "(end)"
}

// flagTables renders one Markdown table per command (sorted by path): the
// visible flags, their defaults and help; the global flags first.
func flagTables(root *cobra.Command) string {
	var sb strings.Builder
	sb.WriteString("### Global flags (every command)\n\n")
	writeFlagTable(&sb, root.PersistentFlags())
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, s := range c.Commands() {
			if s.Hidden || s.Name() == "help" || s.Name() == "completion" {
				continue
			}
			cmds = append(cmds, s)
			walk(s)
		}
	}
	walk(root)
	sort.Slice(cmds, func(a, b int) bool { return cmds[a].CommandPath() < cmds[b].CommandPath() })
	for _, c := range cmds {
		fmt.Fprintf(&sb, "\n### %s\n\n`%s` — %s\n\n", c.CommandPath(), c.UseLine(), c.Short)
		if !c.HasAvailableLocalFlags() {
			sb.WriteString("No flags of its own.\n")
			continue
		}
		writeFlagTable(&sb, c.LocalNonPersistentFlags())
	}
	return sb.String()
}

func writeFlagTable(sb *strings.Builder, fs *pflag.FlagSet) {
	sb.WriteString("| Flag | Default | Meaning |\n|---|---|---|\n")
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		def := f.DefValue
		switch {
		case f.Name == "max-memory":
			def = "half of the memory" // machine-dependent
		case def == "" || def == "[]":
			def = "—"
		default:
			def = "`" + def + "`"
		}
		usage := strings.NewReplacer("|", `\|`, "\n", " ").Replace(f.Usage)
		fmt.Fprintf(sb, "| `--%s` | %s | %s |\n", f.Name, def, usage)
	})
}
