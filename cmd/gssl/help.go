package main

import (
	"embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/internal/helpfile"
)

// The help of every command lives in help/<command>.md, in the format of
// package helpfile. help/flags.md holds the text of the flags several
// commands share, so that a flag means one thing in every command; a
// command's own file may give a more specific text. Renamed flags are kept
// as hidden aliases that print a deprecation notice.
//
//go:embed help/*.md
var helpFiles embed.FS

// helpText is one parsed help file.
type helpText = helpfile.Help

// parseHelp parses the text of a help file.
var parseHelp = helpfile.Parse

// readHelp parses help/<name>.md. A missing or malformed file is a bug of
// the binary (TestHelpFiles reads every one), so it panics.
func readHelp(name string) helpText {
	b, err := helpFiles.ReadFile("help/" + name + ".md")
	if err != nil {
		panic(fmt.Sprintf("help: no help/%s.md", name))
	}
	h, err := parseHelp(string(b))
	if err != nil {
		panic(fmt.Sprintf("help/%s.md: %v", name, err))
	}
	return h
}

// sharedFlags is help/flags.md's flag texts.
var sharedFlags = readHelp("flags").Flags

// newCommand builds the command described by help/<name>.md, with the
// flags of opts bound to it (bindFlags) and run as its action. name is the
// command's path below gssl, "-"-joined for subcommands.
func newCommand(name string, opts any, run func(cmd *cobra.Command, args []string) error) *cobra.Command {
	h := readHelp(name)
	cmd := &cobra.Command{
		Use:     name[strings.LastIndex(name, "-")+1:],
		Short:   h.Short,
		Long:    h.Long,
		Example: h.Example,
		Args:    cobra.NoArgs,
		RunE:    run,
	}
	if opts != nil {
		bindFlags(cmd.Flags(), name, h, opts)
	}
	for old, new := range h.Renamed {
		bindRenamed(cmd, old, new)
	}
	return cmd
}
