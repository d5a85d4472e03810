package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gssl/gssl/internal/inputfile"
)

// checkOneStdin refuses a command line on which two inputs read standard
// input ("-", /dev/stdin or /dev/fd/0): it can be read once, and the second
// file would silently get the first one's bytes, or none.
func checkOneStdin(cmd *cobra.Command, args []string) error {
	first := ""
	var err error
	use := func(what, value string) {
		if err != nil || !inputfile.IsStdin(value) {
			return
		}
		if first != "" {
			err = usageError{fmt.Errorf("%s and %s both read standard input, which can be read only once: save one of them to a file", first, what)}
			return
		}
		first = what
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "string" && !outputFlags[f.Name] {
			use(fmt.Sprintf("--%s %s", f.Name, f.Value.String()), f.Value.String())
		}
	})
	for _, a := range args {
		use("argument "+a, a)
	}
	return err
}
