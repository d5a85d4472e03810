package main

import (
	"fmt"
	"strings"

	"github.com/hbollon/go-edlib"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownFlagError turns the flag parser's error into a usage error and, for
// an unknown flag, names the nearest flags of the command ("did you mean
// --edges?"): those within a third of the name's length plus one in edits
// (editDistance), or that the name, of 3 letters or more, is a prefix of.
func unknownFlagError(cmd *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	switch {
	case !ok && !strings.HasPrefix(err.Error(), "unknown shorthand flag: "):
		return usageError{err}
	case ok:
		if s := nearestFlags(cmd, name); len(s) > 0 {
			return usageError{fmt.Errorf("%w: did you mean --%s?", err, strings.Join(s, " or --"))}
		}
	}
	return usageError{fmt.Errorf("%w (gssl %s --help lists the flags)", err, cmd.Name())}
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and swaps of two neighbouring letters, each one
// edit.
var editDistance = edlib.OSADamerauLevenshteinDistance

// nearestFlags returns the command's flags (its own and inherited, hidden
// ones left out) nearest to name, at most three.
func nearestFlags(cmd *cobra.Command, name string) []string {
	best, dist := []string(nil), len(name)/3+2
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		switch {
		case d < dist:
			best, dist = []string{f.Name}, d
		case d == dist && best != nil:
			best = append(best, f.Name)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		if cmd.Flags().Lookup(f.Name) == nil {
			visit(f)
		}
	})
	return best[:min(len(best), 3)]
}
