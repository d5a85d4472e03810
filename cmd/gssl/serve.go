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

// serveOptions are the settings of gssl serve.
type serveOptions struct {
	Model     string
	Addr      string
	TokenFile string
	MaxBatch  int
	MaxBody   int64
	// MaxGraphNodes and MaxGraphEdges bound each graph of a request to a
	// model of graphs.
	MaxGraphNodes, MaxGraphEdges int
	// MaxBatchNodes and MaxBatchEdges bound the graphs of one request
	// together.
	MaxBatchNodes, MaxBatchEdges int
	// ready, when set (tests), is called with the bound address.
	ready func(net.Addr)
}

func newServeCommand(g *globals) *cobra.Command {
	opts := serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Answer predictions of a saved model over HTTP",
		Long: `serve answers predictions of a model saved by --save over HTTP (JSON):

  POST /v1/predict   {"nodes": [{"id": "x", "edges": [{"to": "paper_1", "weight": 1}]}]}
                     → {"predictions": [{"id": "x", "label": …, "probabilities": […]}]}
                     (or {"points": [[…], …]} for a model of features, or
                     {"graphs": [{"id": "g", "labels": [0, 1], "edges": [[0, 1]]}]}
                     for a graph classifier saved by gssl graphkernel --save)
  GET  /v1/model     the model's metadata
  GET  /healthz      ok
  GET  /metrics      Prometheus metrics (requests, errors, latency)
  GET  /             a page with the metadata and a form for one request

It listens on loopback (127.0.0.1:8080) unless --addr says otherwise, and then
needs --token-file: every request but /healthz and / must carry
"Authorization: Bearer <token>". Request logs go to stderr. SIGINT or SIGTERM
stops accepting connections and lets the requests in flight finish.
docs/serve.md describes the API with examples.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Model, "model", "", "the saved model (a .gssl file written by --save)")
	f.StringVar(&opts.Addr, "addr", serve.DefaultAddr, "host:port to listen on; a non-loopback host needs --token-file")
	f.StringVar(&opts.TokenFile, "token-file", "", "file holding the bearer token clients must send")
	f.IntVar(&opts.MaxBatch, "max-batch", serve.DefaultMaxBatch, "the most nodes, points or graphs in one request")
	f.Int64Var(&opts.MaxBody, "max-body", serve.DefaultMaxBody, "the largest request body in bytes")
	f.IntVar(&opts.MaxGraphNodes, "max-graph-nodes", serve.DefaultMaxGraphNodes, "the most nodes in one graph of a request (models of graphs)")
	f.IntVar(&opts.MaxGraphEdges, "max-graph-edges", serve.DefaultMaxGraphEdges, "the most edges in one graph of a request (models of graphs)")
	f.IntVar(&opts.MaxBatchNodes, "max-batch-nodes", serve.DefaultMaxBatchNodes, "the most nodes in all the graphs of one request together (models of graphs)")
	f.IntVar(&opts.MaxBatchEdges, "max-batch-edges", serve.DefaultMaxBatchEdges, "the most edges in all the graphs of one request together (models of graphs)")
	return cmd
}

func runServe(ctx context.Context, opts serveOptions, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opts.Model == "" {
		return usageError{errors.New("serve: --model FILE is required (a model saved by --save)")}
	}
	if opts.MaxBatch < 1 {
		return fmt.Errorf("serve: --max-batch %d is invalid: it must be ≥ 1", opts.MaxBatch)
	}
	if opts.MaxBody < 1 {
		return fmt.Errorf("serve: --max-body %d is invalid: it must be ≥ 1 byte", opts.MaxBody)
	}
	// Zero (a caller that sets neither) means serve's defaults.
	for _, l := range []struct {
		flag string
		v    int
	}{{"max-graph-nodes", opts.MaxGraphNodes}, {"max-graph-edges", opts.MaxGraphEdges},
		{"max-batch-nodes", opts.MaxBatchNodes}, {"max-batch-edges", opts.MaxBatchEdges}} {
		if l.v < 0 {
			return fmt.Errorf("serve: --%s %d is invalid: it must be ≥ 1 (0 means the default)", l.flag, l.v)
		}
	}
	var token string
	if opts.TokenFile != "" {
		var err error
		if token, err = serve.ReadToken(opts.TokenFile); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}
	s, err := savedmodel.Open(opts.Model)
	if err != nil {
		return fmt.Errorf("serve: --model %w", err)
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	srv, err := serve.New(s, serve.Config{Addr: opts.Addr, Token: token, MaxBatch: opts.MaxBatch, MaxBody: opts.MaxBody,
		MaxGraphNodes: opts.MaxGraphNodes, MaxGraphEdges: opts.MaxGraphEdges,
		MaxBatchNodes: opts.MaxBatchNodes, MaxBatchEdges: opts.MaxBatchEdges, Logger: logger})
	if err != nil {
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
