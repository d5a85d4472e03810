package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// unknownFlagError turns the flag parser's error into a usage error and, for an
// unknown flag, names the nearest flags of the command ("did you mean
// --edges?"): those within a third of the name's length plus one in edits
// (a swap of two neighbouring letters is one), or that the name is a
// prefix of.
func unknownFlagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		if _, short := strings.CutPrefix(msg, "unknown shorthand flag: "); !short {
			return usageError{err}
		}
		return usageError{fmt.Errorf("%w (gssl %s --help lists the flags)", err, cmd.Name())}
	}
	if s := nearestFlags(cmd, name); len(s) > 0 {
		return usageError{fmt.Errorf("%w: did you mean --%s?", err, strings.Join(s, " or --"))}
	}
	return usageError{fmt.Errorf("%w (gssl %s --help lists the flags)", err, cmd.Name())}
}

// nearestFlags returns the command's flags (its own and inherited, hidden
// ones left out) nearest to name.
func nearestFlags(cmd *cobra.Command, name string) []string {
	best, dist := []string(nil), len(name)/3+2 // accept up to len/3 + 1 edits
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
	if len(best) > 3 {
		best = best[:3]
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of two neighbouring
// letters, each one edit.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
