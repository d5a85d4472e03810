package generate

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Spec is a data set to generate as gssl generate describes it: the model
// ("sbm" or "rmat"), its parameters, the features, the split and the files
// written under the prefix Out. The flag tags are the command line's
// names, which Spec's errors use. Unlike SBM and RMAT, a zero Degree,
// Exponent or EdgeFactor is refused: DefaultSpec holds the defaults.
type Spec struct {
	Model       string    // sbm | rmat
	Nodes       int       `flag:"nodes"`
	Classes     int       `flag:"classes"`
	Sizes       []int     `flag:"sizes"`
	Degree      float64   `flag:"degree"`
	Exponent    float64   `flag:"exponent"`
	Mixing      float64   `flag:"mixing"`
	Features    int       `flag:"feature-columns"`
	PerNode     int       `flag:"features-per-node"`
	TopicProb   float64   `flag:"topic-prob"`
	Scale       int       `flag:"scale"`
	EdgeFactor  int       `flag:"edge-factor"`
	ABCD        []float64 `flag:"abcd"`
	NoSelfLoops bool      `flag:"no-self-loops"`
	Seed        uint64    `flag:"seed"`
	Out         string    `flag:"out"`
	Format      string    `flag:"format"`
	Gzip        bool      `flag:"gzip"`
	PerClass    int       `flag:"per-class"`
	Val         int       `flag:"val"`
	Test        int       `flag:"test"`
}

// DefaultSpec is the command line's defaults.
func DefaultSpec() Spec {
	return Spec{Nodes: 10000, Classes: DefaultClasses, Degree: DefaultDegree, Exponent: DefaultExponent,
		Mixing: DefaultMixing, TopicProb: DefaultTopicProb, Scale: 16, EdgeFactor: DefaultEdgeFactor,
		ABCD: []float64{DefaultA, DefaultB, DefaultC, DefaultD}, Seed: 1, Format: string(LayoutText),
		PerClass: 20, Val: 500, Test: 1000}
}

// SBM is the SBM of s.
func (s Spec) SBM() SBM {
	cfg := SBM{Nodes: s.Nodes, Classes: s.Classes, Sizes: s.Sizes, Degree: s.Degree,
		Exponent: s.Exponent, Mixing: s.Mixing, NoSelfLoops: s.NoSelfLoops, Seed: s.Seed}
	if len(s.Sizes) > 0 {
		cfg.Classes = 0
	}
	return cfg
}

// RMAT is the R-MAT of s.
func (s Spec) RMAT() RMAT {
	r := RMAT{Scale: s.Scale, EdgeFactor: s.EdgeFactor, NoSelfLoops: s.NoSelfLoops, Seed: s.Seed}
	if len(s.ABCD) == 4 {
		r.A, r.B, r.C, r.D = s.ABCD[0], s.ABCD[1], s.ABCD[2], s.ABCD[3]
	}
	return r
}

// MemoryBytes estimates the memory of generating s (SBMBytes, RMATBytes;
// 0 for an unknown model) and says which setting to lower when it is too
// much.
func (s Spec) MemoryBytes() (need int64, lower string) {
	gsg := s.Format == string(LayoutGraphFile)
	need, lower = SBMBytes(s.SBM(), s.Features, gsg), "give fewer --nodes"
	switch {
	case s.Model == "rmat":
		need, lower = RMATBytes(s.RMAT(), gsg), "give a smaller --scale"
	case s.Model != "sbm":
		return 0, ""
	case 8*s.Features > 64*s.Nodes:
		lower = "give fewer --feature-columns"
	}
	if gsg {
		lower = "use --format txt or csv, which stream the edges, or " + strings.TrimPrefix(lower, "give ")
	}
	return need, lower
}

// specFields are the generators' parameters as NewSBM and NewRMAT name
// them, and the flags of Spec that set them.
var specFields = strings.NewReplacer("generate: sbm: ", "generate: ", "generate: rmat: ", "generate: ", "nodes=", "--nodes ", "classes=", "--classes ",
	"degree=", "--degree ", "exponent=", "--exponent ", "mixing=", "--mixing ", "scale=", "--scale ", "edge factor ", "--edge-factor ")

// specError is a generator's error retold with Spec's flag names.
type specError struct {
	msg string
	err error
}

func (e *specError) Error() string { return e.msg }
func (e *specError) Unwrap() error { return e.err }

// Generator builds the generator of s.Model.
func (s Spec) Generator() (Generator, error) {
	var gen Generator
	var err error
	switch {
	case s.Model == "sbm" && s.Degree == 0:
		return nil, errors.New("generate: --degree 0 is invalid: it must be > 0")
	case s.Model == "sbm" && s.Exponent == 0:
		return nil, errors.New("generate: --exponent 0 is invalid: it must be > 2, or inf")
	case s.Model == "sbm":
		gen, err = NewSBM(s.SBM())
	case s.Model != "rmat":
		return nil, fmt.Errorf("generate: unknown model %q: want sbm or rmat", s.Model)
	case s.Features > 0:
		return nil, errors.New("generate: --feature-columns is for sbm; rmat has no classes")
	case len(s.ABCD) != 4:
		return nil, fmt.Errorf("generate: --abcd takes 4 probabilities a,b,c,d, got %d", len(s.ABCD))
	case s.EdgeFactor < 1:
		return nil, fmt.Errorf("generate: --edge-factor %d is invalid: it must be in [1, 2^scale]", s.EdgeFactor)
	default:
		gen, err = NewRMAT(s.RMAT())
	}
	if err != nil {
		return nil, &specError{specFields.Replace(err.Error()), err}
	}
	return gen, nil
}

// Write generates the data set of s and writes its files (Files.Write).
func (s Spec) Write(ctx context.Context) (Written, error) {
	gen, err := s.Generator()
	if err != nil {
		return Written{}, err
	}
	p, err := NewFiles(s.Out, FileLayout(s.Format), s.Gzip)
	if err != nil {
		return Written{}, fmt.Errorf("generate: --format %q is invalid: want txt, csv, gsg or folder", s.Format)
	}
	return p.Write(ctx, gen, SplitSizes{PerClass: s.PerClass, Val: s.Val, Test: s.Test}, s.Seed,
		Features{Columns: s.Features, PerNode: s.PerNode, TopicProb: s.TopicProb})
}
