package main

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime/pprof"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gssl/gssl/internal/atomicfile"
	"github.com/gssl/gssl/internal/parallel"
)

// endProtection makes a command's protection of its inputs (checkFiles,
// atomicfile.Protect) end with the command, error or not. The protected
// set is the process's: left in place, it would outlive inputs that are
// then deleted, and a later file given a deleted input's inode (as the
// file system reuses them) would be refused as that input; tests run many
// commands in one process.
var endProtection sync.Once

// globals are the flags every command shares (help/gssl.md).
type globals struct {
	JSON       bool          `flag:"json"`
	Spin       time.Duration `flag:"spin"`
	CPUProfile string        `flag:"cpu-profile"`

	stopProfile func() error // ends the profile; set once a command starts
}

// startProfile starts the CPU profile of --cpu-profile and returns the call
// that ends it (a no-op without the flag).
func startProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpu-profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpu-profile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// configureParallel maps --spin (or, when the flag is not given, the
// environment variable GSSL_SPIN) to parallel.Configure. A spin of 0 parks
// idle workers at once.
func configureParallel(spin time.Duration, given bool, env string) error {
	if !given && env != "" {
		d, err := time.ParseDuration(env)
		if err != nil || d < 0 {
			return fmt.Errorf("GSSL_SPIN=%q is invalid: it must be a duration ≥ 0 such as 0, 50us or 1ms", env)
		}
		spin = d
	}
	if spin < 0 {
		return fmt.Errorf("--spin=%v is invalid: it must be a duration ≥ 0 such as 0, 50us or 1ms", spin)
	}
	c := parallel.Config{Spin: spin}
	if spin == 0 {
		c.Spin = -1 // park at once
	}
	return parallel.Configure(c)
}

// commands lists the constructors of the subcommands, each in its own
// file: a command is its options, its constructor and its run function.
var commands = []func(*globals) *cobra.Command{
	newLabelpropCmd, newSTKRCommand, newClassifyCommand,
	newIMGPCommand, newGPCommand, newFalkonCommand, newSVMCommand, newGraphKernelCommand,
	newEigsCommand, newEmbedCommand, newClusterCommand, newKNNCommand,
	newInfoCommand, newGenerateCommand, newConvertCommand,
	newFitCommand, newPredictCommand, newServeCommand, newModelCommand, newVersionCommand,
}

// usageError is a command line gssl cannot run (no command, a bad flag);
// main exits with status 2 for it, 1 for every other error.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func newRoot() *cobra.Command {
	root, _ := newRootGlobals()
	return root
}

// newRootGlobals is newRoot, also returning the shared flags (main ends the
// profile through them, whether the command succeeded or not).
func newRootGlobals() (*cobra.Command, *globals) {
	endProtection.Do(func() { cobra.OnFinalize(func() { atomicfile.Protect() }) })
	g := &globals{Spin: parallel.DefaultSpin}
	var v struct {
		Version bool `flag:"version"`
	}
	root := newCommand("gssl", nil, func(cmd *cobra.Command, _ []string) error {
		switch {
		case v.Version:
			return printVersion(cmd, g.JSON)
		case g.JSON:
			return usageError{errors.New("no command given (gssl --help lists them); --json applies to a command")}
		}
		return cmd.Help()
	})
	root.SilenceUsage, root.SilenceErrors = true, true
	h := readHelp("gssl")
	bindFlags(root.PersistentFlags(), "gssl", h, g)
	bindFlags(root.Flags(), "gssl", h, &v)
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		rec := &inputRecord{}
		cmd.SetContext(withInputRecord(cmd.Context(), rec))
		cmd.SetOut(&commandOut{Writer: cmd.OutOrStdout(), rec: rec})
		if err := checkFiles(cmd, args); err != nil {
			return err
		}
		if err := useOutStdout(cmd, g.JSON); err != nil {
			return err
		}
		f := cmd.Flag("spin")
		if err := configureParallel(g.Spin, f != nil && f.Changed, os.Getenv("GSSL_SPIN")); err != nil {
			return err
		}
		stop, err := startProfile(g.CPUProfile)
		g.stopProfile = stop
		return err
	}
	root.SetFlagErrorFunc(unknownFlagError)
	for _, c := range commands {
		root.AddCommand(c(g))
	}
	return root, g
}

// libraryPackages are gssl's library packages, whose errors start with
// their name ("eval: ", "loaders: ") so that a Go caller sees which package
// failed, with the stages some of them name ("choose: ", "pipeline: ").
var libraryPackages = []string{
	"atomicfile", "capi", "choose", "confidence", "datasets", "diffusion", "estimator", "estimatortest", "eval", "figures", "generate", "gp", "graph", "graphfile",
	"graphkernels", "homophily", "htmlreport", "imgp", "kernel", "knngraph", "krr", "krylov", "labelprop", "laplacian",
	"linbp", "linop", "loaders", "logreg", "memlimit", "mlp", "modelfile", "nodeclass", "nodeids", "persist", "pictures", "pipeline", "propagate",
	"protocol", "savedmodel", "serve", "spectral", "stkr", "stkreval", "svm",
}

// packageChain matches one package prefix after the start or a colon.
var packageChain = regexp.MustCompile(`(^|: )(?:` + strings.Join(libraryPackages, "|") + `): `)

// userMessage is err as the command line prints it: the command's name
// (when the message starts with it) and then the file, line, flag and value
// the error names, without the chain of package names the error collected
// on its way up ("classify: eval: seed 0: nodeclass: choose: …" becomes
// "classify: seed 0: …").
func userMessage(cmd *cobra.Command, err error) string {
	msg := err.Error()
	head := ""
	if cmd != nil && cmd.Parent() != nil {
		name := cmd.Name() + ": "
		if cmd.Parent().Parent() != nil {
			name = cmd.Parent().Name() + " " + name // model info: …
		}
		if strings.HasPrefix(msg, name) {
			head, msg = name, msg[len(name):]
		}
	}
	for {
		next := packageChain.ReplaceAllString(msg, "$1")
		if next == msg {
			return head + msg
		}
		msg = next
	}
}
