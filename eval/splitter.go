package eval

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/gssl/gssl/graph"
)

// DefaultRandomVal and DefaultRandomTest cap the validation and test sizes
// of a random split whose sizes are not given: 500 and 1000, the Planetoid
// protocol on Cora.
const (
	DefaultRandomVal  = 500
	DefaultRandomTest = 1000
)

// SplitData is the labelled data set a split is built on.
type SplitData struct {
	// Labels holds the class of every node, −1 when it is unknown.
	Labels []int
	// Own is the data set's own split (SplitOwn), nil when it has none.
	Own *Split
	// Source names the data set in errors, e.g. its folder.
	Source string
	// ReadFile reads a split file of nodes 0..nodes−1 (loaders.ReadSplit);
	// nil refuses split files.
	ReadFile func(path string, nodes int) (*Split, error)
	// OwnIDs reports that the nodes carry the user's own ids, which a
	// split file (naming nodes 0..n−1) does not: such a file is refused.
	OwnIDs bool
	// NodeName names node i in errors (the user's id); nil prints i.
	NodeName func(i int) string
	// Subgraph, when set, is the part of the graph that is fitted (the
	// largest component, say): the splits read in the data set's numbering
	// (own, file, folder) are mapped to it, dropping the nodes outside it,
	// and random splits are drawn from its nodes' labels, in its numbering.
	Subgraph *graph.Subgraph
}

// SplitSizes are the validation and test sizes of a random split; −1
// means the default: min(DefaultRandomVal, ⌊r/3⌋) and
// min(DefaultRandomTest, ⌊r/2⌋) of the r labelled nodes left after
// training (small graphs get proportionally smaller sets).
type SplitSizes struct {
	Val, Test int
}

// DefaultSizes asks for the default validation and test sizes.
var DefaultSizes = SplitSizes{Val: -1, Test: -1}

// Splitter builds the split of every seed from a SplitSpec: the one home
// of --split's meaning.
type Splitter struct {
	spec      SplitSpec
	d         SplitData
	labels    []int  // the labels random splits are drawn from (the subgraph's)
	fixed     *Split // the split of every seed (none, own, file), unmapped
	val, test int    // random:K sizes
}

// NewSplitter resolves spec on d (SplitAuto becomes SplitOwn or
// SplitNone), reads a split file once, and returns the builder of each
// seed's split. A file whose part lists a node without a label (−1) is an
// error naming the file, the part and the node: it can be neither trained
// on nor scored.
func NewSplitter(spec SplitSpec, d SplitData, sizes SplitSizes) (*Splitter, error) {
	s := &Splitter{spec: spec.Resolve(d.Own != nil), d: d, labels: d.Labels}
	if d.Subgraph != nil {
		s.labels = make([]int, d.Subgraph.Nodes())
		for i, p := range d.Subgraph.Original {
			s.labels[i] = d.Labels[p]
		}
	}
	switch s.spec.Kind {
	case SplitNone:
		var train []int
		for i, l := range s.labels {
			if l >= 0 {
				train = append(train, i)
			}
		}
		s.fixed = &Split{Train: train}
		return s, nil
	case SplitOwn:
		if d.Own == nil {
			return nil, fmt.Errorf("--split planetoid: %s has no split of its own (split_planetoid.txt); use --split none, random:K, per-class:T,V or a split file", d.Source)
		}
		s.fixed = d.Own
	case SplitFile:
		sp, err := s.readFile(s.spec.Path)
		if err != nil {
			return nil, err
		}
		s.fixed = sp
	case SplitRandom:
		s.val, s.test = RandomSizes(s.labels, s.spec.PerClass, sizes)
	case SplitFolder:
		if d.ReadFile == nil {
			return nil, fmt.Errorf("%s: split files cannot be read here", s.spec.Path)
		}
	case SplitPerClass:
	default:
		return nil, fmt.Errorf("eval: split kind %d is invalid", int(s.spec.Kind))
	}
	return s, nil
}

// Spec returns the resolved spec (never SplitAuto).
func (s *Splitter) Spec() SplitSpec { return s.spec }

// Sizes returns the validation and test sizes of a random split.
func (s *Splitter) Sizes() (val, test int) { return s.val, s.test }

// Source describes where the splits come from: "random: 20 per class, 500
// val, 1000 test", "the data set's split", the file or folder, with
// " (mapped to the largest component)" when they are mapped to a
// Subgraph.
func (s *Splitter) Source() string {
	var src string
	switch s.spec.Kind {
	case SplitRandom:
		return fmt.Sprintf("random: %d per class, %d val, %d test", s.spec.PerClass, s.val, s.test)
	case SplitPerClass:
		return fmt.Sprintf("per class: %d train, %d val, the rest test", s.spec.PerClass, s.spec.ValPerClass)
	case SplitNone:
		return "none: every labelled node is trained on"
	case SplitOwn:
		src = "the data set's split"
	default:
		src = s.spec.Path
	}
	if s.d.Subgraph != nil {
		src += " (mapped to the largest component)"
	}
	return src
}

// Split returns the split of seed (the same for every seed unless the spec
// is Seeded), in the numbering of the Subgraph when there is one, and the
// number of its nodes dropped because they are outside it.
func (s *Splitter) Split(seed uint64) (sp Split, dropped int, err error) {
	switch s.spec.Kind {
	case SplitRandom:
		sp, err = RandomPerClass(s.labels, s.spec.PerClass, s.val, s.test, seed)
		if err != nil {
			err = fmt.Errorf("--split %s (--val %d, --test %d): %w", s.spec.Name(), s.val, s.test, err)
		}
		return sp, 0, err
	case SplitPerClass:
		sp, err = PerClassSplit(s.labels, s.spec.PerClass, s.spec.ValPerClass, seed)
		return sp, 0, err
	case SplitNone:
		return *s.fixed, 0, nil
	}
	fixed := s.fixed
	if s.spec.Kind == SplitFolder {
		path := filepath.Join(s.spec.Path, "random20_seed"+strconv.FormatUint(seed, 10)+".txt")
		if fixed, err = s.readFile(path); err != nil {
			return Split{}, 0, err
		}
	}
	if s.d.Subgraph == nil {
		return *fixed, 0, nil
	}
	sp, dropped = fixed.Restrict(s.d.Subgraph)
	return sp, dropped, nil
}

// readFile reads a split file in the data set's numbering and checks that
// every node it lists is labelled.
func (s *Splitter) readFile(path string) (*Split, error) {
	if s.d.ReadFile == nil {
		return nil, fmt.Errorf("%s: split files cannot be read here", path)
	}
	if s.d.OwnIDs {
		return nil, fmt.Errorf("%s: a split file names the nodes 0..n-1, and this data set has its own ids; use --split none or random:K", path)
	}
	sp, err := s.d.ReadFile(path, len(s.d.Labels))
	if err != nil {
		return nil, err
	}
	for _, part := range []struct {
		name  string
		nodes []int
	}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
		for _, i := range part.nodes {
			if i < 0 || i >= len(s.d.Labels) {
				return nil, fmt.Errorf("%s: %s node %d is out of range [0, %d)", path, part.name, i, len(s.d.Labels))
			}
			if s.d.Labels[i] < 0 {
				return nil, fmt.Errorf("%s: %s node %s has no label (−1): a split may list only labelled nodes", path, part.name, s.nodeName(i))
			}
		}
	}
	return sp, nil
}

func (s *Splitter) nodeName(i int) string {
	if s.d.NodeName != nil {
		return s.d.NodeName(i)
	}
	return strconv.Itoa(i)
}

// Restrict maps the split to the nodes of sub (a subgraph of the graph the
// split numbers), in sub's numbering and order of the split, and returns
// the number of nodes dropped because they are not in sub.
func (s Split) Restrict(sub *graph.Subgraph) (Split, int) {
	dropped := 0
	local := func(nodes []int) []int {
		var out []int
		for _, p := range nodes {
			if i, ok := sub.Local(p); ok {
				out = append(out, i)
			} else {
				dropped++
			}
		}
		return out
	}
	out := Split{Train: local(s.Train), Val: local(s.Val), Test: local(s.Test)}
	return out, dropped
}

// RandomSizes returns the validation and test sizes of a random split with
// perClass training nodes per class: those of sizes when ≥ 0, the defaults
// of SplitSizes otherwise.
func RandomSizes(labels []int, perClass int, sizes SplitSizes) (val, test int) {
	rest := 0
	for _, items := range groupByLabel(labels) {
		rest += len(items) - min(len(items), perClass)
	}
	val, test = sizes.Val, sizes.Test
	if val < 0 {
		val = min(DefaultRandomVal, rest/3)
	}
	if test < 0 {
		test = min(DefaultRandomTest, rest/2)
	}
	return val, test
}

// PerClassSplit draws train training nodes and val validation nodes of
// every class, and puts every other labelled node in test: the split of
// Shchur et al. ("Pitfalls of Graph Neural Network Evaluation", 2018: 20
// and 30 per class) for graphs without a standard split. Nodes with label
// −1 are never drawn. The same seed gives the same split. It fails when a
// class has fewer than train + val labelled nodes.
func PerClassSplit(labels []int, train, val int, seed uint64) (Split, error) {
	if train < 1 || val < 0 {
		return Split{}, fmt.Errorf("eval: per-class split: train=%d must be ≥ 1 and val=%d ≥ 0", train, val)
	}
	c := Classes(labels)
	if c > len(labels) {
		return Split{}, fmt.Errorf("eval: per-class split: the largest label is %d, so %d classes for %d items: every class 0..%d needs train=%d items (number the classes 0..C−1)", c-1, c, len(labels), c-1, train)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5c4c7a1e))
	byClass := make([][]int, c)
	for i, l := range labels {
		if l >= 0 {
			byClass[l] = append(byClass[l], i)
		}
	}
	var s Split
	for k, items := range byClass {
		if len(items) < train+val {
			return Split{}, fmt.Errorf("eval: per-class split: class %d has %d labelled nodes, fewer than train+val = %d", k, len(items), train+val)
		}
		rng.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
		s.Train = append(s.Train, items[:train]...)
		s.Val = append(s.Val, items[train:train+val]...)
		s.Test = append(s.Test, items[train+val:]...)
	}
	slices.Sort(s.Train)
	slices.Sort(s.Val)
	slices.Sort(s.Test)
	return s, nil
}
