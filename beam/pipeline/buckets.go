package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/nodeids"
)

func init() {
	for _, t := range []any{halfBlock{}, labelBlock{}, bucketNodes{}, readHalvesFn{}, readLabelBlocksFn{}, edgeHalvesFn{}, buildBucketFn{}, classBlockCombine{}, gatherBucketFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(intIDsOfBucket)
}

// The label spreading job builds its graph by bucket (a hash of the node
// id, bucketOf), not by node: a runner pays for every element and every
// key of a shuffle (Prism keeps about 150 bytes of bookkeeping per element
// and more per key, many times the bytes of an edge), so the edge rows are
// sent as blocks of half edges, one block per bucket and input file part,
// and grouped by bucket.

// halfBlockSize is the number of half edges a reader gathers for one
// bucket before it emits them.
const halfBlockSize = 1 << 14

// halfBlock are half edges of one bucket: the edge row (Node[e], Nbr[e],
// W[e]) seen from Node[e], read at Pos[e] (Node[e]'s own position in the
// row: source or target column).
type halfBlock struct {
	Node, Nbr []string
	W         []float64
	Pos       []int64
}

func (h *halfBlock) add(node, nbr string, w float64, pos int64) {
	h.Node = append(h.Node, node)
	h.Nbr = append(h.Nbr, nbr)
	h.W = append(h.W, w)
	h.Pos = append(h.Pos, pos)
}

// halfSender gathers the half edges of an edge row into per-bucket blocks.
type halfSender struct {
	buckets int
	out     map[int]*halfBlock
	emit    func(int, halfBlock)
}

// edge adds both halves of an edge row (one for a self loop), as BuildGraph
// does: positions pos (source) and pos|1 (target).
func (s *halfSender) edge(src, dst string, w float64, pos int64) {
	s.half(src, dst, w, pos)
	if src != dst {
		s.half(dst, src, w, pos|1)
	}
}

func (s *halfSender) half(node, nbr string, w float64, pos int64) {
	if s.out == nil {
		s.out = map[int]*halfBlock{}
	}
	b := bucketOf(node, s.buckets)
	blk := s.out[b]
	if blk == nil {
		blk = &halfBlock{}
		s.out[b] = blk
	}
	blk.add(node, nbr, w, pos)
	if len(blk.Node) >= halfBlockSize {
		s.emit(b, *blk)
		delete(s.out, b)
	}
}

// flush emits what is left, in ascending order of bucket.
func (s *halfSender) flush() {
	keys := make([]int, 0, len(s.out))
	for b := range s.out {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	for _, b := range keys {
		s.emit(b, *s.out[b])
	}
	s.out = nil
}

// readHalvesFn reads one edge table and emits its half edges by bucket.
type readHalvesFn struct {
	Opt     EdgeOptions
	Buckets int
}

func (f *readHalvesFn) ProcessElement(ctx context.Context, ref fileRef, emit func(int, halfBlock)) error {
	s := halfSender{buckets: f.Buckets, emit: emit}
	err := withLines(ctx, ref.Path, func(lr *lineReader) error {
		if ref.Index >= 1<<posFileBits {
			return lr.fileErrorf("too many input files")
		}
		return decodeEdges(lr, f.Opt, func(src, dst string, w float64, line int) {
			s.edge(src, dst, w, position(ref.Index, min(line, 1<<posLineBits-1), 0))
		})
	})
	if err != nil {
		return err
	}
	s.flush()
	return nil
}

// edgeHalvesFn turns one Edge (the Parquet path) into its half edges.
type edgeHalvesFn struct {
	Buckets int
}

func (f *edgeHalvesFn) ProcessElement(e Edge, emit func(int, halfBlock)) {
	s := halfSender{buckets: f.Buckets, emit: emit}
	s.edge(e.Src, e.Dst, e.W, e.Pos)
	s.flush()
}

// labelBlock are label rows of one bucket.
type labelBlock struct {
	Rows []Label
}

// readLabelBlocksFn reads one labels table and emits its rows by bucket.
type readLabelBlocksFn struct {
	Opt     loaders.TableOptions
	Buckets int
}

func (f *readLabelBlocksFn) ProcessElement(ctx context.Context, ref fileRef, emit func(int, labelBlock)) error {
	out := map[int]*labelBlock{}
	flush := func(b int) {
		emit(b, *out[b])
		delete(out, b)
	}
	err := withLines(ctx, ref.Path, func(lr *lineReader) error {
		return decodeLabels(lr, f.Opt, func(id, value string, line int) {
			b := bucketOf(id, f.Buckets)
			blk := out[b]
			if blk == nil {
				blk = &labelBlock{}
				out[b] = blk
			}
			blk.Rows = append(blk.Rows, Label{ID: id, Value: value, Path: ref.Path, Line: int64(line), Pos: position(ref.Index, min(line, 1<<posLineBits-1), 0)})
			if len(blk.Rows) >= halfBlockSize {
				flush(b)
			}
		})
	})
	if err != nil {
		return err
	}
	keys := make([]int, 0, len(out))
	for b := range out {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	for _, b := range keys {
		flush(b)
	}
	return nil
}

// classBlockCombine is classCombine over blocks of label rows.
type classBlockCombine struct{}

func (classBlockCombine) CreateAccumulator() classAcc { return classCombine{}.CreateAccumulator() }
func (classBlockCombine) AddInput(a classAcc, blk labelBlock) classAcc {
	for _, l := range blk.Rows {
		a = classCombine{}.AddInput(a, l)
	}
	return a
}
func (classBlockCombine) MergeAccumulators(a, b classAcc) classAcc {
	return classCombine{}.MergeAccumulators(a, b)
}
func (classBlockCombine) ExtractOutput(a classAcc) ClassInfo { return classCombine{}.ExtractOutput(a) }

// bucketNodes are the nodes of one bucket, in ascending order of id.
type bucketNodes struct {
	Nodes []idNode
}

// buildBucketFn assembles the nodes of a bucket from their half edges and
// label rows, with buildNodeFn's rules: an edge given twice keeps the
// larger weight, the neighbours in ascending order of id, the degree their
// sum in that order, the first position the smallest, a labelled node
// listed twice or isolated an error.
type buildBucketFn struct {
	Labels            bool
	KeepIsolatedSeeds bool

	classes map[string]int
}

func (f *buildBucketFn) ProcessElement(b int, halves func(*halfBlock) bool, labels func(*labelBlock) bool, info ClassInfo, emit func(int, bucketNodes)) error {
	if f.classes == nil {
		f.classes = make(map[string]int, len(info.Names))
		for k, v := range info.Names {
			f.classes[v] = k
		}
	}
	if f.Labels && len(info.Names) == 0 {
		return fmt.Errorf("pipeline: no node is labelled: give --labels (id,label rows; an empty label means unlabelled)")
	}
	hs, rows := collectBucket(halves, labels)
	var out bucketNodes
	i, j := 0, 0
	for i < len(hs) || j < len(rows) {
		var id string
		switch {
		case j == len(rows) || i < len(hs) && hs[i].node < rows[j].ID:
			id = hs[i].node
		default:
			id = rows[j].ID
		}
		var n Node
		n, i = mergeHalves(hs, i, id)
		j0 := j
		for j < len(rows) && rows[j].ID == id {
			n.Pos = min(n.Pos, rows[j].Pos)
			j++
		}
		if err := labelNode(&n, id, rows[j0:j], f.classes, f.KeepIsolatedSeeds); err != nil {
			return err
		}
		out.Nodes = append(out.Nodes, idNode{ID: id, Node: n})
	}
	emit(b, out)
	return nil
}

// halfRow is one half edge of a bucket: node's edge to nbr.
type halfRow struct {
	node, nbr string
	w         float64
	pos       int64
}

// collectBucket reads a bucket's half edges, sorted by node then
// neighbour, and its label rows, sorted by id then position.
func collectBucket(halves func(*halfBlock) bool, labels func(*labelBlock) bool) ([]halfRow, []Label) {
	var hs []halfRow
	var hb halfBlock
	for halves(&hb) {
		for e := range hb.Node {
			hs = append(hs, halfRow{hb.Node[e], hb.Nbr[e], hb.W[e], hb.Pos[e]})
		}
		hb = halfBlock{}
	}
	var rows []Label
	var lb labelBlock
	for labels(&lb) {
		rows = append(rows, lb.Rows...)
		lb = labelBlock{}
	}
	slices.SortFunc(hs, func(x, y halfRow) int {
		if c := cmp.Compare(x.node, y.node); c != 0 {
			return c
		}
		return cmp.Compare(x.nbr, y.nbr)
	})
	slices.SortFunc(rows, func(x, y Label) int {
		if c := cmp.Compare(x.ID, y.ID); c != 0 {
			return c
		}
		return cmp.Compare(x.Pos, y.Pos)
	})
	return hs, rows
}

// mergeHalves builds node id, unlabelled, from its half edges, which start
// at hs[i]: an edge given twice keeps the larger weight, the degree is the
// sum in neighbour order, the position the smallest. It returns the index
// past them.
func mergeHalves(hs []halfRow, i int, id string) (Node, int) {
	n := Node{Class: -1, Pos: math.MaxInt64}
	for i < len(hs) && hs[i].node == id {
		nbr, w := hs[i].nbr, hs[i].w
		for ; i < len(hs) && hs[i].node == id && hs[i].nbr == nbr; i++ {
			w = math.Max(w, hs[i].w)
			n.Pos = min(n.Pos, hs[i].pos)
		}
		n.Adj = append(n.Adj, nbr)
		n.W = append(n.W, w)
	}
	if n.Adj == nil {
		n.Adj, n.W = []string{}, []float64{}
	}
	for _, w := range n.W {
		n.Degree += w
	}
	return n, i
}

// labelNode sets the class of node id from its label rows, in order of
// position: at most one, and a labelled node not isolated unless
// keepIsolated.
func labelNode(n *Node, id string, rows []Label, classes map[string]int, keepIsolated bool) error {
	if len(rows) > 1 {
		return &loaders.ParseError{Path: rows[1].Path, Line: int(rows[1].Line), Msg: fmt.Sprintf("node %q already listed on line %d", id, rows[0].Line)}
	}
	if len(rows) == 1 {
		if v := loaders.CanonicalLabel(rows[0].Value); !loaders.Unlabelled(v) {
			n.Class = classes[v]
			if n.Degree == 0 && !keepIsolated {
				return fmt.Errorf("labelprop: training node %s is isolated (degree 0), so its label cannot spread; pass --keep-isolated-seeds to keep it", id)
			}
		}
	}
	return nil
}

// intIDsOfBucket reports whether every id of a bucket is an integer.
func intIDsOfBucket(_ int, blk bucketNodes) bool {
	for _, n := range blk.Nodes {
		if _, ok := nodeids.ParseCanonical(n.ID); !ok {
			return false
		}
	}
	return true
}

// gatherBucketFn collects the nodes grouped into a bucket (Spread on a
// Graph without buckets).
type gatherBucketFn struct{}

func (gatherBucketFn) ProcessElement(b int, nodes func(*idNode) bool, emit func(int, bucketNodes)) error {
	var out bucketNodes
	var in idNode
	for nodes(&in) {
		out.Nodes = append(out.Nodes, in)
		in = idNode{}
	}
	slices.SortFunc(out.Nodes, func(x, y idNode) int { return cmp.Compare(x.ID, y.ID) })
	for k := 1; k < len(out.Nodes); k++ {
		if out.Nodes[k].ID == out.Nodes[k-1].ID {
			return fmt.Errorf("pipeline: node %q twice", out.Nodes[k].ID)
		}
	}
	emit(b, out)
	return nil
}

// ReadBucketGraph adds the reading of the edge and labels tables (globs,
// as ReadEdges and ReadLabels) and the building of the graph by bucket to
// s: the graph of BuildGraph, with Graph.Buckets (nodes by bucketOf into
// buckets parts) in place of Graph.Nodes. Each reader emits blocks of up to
// 16 384 rows per bucket, so the shuffle that builds the nodes handles
// about m/16 384 + files·buckets elements and buckets keys instead of
// several elements per edge row and a key per edge and per node.
func ReadBucketGraph(ctx context.Context, s beam.Scope, edgesGlob, labelsGlob string, opt EdgeOptions, buckets int, keepIsolatedSeeds bool) (Graph, error) {
	if buckets <= 0 || buckets > MaxBuckets {
		return Graph{}, fmt.Errorf("pipeline: Buckets = %d is invalid: it must be in [1, %d]", buckets, MaxBuckets)
	}
	files, err := ListFiles(ctx, edgesGlob)
	if err != nil {
		return Graph{}, err
	}
	var halves beam.PCollection
	if isParquet(files[0]) {
		edges, err := ReadEdges(ctx, s, edgesGlob, opt)
		if err != nil {
			return Graph{}, err
		}
		halves = beam.ParDo(s.Scope("ReadEdges"), &edgeHalvesFn{Buckets: buckets}, edges)
	} else {
		es := s.Scope("ReadEdges")
		refs := beam.Reshuffle(es, beam.CreateList(es, refs(files, 0)))
		halves = beam.ParDo(es, &readHalvesFn{Opt: opt, Buckets: buckets}, refs)
	}
	lfiles, err := ListFiles(ctx, labelsGlob)
	if err != nil {
		return Graph{}, err
	}
	ls := s.Scope("ReadLabels")
	lrefs := beam.Reshuffle(ls, beam.CreateList(ls, refs(lfiles, len(files))))
	labels := beam.ParDo(ls, &readLabelBlocksFn{Opt: opt.Table, Buckets: buckets}, lrefs)

	s = s.Scope("BuildGraph")
	classes := beam.Combine(s, classBlockCombine{}, beam.DropKey(s, labels))
	grouped := beam.CoGroupByKey(s, halves, labels)
	nodes := beam.ParDo(s, &buildBucketFn{Labels: true, KeepIsolatedSeeds: keepIsolatedSeeds}, grouped, beam.SideInput{Input: classes})
	intIDs := beam.Combine(s, and, beam.ParDo(s, intIDsOfBucket, nodes))
	return Graph{Buckets: nodes, NumBuckets: buckets, Classes: classes, IntIDs: intIDs}, nil
}
