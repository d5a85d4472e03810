package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/laplacian"
	"github.com/gssl/gssl/spectral"
)

type eigsOptions struct {
	In        nodeInput // the graph (nothing: the embedded Cora)
	K         int       // eigenpairs
	Laplacian string    // sym, rw or un
	Tol       float64   // residual tolerance (0: spectral.DefaultTol)
	Block     int       // block size (0: default)
	Basis     int       // active basis size (0: default)
	Filter    int       // Chebyshev filter degree (0: automatic, 1: none)
	Method    string    // auto, block or single
	Seed      uint64
	Isolated  string // error or zero
	Out       string // eigenvectors file, "" for none
	JSON      bool
	Plots     plotFlags // --plot, --report
}

func newEigsCommand(g *globals) *cobra.Command {
	opts := eigsOptions{}
	cmd := &cobra.Command{
		Use:   "eigs",
		Short: "Smallest eigenpairs of a graph Laplacian (block Lanczos, Chebyshev-filtered, per component)",
		Long: `eigs computes the K smallest eigenpairs of the symmetric normalised (sym), random-walk
(rw) or unnormalised (un) Laplacian of a graph and reports the eigenvalues, the
largest residual ‖Lv − λv‖ (the D-norm residual for rw) and the time of the solve.

The graph comes from --data DIR or --edges FILE (an edge table or a Matrix Market
file); without either, the Cora embedded in gssl. --out FILE writes one row per
node: its id and its coordinates v1..vK in the eigenvectors. Each
connected component is solved on its own, so a graph with c components reports the
eigenvalue 0 exactly c times (78 on Cora) when K allows. A node of degree 0 is
its own component with a zero row (eigenvalue 0, as scipy and networkx) unless
--isolated error or --isolated zero (D^{-1/2} := 0: eigenvalue 1 of L_sym and L_rw).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.JSON = g.JSON
			return runEigs(cmd.Context(), opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	opts.In.addFlags(f)
	f.IntVar(&opts.K, "eigenpairs", 10, "number of eigenpairs K ≥ 1")
	renamedFlag(cmd, "k", "eigenpairs")
	f.StringVar(&opts.Laplacian, "laplacian", "sym", "sym (I − D^-1/2 W D^-1/2), rw (I − D^-1 W) or un (D − W)")
	f.Float64Var(&opts.Tol, "tol", 0, "residual tolerance per pair, relative to ‖L‖ (0: 1e-10)")
	f.IntVar(&opts.Block, "block", 0, "Lanczos block size (0: min(k, 4))")
	f.IntVar(&opts.Basis, "basis", 0, "active basis size (0: max(2k, k+4·block, 24))")
	f.IntVar(&opts.Filter, "filter-degree", 0, "Chebyshev filter degree (0: automatic, 1: no filter)")
	f.StringVar(&opts.Method, "method", "auto", "Lanczos variant: auto (Chebyshev-filtered single-vector on components of ≥ 5000 nodes, block below), block, or single")
	f.Uint64Var(&opts.Seed, "seed", 0, "seed of the random start block")
	f.StringVar(&opts.Isolated, "isolated", "component", "nodes of degree 0: component (own component, zero row: eigenvalue 0, as scipy and networkx), error, or zero (D^-1/2 := 0)")
	f.StringVar(&opts.Out, "out", "", "write one row per node (id, v1..vK): CSV, or JSON Lines for .jsonl/.ndjson")
	opts.Plots.addFlags(f, "the spectrum (eigenvalue against index, multiplicities marked) and the residuals on a log axis")
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
	if err := opts.check(); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	if err := opts.Plots.check(); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	kind, err := eigsKind(opts.Laplacian)
	if err != nil {
		return err
	}
	iso, err := isolatedPolicy(opts.Isolated)
	if err != nil {
		return err
	}
	method, err := spectral.ParseMethod(opts.Method)
	if err != nil {
		return fmt.Errorf("eigs: --method %q is invalid: use auto, block or single", opts.Method)
	}
	loadStart := timeNow()
	ds, err := opts.In.load(ctx, stderr)
	if err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	defer ds.Close()
	g := ds.Graph
	if opts.K > g.Nodes() {
		return fmt.Errorf("eigs: --eigenpairs %d is invalid: it must be in [1, %d] (the number of nodes)", opts.K, g.Nodes())
	}
	if err := opts.checkBasis(g.Nodes()); err != nil {
		return fmt.Errorf("eigs: %w", err)
	}
	res := eigsResult{Data: opts.In.source(), Nodes: g.Nodes(), Edges: g.Edges(), Isolated: len(g.Isolated()), Laplacian: opts.Laplacian, K: opts.K, Tol: opts.Tol, LoadSeconds: seconds(loadStart)}
	_, res.Components = g.Components()
	if res.Tol == 0 {
		res.Tol = spectral.DefaultTol
	}
	logf(stderr, "eigs: %s: %d nodes, %d edges, %d components; %d smallest eigenpairs of L_%s", res.Data, res.Nodes, res.Edges, res.Components, opts.K, opts.Laplacian)
	bar := newSteps(stderr, opts.K, "eigs")
	settings := spectral.Settings{Tol: opts.Tol, BlockSize: opts.Block, BasisSize: opts.Basis, FilterDegree: opts.Filter, Seed: opts.Seed, Method: method,
		Progress: lanczosProgress(bar)}
	resetPeakRSS()
	start := timeNow()
	r, err := spectral.LaplacianEigs(ctx, g, kind, laplacian.Options{Isolated: iso}, opts.K, settings)
	res.Seconds = seconds(start)
	res.PeakRSSMB = peakRSSMB()
	bar.Finish()
	if err != nil {
		return fmt.Errorf("eigs: %w", flagError(err))
	}
	if res.Summary, err = spectral.Summarize(r, kind, g); err != nil {
		return fmt.Errorf("eigs: %w; check the edge weights (%s)", err, magnitudeHint)
	}
	if opts.Out != "" {
		if err := writeVectors(opts.Out, ds, r.Vectors, "v", nil); err != nil {
			return fmt.Errorf("eigs: %w", err)
		}
		res.Out = opts.Out
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

// check validates the numeric flags and the output file.
func (opts eigsOptions) check() error {
	if opts.K < 1 {
		return fmt.Errorf("--eigenpairs %d is invalid: it must be ≥ 1", opts.K)
	}
	for _, v := range []struct {
		name string
		v    int
	}{{"block", opts.Block}, {"basis", opts.Basis}, {"filter-degree", opts.Filter}} {
		if v.v < 0 {
			return fmt.Errorf("--%s %d is invalid: it must be ≥ 0 (0: automatic)", v.name, v.v)
		}
	}
	if err := checkTol(opts.Tol); err != nil {
		return err
	}
	return checkOutPath("out", opts.Out)
}

// checkBasis refuses a --basis or --block beyond the graph, and a Krylov
// basis whose dense n × (basis + 2·block) vectors pass --max-memory, as
// --eigenpairs is bounded, before anything is allocated.
func (opts eigsOptions) checkBasis(n int) error {
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

// eigsKind parses --laplacian.
func eigsKind(s string) (laplacian.Kind, error) {
	if k, err := laplacian.ParseKind(s); err == nil && k != laplacian.NormalizedAdjacency {
		return k, nil
	}
	return 0, fmt.Errorf("--laplacian %q is invalid: use sym, rw or un", s)
}
