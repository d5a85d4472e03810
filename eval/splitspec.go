package eval

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// SplitKind is the kind of split a SplitSpec names.
type SplitKind int

const (
	// SplitAuto (the zero value) is the data set's own split when it has
	// one, and SplitNone otherwise (Resolve).
	SplitAuto SplitKind = iota
	// SplitNone is no benchmark split: every labelled node is trained on,
	// none is held out.
	SplitNone
	// SplitOwn is the data set's own split as its loader found it
	// (a Planetoid folder's split_planetoid.txt, an OGB folder's split):
	// the flag's "planetoid".
	SplitOwn
	// SplitRandom draws PerClass training nodes of every class and the
	// validation and test nodes from the rest (RandomPerClass), per seed.
	SplitRandom
	// SplitPerClass draws PerClass training and ValPerClass validation
	// nodes of every class and tests on every other labelled node
	// (PerClassSplit), per seed.
	SplitPerClass
	// SplitFile reads the split file Path: lines "train i", "val i" or
	// "test i", nodes numbered 0..n−1.
	SplitFile
	// SplitFolder reads, for seed s, the split file
	// Path/random20_seed<s>.txt (the per-seed files of a published
	// protocol).
	SplitFolder
)

// SplitSpec names how splits are built: the parsed form of a --split flag
// ("auto", "none", "planetoid", "random:K", "per-class:T,V" or a file), or
// of a folder of per-seed split files.
type SplitSpec struct {
	Kind SplitKind
	// PerClass is K of random:K and T of per-class:T,V; ValPerClass is V.
	PerClass, ValPerClass int
	// Path is the split file (SplitFile) or folder (SplitFolder).
	Path string

	flag string // the text it was parsed from
	auto bool   // Resolve replaced SplitAuto
}

// ParseSplitSpec reads a --split flag: auto (or ""), none, planetoid,
// random:K (K ≥ 1), per-class:T,V (T ≥ 1, V ≥ 0) or the path of a split
// file. It does not look at the file (Check does).
func ParseSplitSpec(s string) (SplitSpec, error) {
	spec := SplitSpec{flag: s}
	switch {
	case s == "auto" || s == "":
		spec.Kind = SplitAuto
	case s == "none":
		spec.Kind = SplitNone
	case s == "planetoid":
		spec.Kind = SplitOwn
	case strings.HasPrefix(s, "random:"):
		k, err := strconv.Atoi(strings.TrimPrefix(s, "random:"))
		if err != nil || k < 1 {
			return SplitSpec{}, fmt.Errorf("--split %q: want random:K with K ≥ 1 training nodes per class", s)
		}
		spec.Kind, spec.PerClass = SplitRandom, k
	case strings.HasPrefix(s, "per-class:"):
		parts := strings.Split(strings.TrimPrefix(s, "per-class:"), ",")
		var t, v int
		var err1, err2 error
		if len(parts) == 2 {
			t, err1 = strconv.Atoi(parts[0])
			v, err2 = strconv.Atoi(parts[1])
		}
		if len(parts) != 2 || err1 != nil || err2 != nil || t < 1 || v < 0 {
			return SplitSpec{}, fmt.Errorf("--split %q: want per-class:T,V with T ≥ 1 training and V ≥ 0 val nodes per class", s)
		}
		spec.Kind, spec.PerClass, spec.ValPerClass = SplitPerClass, t, v
	default:
		spec.Kind, spec.Path = SplitFile, s
	}
	return spec, nil
}

// SplitFolderSpec is the spec of a folder of per-seed split files.
func SplitFolderSpec(dir string) SplitSpec { return SplitSpec{Kind: SplitFolder, Path: dir} }

// Check validates what can be checked before the data is loaded: a split
// file must be a readable file, a folder a folder.
func (s SplitSpec) Check() error {
	switch s.Kind {
	case SplitFile:
		st, err := os.Stat(s.Path)
		if err == nil && st.IsDir() {
			err = fmt.Errorf("%s is a folder", s.Path)
		}
		if err != nil {
			return fmt.Errorf("--split %q is not auto, none, planetoid, random:K or per-class:T,V, and not a readable split file: %w", s.Path, err)
		}
	case SplitFolder:
		if st, err := os.Stat(s.Path); err != nil || !st.IsDir() {
			return fmt.Errorf("%s is not a folder of split files (random20_seed<s>.txt)", s.Path)
		}
	}
	return nil
}

// Resolve returns the spec with SplitAuto replaced by SplitOwn when the
// data set has a split of its own (hasOwn), SplitNone otherwise; other
// kinds are returned as they are.
func (s SplitSpec) Resolve(hasOwn bool) SplitSpec {
	if s.Kind != SplitAuto {
		return s
	}
	s.Kind, s.auto = SplitNone, true
	if hasOwn {
		s.Kind = SplitOwn
	}
	return s
}

// Seeded reports whether the split depends on the seed.
func (s SplitSpec) Seeded() bool {
	return s.Kind == SplitRandom || s.Kind == SplitPerClass || s.Kind == SplitFolder
}

// String is the flag's text for the spec: auto, none, planetoid, random:K,
// per-class:T,V, or the path.
func (s SplitSpec) String() string {
	switch s.Kind {
	case SplitAuto:
		return "auto"
	case SplitNone:
		return "none"
	case SplitOwn:
		return "planetoid"
	case SplitRandom:
		return fmt.Sprintf("random:%d", s.PerClass)
	case SplitPerClass:
		return fmt.Sprintf("per-class:%d,%d", s.PerClass, s.ValPerClass)
	}
	return s.Path
}

// Name is how outputs name the split: the flag as it was given, and for
// auto (once resolved) what it resolved to: "auto: none" or "auto: the
// data set's split".
func (s SplitSpec) Name() string {
	switch {
	case s.auto && s.Kind == SplitNone:
		return "auto: none"
	case s.auto:
		return "auto: the data set's split"
	case s.flag != "":
		return s.flag
	}
	return s.String()
}
