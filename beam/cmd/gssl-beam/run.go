package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"

	"github.com/gssl/gssl/beam/pipeline"
	"github.com/gssl/gssl/loaders"
)

const usage = `usage:
  gssl-beam labelprop --edges E --labels L [--alpha A] [--tol T | --rounds K] --out F [--shards N]
                      [--rounds-per-job R [--work DIR]] --runner R [Beam flags]
  gssl-beam propagate --edges E --features X [--k K] --out F [--shards N] --runner R [Beam flags]

runners: prism (in-process), flink, spark, dataflow; Beam flags (e.g. --endpoint
host:8099 --environment_type DOCKER) are passed to the SDK, as is everything after --.
`

// runners are the --runner values.
var runners = map[string]bool{"prism": true, "flink": true, "spark": true, "dataflow": true, "universal": true}

// options are the flags of both commands.
type options struct {
	edges, labels, features string
	header, weight          string
	source, target          string
	delimiter               string
	alpha, tol              float64
	rounds, k, buckets      int
	roundsPerJob            int
	work                    string
	keepIsolated            bool
	out                     string
	shards                  int
	runner                  string
	verbose                 bool
	json                    bool
}

// result is what --json prints: one object on stdout.
type result struct {
	Command string  `json:"command"`
	Out     string  `json:"out"`
	Shards  int     `json:"shards"`
	Runner  string  `json:"runner"`
	Seconds float64 `json:"seconds"`
	// labelprop
	Alpha      *float64 `json:"alpha,omitempty"`
	Iterations *int     `json:"iterations,omitempty"`
	Rounds     *int     `json:"shuffle_rounds,omitempty"`
	Buckets    *int     `json:"buckets,omitempty"`
	Jobs       *int     `json:"jobs,omitempty"`
	// propagate
	K *int `json:"k,omitempty"`
}

func (o *options) flags(cmd string) *flag.FlagSet {
	f := flag.NewFlagSet("gssl-beam "+cmd, flag.ContinueOnError)
	f.StringVar(&o.edges, "edges", "", "edge table(s): path or glob, CSV/TSV/white space (gzip), or .parquet (src, dst, weight)")
	f.StringVar(&o.header, "header", "auto", "tables start with a header line: auto (recognised by column names), yes or no")
	f.StringVar(&o.weight, "weight", "", "edge weight column, by name or 1-based position; none ignores weights")
	f.StringVar(&o.source, "source", "", "source id column, by name or 1-based position")
	f.StringVar(&o.target, "target", "", "target id column, by name or 1-based position")
	f.StringVar(&o.delimiter, "delimiter", "", `field separator: , \t ; | or "space" (default: detected)`)
	f.StringVar(&o.out, "out", "", "output CSV file, or folder of shards with --shards")
	f.IntVar(&o.shards, "shards", 1, "output files: 1 writes one file (one worker writes every row); N > 1 writes N files under --out")
	f.StringVar(&o.runner, "runner", "prism", "Beam runner: prism, flink, spark or dataflow")
	f.BoolVar(&o.verbose, "verbose", false, "print a failed job's error whole, as the runner reports it (default: the cause only)")
	f.BoolVar(&o.json, "json", false, "print one JSON object on stdout (what was written, the settings, the wall time in seconds) instead of a summary line")
	switch cmd {
	case "labelprop":
		f.StringVar(&o.labels, "labels", "", `"id,label" table(s); an empty or missing label means unlabelled`)
		f.Float64Var(&o.alpha, "alpha", pipeline.DefaultAlpha, "spreading weight a in (0, 1)")
		f.Float64Var(&o.tol, "tol", 0, "relative residual the rounds guarantee by the Chebyshev bound (0 means 1e-6)")
		f.IntVar(&o.rounds, "rounds", 0, "iterations K (0: from --alpha and --tol)")
		f.IntVar(&o.buckets, "buckets", pipeline.DefaultBuckets, "parts the nodes are split into by a hash of their id: a round moves one element per bucket and per pair of buckets (raise with the workers; the scores do not depend on it)")
		f.IntVar(&o.roundsPerJob, "rounds-per-job", 0, "run the iterations as jobs of R rounds, one after the other, passing the state through files under --work (bounds each job's memory; 0: one job)")
		f.StringVar(&o.work, "work", "", "checkpoint folder for --rounds-per-job (any Beam filesystem, reached by every worker); default with --runner prism: a temporary folder, removed at the end")
		f.BoolVar(&o.keepIsolated, "keep-isolated-seeds", false, "let labelled nodes of degree 0 keep their label instead of failing")
	case "propagate":
		f.StringVar(&o.features, "features", "", "feature table(s): CSV/TSV of numbers, first column named id for node ids (else row i is node i)")
		f.IntVar(&o.k, "k", 2, "propagation steps K of S̃^K X")
	}
	return f
}

// splitArgs separates gssl-beam's flags from Beam's: a flag f knows goes to
// f, any other (with its value) and everything after "--" to Beam.
func splitArgs(f *flag.FlagSet, args []string) (mine, beamArgs []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return mine, append(beamArgs, args[i+1:]...)
		}
		name := strings.TrimLeft(a, "-")
		if name == a || name == "" {
			mine = append(mine, a) // a positional argument: f reports it
			continue
		}
		hasValue := strings.Contains(name, "=")
		if k := strings.IndexByte(name, '='); k >= 0 {
			name = name[:k]
		}
		dst := &beamArgs
		fl := f.Lookup(name)
		if fl != nil || name == "h" || name == "help" {
			dst = &mine
		} else {
			fl = flag.CommandLine.Lookup(name)
		}
		*dst = append(*dst, a)
		if !hasValue && fl != nil && !isBool(fl) && i+1 < len(args) {
			i++
			*dst = append(*dst, args[i])
		}
	}
	return mine, beamArgs
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (o *options) tableOptions() (loaders.TableOptions, error) {
	h, err := loaders.ParseHeaderMode(o.header)
	if err != nil {
		return loaders.TableOptions{}, fmt.Errorf("--header: %w", err)
	}
	t := loaders.TableOptions{Header: h}
	switch o.delimiter {
	case "":
	case ",", ";", "|":
		t.Delimiter = o.delimiter[0]
	case `\t`, "\t", "tab":
		t.Delimiter = '\t'
	case " ", "space":
		t.Delimiter = ' '
	default:
		return t, fmt.Errorf(`--delimiter %q is invalid: use , \t ; | or space`, o.delimiter)
	}
	return t, nil
}

// checkOut refuses an output whose local folder does not exist, before the
// pipeline runs; a folder of shards is created.
func checkOut(out string, shards int) error {
	if out == "" {
		return errors.New("--out is required")
	}
	if shards < 1 {
		return fmt.Errorf("--shards %d is invalid: it must be ≥ 1", shards)
	}
	if strings.Contains(out, "://") {
		return nil
	}
	if shards > 1 {
		return os.MkdirAll(out, 0o755)
	}
	if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
		return fmt.Errorf("--out %s: the folder %s does not exist", out, filepath.Dir(out))
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return fmt.Errorf("--out %s is a folder; give a file name, or --shards N", out)
	}
	return nil
}

// verbose reports whether --verbose is among the arguments (then a failed
// job's error is printed whole, as the runner reports it).
func verbose(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--verbose" || a == "-verbose" || a == "--verbose=true" {
			return true
		}
	}
	return false
}

// run is the command without os.Exit: args without the program name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if err := runErr(ctx, args, stdout, stderr); err != nil {
		if !verbose(args) {
			err = pipeline.Cause(err)
		}
		fmt.Fprintf(stderr, "gssl-beam: %v\n", err)
		return 1
	}
	return 0
}

func runErr(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("no command\n" + usage)
	}
	cmd := args[0]
	if cmd != "labelprop" && cmd != "propagate" {
		return fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
	var o options
	f := o.flags(cmd)
	f.SetOutput(stderr)
	mine, beamArgs := splitArgs(f, args[1:])
	if err := f.Parse(mine); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, "\n"+usage)
			return nil
		}
		return err
	}
	if f.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", cmd, f.Arg(0))
	}
	if err := flag.CommandLine.Parse(beamArgs); err != nil {
		return fmt.Errorf("Beam flags %q: %w", beamArgs, err)
	}
	if flag.CommandLine.NArg() > 0 {
		return fmt.Errorf("Beam flags: unexpected argument %q", flag.CommandLine.Arg(0))
	}
	if !runners[o.runner] {
		return fmt.Errorf("--runner %q is invalid: use prism, flink, spark or dataflow", o.runner)
	}
	if o.edges == "" {
		return errors.New("--edges is required")
	}
	if err := checkOut(o.out, o.shards); err != nil {
		return err
	}
	tab, err := o.tableOptions()
	if err != nil {
		return err
	}
	beam.Init()
	start := time.Now()
	res := result{Command: cmd, Out: o.out, Shards: o.shards, Runner: o.runner}
	switch cmd {
	case "labelprop":
		if err := runLabelprop(ctx, o, tab, stderr, &res); err != nil {
			return err
		}
	case "propagate":
		if o.features == "" {
			return errors.New("--features is required")
		}
		p, s := beam.NewPipelineWithRoot()
		if err := buildPropagate(ctx, s, o, tab); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "gssl-beam: feature propagation S̃^%d X, %d shuffle rounds, runner %s\n", o.k, o.k, o.runner)
		if _, err := beam.Run(ctx, o.runner, p); err != nil {
			return err
		}
		res.K = &o.k
	}
	res.Seconds = time.Since(start).Seconds()
	if o.json {
		e := json.NewEncoder(stdout)
		e.SetIndent("", "  ")
		return e.Encode(res)
	}
	what := "predictions"
	if cmd == "propagate" {
		what = "propagated features"
	}
	where := o.out
	if o.shards > 1 {
		where = fmt.Sprintf("%d shards under %s", o.shards, o.out)
	}
	fmt.Fprintf(stdout, "%s written to %s (%.1f s)\n", what, where, res.Seconds)
	return nil
}

// runLabelprop runs label spreading: one job, or with --rounds-per-job
// several one after the other.
func runLabelprop(ctx context.Context, o options, tab loaders.TableOptions, stderr io.Writer, res *result) error {
	sp := pipeline.Spreading{Alpha: o.alpha, Tol: o.tol, Rounds: o.rounds, Buckets: o.buckets, LogResidual: true}
	if err := sp.Validate(); err != nil {
		return flagError(err)
	}
	lp := pipeline.LabelProp{Edges: o.edges, Labels: o.labels, Edge: pipeline.EdgeOptions{Table: tab, Source: o.source, Target: o.target, Weight: o.weight},
		Spreading: sp, KeepIsolatedSeeds: o.keepIsolated, Out: o.out, Shards: o.shards, RoundsPerJob: o.roundsPerJob, Work: o.work}
	if o.roundsPerJob < 0 || o.roundsPerJob > pipeline.MaxRounds {
		return flagError(lp.Validate())
	}
	jobs := lp.Jobs()
	if o.roundsPerJob > 0 && o.work == "" {
		if o.runner != "prism" {
			return fmt.Errorf("--work is required with --rounds-per-job and --runner %s: a folder every worker reaches (gs://…, hdfs://…, a shared mount)", o.runner)
		}
		if jobs > 1 {
			tmp, err := os.MkdirTemp("", "gssl-beam-work-")
			if err != nil {
				return fmt.Errorf("--work: %w", err)
			}
			defer os.RemoveAll(tmp)
			lp.Work = tmp
		}
	}
	if jobs > 1 && *jobopts.Async {
		return fmt.Errorf("--async cannot run %d jobs one after the other (--rounds-per-job %d): drop one of them", jobs, o.roundsPerJob)
	}
	if err := lp.Validate(); err != nil {
		return flagError(err)
	}
	what := ""
	if jobs > 1 {
		what = fmt.Sprintf(", %d jobs of %d rounds, checkpoints under %s", jobs, o.roundsPerJob, lp.Work)
	}
	fmt.Fprintf(stderr, "gssl-beam: label spreading, alpha %g, %d iterations (%d shuffle rounds), %d buckets, runner %s%s\n", o.alpha, sp.K(), sp.K()-1, o.buckets, o.runner, what)
	var progress func(j, jobs, first, last int)
	if o.roundsPerJob > 0 {
		progress = func(j, jobs, first, last int) {
			fmt.Fprintf(stderr, "gssl-beam: job %d/%d: rounds %d–%d\n", j+1, jobs, first, last)
		}
	}
	k, rounds, buckets := sp.K(), sp.K()-1, o.buckets
	res.Alpha, res.Iterations, res.Rounds, res.Buckets, res.Jobs = &o.alpha, &k, &rounds, &buckets, &jobs
	exec := func(ctx context.Context, p *beam.Pipeline) error {
		_, err := beam.Run(ctx, o.runner, p)
		return err
	}
	return lp.Run(ctx, exec, progress)
}

func buildPropagate(ctx context.Context, s beam.Scope, o options, tab loaders.TableOptions) error {
	edges, err := pipeline.ReadEdges(ctx, s, o.edges, pipeline.EdgeOptions{Table: tab, Source: o.source, Target: o.target, Weight: o.weight})
	if err != nil {
		return err
	}
	feats, err := pipeline.ReadFeatures(ctx, s, o.features, tab)
	if err != nil {
		return err
	}
	g := pipeline.BuildGraph(s, edges, beam.PCollection{}, false)
	nodes, err := pipeline.Propagate(s, g, feats, o.k)
	if err != nil {
		return flagError(err)
	}
	pipeline.WriteFeatures(s, g, feats, nodes, o.out, o.shards)
	return nil
}

// flagError names the flags of the library's settings.
func flagError(err error) error {
	r := strings.NewReplacer("pipeline: Alpha = ", "--alpha ", "pipeline: Tol = ", "--tol ", "pipeline: Rounds = ", "--rounds ", "pipeline: K = ", "--k ", "pipeline: Buckets = ", "--buckets ", "pipeline: RoundsPerJob = ", "--rounds-per-job ")
	return errors.New(r.Replace(err.Error()))
}
