// Command gssl runs gssl's graph-based semi-supervised learning methods from
// the command line. Every command accepts --json and then prints exactly one
// JSON object on stdout; progress and logs go to stderr.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := newRoot().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "gssl:", err)
		os.Exit(1)
	}
}
