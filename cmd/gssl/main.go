// Command gssl runs gssl's graph-based semi-supervised learning methods from
// the command line. Every command accepts --json and then prints exactly one
// JSON object on stdout; progress and logs go to stderr.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/gssl/gssl/internal/inputfile"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root, g := newRootGlobals()
	cmd, err := root.ExecuteContextC(ctx)
	inputfile.Release() // the private copies of streams read as inputs
	if g.stopProfile != nil {
		if perr := g.stopProfile(); perr != nil && err == nil {
			err = fmt.Errorf("--cpu-profile: %w", perr)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gssl:", userMessage(cmd, err))
		if errors.As(err, new(usageError)) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}
