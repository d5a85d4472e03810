// Package helpfile parses the help files of gssl's commands
// (cmd/gssl/help/<command>.md, subcommands joined by "-"): a title line
// "# gssl <command>", the one-line summary, the long description, an
// optional "## Examples" block, a "## Flags" list of "- `--name`: text"
// lines and an optional "## Renamed flags" list of "- `--old`: --new"
// lines (old names a command keeps as hidden aliases).
package helpfile

import (
	"fmt"
	"strings"
)

// Help is one parsed help file.
type Help struct {
	Short, Long, Example string
	Flags                map[string]string // flag name (without --) → usage
	Renamed              map[string]string // old flag name → its new name
}

// Parse parses a help file; an error names the line.
func Parse(s string) (Help, error) {
	h := Help{Flags: map[string]string{}, Renamed: map[string]string{}}
	lists := map[string]map[string]string{"Flags": h.Flags, "Renamed flags": h.Renamed}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if !strings.HasPrefix(lines[0], "# ") {
		return h, fmt.Errorf("helpfile: line 1: want a title \"# gssl <command>\"")
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
				return h, fmt.Errorf("helpfile: line %d: --%s is described twice", k+2, name)
			} else if !ok || !found || name == "" || usage == "" {
				return h, fmt.Errorf("helpfile: line %d: want \"- `--name`: text\" (under Renamed flags: \"- `--old`: --new\"), got %q", k+2, line)
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
