package main

import (
	"embed"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The help of every command lives in help/<command>.md (subcommands joined
// by "-": help/imgp-sweep.md): a title line "# gssl <command>", the one-line
// summary, the long description, an optional "## Examples" block and a
// "## Flags" list of "- `--name`: text" lines and an optional "## Renamed
// flags" list of "- `--old`: --new" lines (old names kept as hidden aliases
// that print a deprecation notice). help/flags.md holds the text of the
// flags several commands share, so that a flag means one thing in every
// command; a command's own file may give a more specific text.
//
//go:embed help/*.md
var helpFiles embed.FS

// helpText is one parsed help file.
type helpText struct {
	Short, Long, Example string
	Flags                map[string]string // flag name (without --) → usage
	Renamed              map[string]string // old flag name → its new name
}

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

// parseHelp parses the format described above.
func parseHelp(s string) (helpText, error) {
	h := helpText{Flags: map[string]string{}, Renamed: map[string]string{}}
	lists := map[string]map[string]string{"Flags": h.Flags, "Renamed flags": h.Renamed}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# ") {
		return h, fmt.Errorf("line 1: want a title \"# gssl <command>\"")
	}
	section, sections := "", map[string][]string{}
	for k, line := range lines[1:] {
		name, heading := strings.CutPrefix(line, "## ")
		switch {
		case heading:
			section = name
		case lists[section] == nil:
			sections[section] = append(sections[section], line)
		case line != "":
			rest, ok := strings.CutPrefix(line, "- `--")
			name, usage, found := strings.Cut(rest, "`: ")
			if section == "Renamed flags" {
				usage, found = strings.CutPrefix(usage, "--")
			}
			if _, dup := lists[section][name]; dup {
				return h, fmt.Errorf("line %d: --%s is described twice", k+2, name)
			} else if !ok || !found || name == "" || usage == "" {
				return h, fmt.Errorf("line %d: want \"- `--name`: text\" (under Renamed flags: \"- `--old`: --new\"), got %q", k+2, line)
			}
			lists[section][name] = usage
		}
	}
	text := func(section string) string { return strings.Trim(strings.Join(sections[section], "\n"), "\n") }
	h.Short, h.Long, _ = strings.Cut(text(""), "\n\n")
	h.Long = strings.TrimSpace(h.Long)
	h.Example = strings.Trim(strings.TrimSuffix(strings.TrimPrefix(text("Examples"), "```"), "```"), "\n")
	return h, nil
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
