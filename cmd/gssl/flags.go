package main

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/memlimit"
)

// parseSplitFlag reads --split (eval.ParseSplitSpec) and checks what can be
// checked before anything is loaded: a split file must be readable.
func parseSplitFlag(s string) (eval.SplitSpec, error) {
	spec, err := eval.ParseSplitSpec(s)
	if err == nil {
		err = spec.Check()
	}
	return spec, err
}

// newSplitter builds the splits of spec on ds with the --val and --test
// sizes (−1: the defaults of eval.SplitSizes).
func newSplitter(spec eval.SplitSpec, ds *loaders.NodeDataset, source string, val, test int) (*eval.Splitter, error) {
	return eval.NewSplitter(spec, ds.SplitData(source), eval.SplitSizes{Val: val, Test: test})
}

// checkCount refuses a negative count flag; -1 may mean "automatic" where
// allowAuto is set.
func checkCount(name string, v, lo int, auto string) error {
	if v >= lo || (auto != "" && v == -1) {
		return nil
	}
	if auto != "" {
		return fmt.Errorf("--%s %d is invalid: it must be ≥ %d, or -1 for %s", name, v, lo, auto)
	}
	return fmt.Errorf("--%s %d is invalid: it must be ≥ %d", name, v, lo)
}

// maxSeeds bounds --seeds: every seed is a whole run (a split, a fit, a
// score), and a count from a typo such as 10⁹ would run for days and hold a
// result per seed. The benchmarks use 10 to 100.
const maxSeeds = 10000

// checkSeedCount refuses a --seeds count outside [lo, maxSeeds].
func checkSeedCount(n, lo int) error {
	if n < lo || n > maxSeeds {
		return fmt.Errorf("--seeds %d is invalid: it must be in [%d, %d] (each seed is a whole run)", n, lo, maxSeeds)
	}
	return nil
}

// fieldFlagError rewrites an *estimator.FieldError in err (a setting of
// the library, named by its Go field) in the words of the command line:
// "MaxGraphNodes = -1 is invalid: …" becomes "--max-graph-nodes -1 is
// invalid: …". The flag is the tag of the field of that name in the options
// struct opts points to, when one is given and has it, else the field's
// name in kebab case. Other errors are returned unchanged.
func fieldFlagError(err error, opts ...any) error {
	var fe *estimator.FieldError
	if !errors.As(err, &fe) {
		return err
	}
	flag := flagName(fe.Field)
	for _, o := range opts {
		if f, ok := reflect.TypeOf(o).Elem().FieldByName(fe.Field); ok && f.Tag.Get("flag") != "" {
			flag = f.Tag.Get("flag")
		}
	}
	v := fe.Value
	if s, ok := v.(string); ok {
		v = strconv.Quote(s)
	}
	return fmt.Errorf("--%s %v is invalid: %s", flag, v, fe.Reason)
}

// flagName is the flag of a Go field name: MaxGraphNodes → max-graph-nodes.
func flagName(field string) string {
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// checkOutputs checks each flag and path pair of flagPaths with
// checkOutPath before any work, naming command in the error.
func checkOutputs(command string, flagPaths ...string) error {
	for i := 0; i+1 < len(flagPaths); i += 2 {
		if err := checkOutPath(flagPaths[i], flagPaths[i+1]); err != nil {
			return fmt.Errorf("%s: %w", command, err)
		}
	}
	return nil
}

// classifyClassBlocks is how many n×c float64 blocks a fit of gssl
// classify's models holds at once, counted generously (targets, solution,
// work blocks, predictions).
const classifyClassBlocks = 8

// checkClassMemory refuses, before any dense block is allocated, a fit
// whose classes × nodes blocks, need bytes, pass --max-memory
// (loaders.NodeDataset.CheckClassMemory).
func checkClassMemory(cmd, maxMemory string, ds *loaders.NodeDataset, need int64) error {
	limit, err := parseBytes("max-memory", maxMemory)
	if err == nil {
		err = ds.CheckClassMemory(need, memlimit.Budget{Bytes: limit, Name: "--max-memory"})
	}
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}
