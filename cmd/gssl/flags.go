package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gssl/gssl/eval"
)

// splitSpec is a parsed --split.
type splitSpec struct {
	kind     string // "none" (the default protocol), "planetoid", "random" or "file"
	perClass int
	path     string
}

// parseSplitSpec reads --split: auto (the data set's own split when it has
// one, else none), none, planetoid, random:K or a split file.
func parseSplitSpec(s string, hasSplit bool) (splitSpec, error) {
	switch {
	case s == "auto" || s == "":
		if hasSplit {
			return splitSpec{kind: "planetoid"}, nil
		}
		return splitSpec{kind: "none"}, nil
	case s == "none":
		return splitSpec{kind: "none"}, nil
	case s == "planetoid":
		return splitSpec{kind: "planetoid"}, nil
	case strings.HasPrefix(s, "random:"):
		k, err := strconv.Atoi(strings.TrimPrefix(s, "random:"))
		if err != nil || k < 1 {
			return splitSpec{}, fmt.Errorf("--split %q: want random:K with K ≥ 1 training nodes per class", s)
		}
		return splitSpec{kind: "random", perClass: k}, nil
	}
	return splitSpec{kind: "file", path: s}, nil
}

// splitName is how outputs name the split: the flag as given, with what
// auto resolved to.
func splitName(flag string, spec splitSpec) string {
	if flag != "auto" && flag != "" {
		return flag
	}
	if spec.kind == "none" {
		return "auto: none"
	}
	return "auto: the data set's split"
}

// checkSplitFlag validates --split before anything is loaded.
func checkSplitFlag(s string) error {
	sp, err := parseSplitSpec(s, false)
	if err != nil || sp.kind != "file" {
		return err
	}
	if _, err := statFile(sp.path); err != nil {
		return fmt.Errorf("--split %q is not auto, none, planetoid or random:K, and not a readable split file: %w", s, err)
	}
	return nil
}

// randomSizes returns the validation and test sizes of a random split with
// perClass training nodes per class: the flags when ≥ 0, otherwise
// min(defVal, ⌊r/3⌋) and min(1000, ⌊r/2⌋) of the r labelled nodes left
// after training (500 and 1000 on Cora, the Planetoid protocol; small graphs
// get proportionally smaller sets).
func randomSizes(labels []int, perClass, val, test, defVal int) (int, int) {
	counts := make([]int, eval.Classes(labels))
	rest := 0
	for _, l := range labels {
		if l >= 0 {
			counts[l]++
			rest++
		}
	}
	for _, c := range counts {
		rest -= min(c, perClass)
	}
	if val < 0 {
		val = min(defVal, rest/3)
	}
	if test < 0 {
		test = min(1000, rest/2)
	}
	return val, test
}

// checkRange refuses a negative count flag; -1 may mean "automatic" where
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

// checkTol refuses a tolerance outside (0, 1); 0 means the default.
func checkTol(tol float64) error {
	if tol != 0 && !(tol > 0 && tol < 1) {
		return fmt.Errorf("--tol %v is invalid: it must be in (0, 1), or 0 for the default", tol)
	}
	return nil
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

// maxIterations bounds the iteration and restart counts given by flags
// (--max-iter of falkon, imgp and stkr, cluster's --restarts): each is a
// pass over the data, and the solvers that stop early on convergence also
// take a count as a cap, so a typo such as 10⁹ would run without end. The
// published protocols use at most a few thousand.
const maxIterations = 100000

// checkBounded refuses a count flag outside [lo, hi]; why says what the
// bound is for.
func checkBounded(flag string, v, lo, hi int, why string) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s %d is invalid: it must be in [%d, %d]%s", flag, v, lo, hi, why)
	}
	return nil
}
