package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/spectral"
)

// eigsOptions are the flags of gssl eigs (help/eigs.md).
type eigsOptions struct {
	In        nodeInput
	K         int     `flag:"eigenpairs"`
	Laplacian string  `flag:"laplacian"`
	Tol       float64 `flag:"tol"`
	Block     int     `flag:"block"`
	Basis     int     `flag:"basis"`
	Filter    int     `flag:"filter-degree"`
	Method    string  `flag:"method"`
	Seed      uint64  `flag:"seed"`
	Isolated  string  `flag:"isolated"`
	Out       string  `flag:"out"`
	Plots     plotFlags
	JSON      bool
}

func newEigsCommand(g *globals) *cobra.Command {
	opts := eigsOptions{In: newNodeInput(), K: 10, Laplacian: "sym", Method: "auto", Isolated: "component"}
	cmd := newCommand("eigs", &opts, func(cmd *cobra.Command, _ []string) error {
		opts.JSON = g.JSON
		return runEigs(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
	})
	return cmd
}

// eigsResult is the JSON object of gssl eigs.
type eigsResult struct {
	Data       string  `json:"data"`
	Nodes      int     `json:"nodes"`
	Edges      int     `json:"edges"`
	Components int     `json:"components"`
	Isolated   int     `json:"isolated"`
	Laplacian  string  `json:"laplacian"`
	K          int     `json:"eigenpairs"`
	Tol        float64 `json:"tol"`
	spectral.Summary
	Seconds     float64 `json:"seconds"`
	LoadSeconds float64 `json:"load_seconds"`
	PeakRSSMB   any     `json:"peak_rss_mb"`
	Out         string  `json:"out,omitempty"`
}

func runEigs(ctx context.Context, opts eigsOptions, stdout, stderr io.Writer) error {
	kind, iso, method, err := opts.check()
	if err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	loadStart := timeNow()
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	defer ds.Close()
	g := ds.Graph
	if err := opts.checkBasis(g.Nodes()); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	res := eigsResult{Data: opts.In.source(), Nodes: g.Nodes(), Edges: g.Edges(), Isolated: len(g.Isolated()), Laplacian: opts.Laplacian, K: opts.K,
		Tol: cmp.Or(opts.Tol, spectral.DefaultTol), LoadSeconds: seconds(loadStart)}
	_, res.Components = g.Components()
	logf(stderr, "eigs: %s: %d nodes, %d edges, %d components; %d smallest eigenpairs of L_%s", res.Data, res.Nodes, res.Edges, res.Components, opts.K, opts.Laplacian)
	bar := newSteps(stderr, opts.K, "eigs")
	settings := spectral.Settings{Tol: opts.Tol, BlockSize: opts.Block, BasisSize: opts.Basis, FilterDegree: opts.Filter, Seed: opts.Seed, Method: method,
		Progress: lanczosProgress(bar)}
	resetPeakRSS()
	start := timeNow()
	r, err := spectral.LaplacianEigs(ctx, g, kind, laplacian.Options{Isolated: iso}, opts.K, settings)
	res.Seconds, res.PeakRSSMB = seconds(start), peakRSSMB()
	bar.Finish()
	if err != nil {
		return fmt.Errorf("eigs: %w", flagError(err))
	}
	if res.Summary, err = spectral.Summarize(r, kind, g); err != nil {
		return fmt.Errorf("eigs: %w; check the edge weights (%s)", err, magnitudeHint)
	}
	if res.Out, err = writeOut(opts.Out, func() error { return writeVectors(opts.Out, ds, r.Vectors, "v", nil) }); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	if err := opts.Plots.write(stderr, "eigs", res, func() (picture, error) { return eigsPicture(res) }); err != nil {
		return err
	}
	return reportSummary(stdout, opts.JSON, "eigs", res)
}

// lanczosProgress shows a Lanczos solve's converged eigenpairs (of the
// component being solved) as they lock: a bar on a terminal, a line each
// otherwise.
func lanczosProgress(st *steps) func(spectral.Status) {
	return func(s spectral.Status) {
		st.bar.Describe(fmt.Sprintf("restart %d, %d products", s.Restarts, s.MatVecs))
		st.to(s.Converged, max(s.Wanted, 1), "Lanczos: %d of %d eigenpairs converged (%d products so far)", s.Converged, s.Wanted, s.MatVecs)
	}
}

// check validates the flags that need no data and parses --laplacian,
// --isolated and --method.
func (opts *eigsOptions) check() (laplacian.Kind, laplacian.IsolatedPolicy, spectral.Method, error) {
	if opts.K < 1 {
		return 0, 0, 0, fmt.Errorf("--eigenpairs %d is invalid: it must be ≥ 1", opts.K)
	}
	for _, v := range []struct {
		name string
		v    int
	}{{"block", opts.Block}, {"basis", opts.Basis}, {"filter-degree", opts.Filter}} {
		if v.v < 0 {
			return 0, 0, 0, fmt.Errorf("--%s %d is invalid: it must be ≥ 0 (0: automatic)", v.name, v.v)
		}
	}
	if err := firstError(checkTol(opts.Tol), checkOutPath("out", opts.Out), opts.Plots.check()); err != nil {
		return 0, 0, 0, err
	}
	kind, err := laplacian.ParseKind(opts.Laplacian)
	if err != nil || kind == laplacian.NormalizedAdjacency {
		return 0, 0, 0, fmt.Errorf("--laplacian %q is invalid: use sym, rw or un", opts.Laplacian)
	}
	iso, err := isolatedPolicy(opts.Isolated)
	if err != nil {
		return 0, 0, 0, err
	}
	method, err := spectral.ParseMethod(opts.Method)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("--method %q is invalid: use auto, block or single", opts.Method)
	}
	return kind, iso, method, nil
}

// checkBasis refuses an --eigenpairs, --basis or --block beyond the graph,
// and a Krylov basis whose dense n × (basis + 2·block) vectors pass
// --max-memory, before anything is allocated.
func (opts eigsOptions) checkBasis(n int) error {
	if opts.K > n {
		return fmt.Errorf("--eigenpairs %d is invalid: it must be in [1, %d] (the number of nodes)", opts.K, n)
	}
	for _, v := range []struct {
		name string
		v    int
	}{{"basis", opts.Basis}, {"block", opts.Block}} {
		if v.v > n {
			return fmt.Errorf("--%s %d is invalid: it must be in [0, %d] (the number of nodes; 0: automatic)", v.name, v.v, n)
		}
	}
	if opts.Block > 0 && opts.Basis > 0 && opts.Block > opts.Basis {
		return fmt.Errorf("--block %d is invalid: it must be at most --basis %d", opts.Block, opts.Basis)
	}
	limit, err := parseBytes("max-memory", opts.In.MaxMemory)
	if err != nil {
		return err
	}
	vectors := int64(max(opts.Basis, 2*opts.K, 24)) + 2*int64(max(opts.Block, 4))
	return checkMemory(8*int64(n)*vectors, limit, fmt.Sprintf("%d basis vectors × %d nodes", vectors, n), "give a smaller --basis or --eigenpairs")
}
