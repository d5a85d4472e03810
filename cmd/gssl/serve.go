package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// serveOptions are gssl serve's flags (help/serve.md): the model, the
// token file and the server's settings (serve.Config, tagged).
type serveOptions struct {
	Model     string `flag:"model"`
	TokenFile string `flag:"token-file"`
	serve.Config
	// ready, when set (tests), is called with the bound address.
	ready func(net.Addr)
}

func newServeCommand(*globals) *cobra.Command {
	opts := serveOptions{Config: serve.DefaultConfig()}
	return newCommand("serve", &opts, func(cmd *cobra.Command, _ []string) error {
		return runServe(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
}

// runServe serves the saved model (serve.New) until SIGINT or SIGTERM.
func runServe(ctx context.Context, opts serveOptions, _, stderr io.Writer) error {
	if opts.Model == "" {
		return usageError{errors.New("serve: --model FILE is required (a model saved by --save)")}
	}
	// serve.Config takes 0 for its defaults; on the command line the
	// defaults are the flags' own, and 0 is refused.
	if opts.MaxBatch < 1 {
		return fmt.Errorf("serve: --max-batch %d is invalid: it must be ≥ 1", opts.MaxBatch)
	}
	if opts.MaxBody < 1 {
		return fmt.Errorf("serve: --max-body %d is invalid: it must be ≥ 1 byte", opts.MaxBody)
	}
	if opts.TokenFile != "" {
		var err error
		if opts.Token, err = serve.ReadToken(opts.TokenFile); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}
	s, err := savedmodel.Open(opts.Model)
	if err != nil {
		return fmt.Errorf("serve: --model %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	opts.Logger = logger
	srv, err := serve.New(s, opts.Config)
	if err != nil {
		if fe := fieldFlagError(err); fe != err {
			return fmt.Errorf("serve: %w", fe)
		}
		return fmt.Errorf("serve: --addr %s: %w", opts.Addr, err)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	meta := s.Metadata()
	return srv.ListenAndServe(ctx, func(a net.Addr) {
		logger.Info("serving", "model", opts.Model, "kind", meta.Kind, "nodes", meta.Nodes, "graphs", meta.Graphs, "url", "http://"+a.String()+"/")
		if opts.ready != nil {
			opts.ready(a)
		}
	})
}
