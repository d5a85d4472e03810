package pipeline

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	iofs "io/fs"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

func init() {
	for _, t := range []any{writeStateFn{}, writeInfoFn{}, readStateFn{}, bucketList{}, checkpointInfo{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// A checkpoint is the state of label spreading after `Round` iterations,
// written by one job for the next (LabelProp.RoundsPerJob) under
// Work/state-RRRRR/:
//
//	bucket-BBBBBB   the stateBlock of bucket B (only buckets with nodes)
//	info            the settings, the classes, the order of the output
//	                and the list of buckets; written after every bucket
//	                file, so a checkpoint without it is incomplete
//
// Each file is framed as
//
//	magic (8 bytes) | payload length (uint64, little endian) | payload |
//	CRC-32C of the payload (uint32, little endian)
//
// so that a truncated or altered file is an error naming it. The state
// payload stores every float64 as its 8 bytes (math.Float64bits), so the
// next job continues from exactly the iterates the single-job pipeline
// holds in memory.
const (
	stateMagic = "GSSLBST1"
	infoMagic  = "GSSLBIN1"
	// frameOverhead is the bytes of a frame around its payload.
	frameOverhead = 8 + 8 + 4
	// checkpointVersion is checkpointInfo.Version.
	checkpointVersion = 1
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// CheckpointDir is the folder of the checkpoint after round iterations
// under work.
func CheckpointDir(work string, round int) string {
	return strings.TrimSuffix(work, "/") + "/" + fmt.Sprintf("state-%05d", round)
}

func bucketFile(dir string, b int) string { return dir + "/" + fmt.Sprintf("bucket-%06d", b) }

func infoFile(dir string) string { return dir + "/info" }

// checkpointInfo is what the jobs after a checkpoint need besides the
// states: the settings it was written with (checked against the next
// job's), the classes, whether the ids are integers (the output order) and
// the buckets that have a state file.
type checkpointInfo struct {
	Version int
	Alpha   float64
	K       int
	Round   int
	Buckets int
	Classes ClassInfo
	IntIDs  bool
	Filled  []int
}

// frame wraps a payload for a checkpoint file.
func frame(magic string, payload []byte) []byte {
	out := make([]byte, 0, frameOverhead+len(payload))
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(payload)))
	out = append(out, payload...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(payload, castagnoli))
}

// unframe checks a checkpoint file's frame and returns its payload.
func unframe(magic string, data []byte) ([]byte, error) {
	if len(data) < frameOverhead {
		return nil, fmt.Errorf("truncated: %d bytes, fewer than a frame's %d", len(data), frameOverhead)
	}
	if string(data[:8]) != magic {
		return nil, fmt.Errorf("not a gssl-beam checkpoint file of this kind (it starts with %q, want %q)", data[:8], magic)
	}
	n := binary.LittleEndian.Uint64(data[8:16])
	if have := uint64(len(data) - frameOverhead); n != have {
		if n > have {
			return nil, fmt.Errorf("truncated: the header gives %d bytes of data, the file holds %d", n, have)
		}
		return nil, fmt.Errorf("corrupt: the header gives %d bytes of data, the file holds %d", n, have)
	}
	payload := data[16 : 16+n]
	if got, want := crc32.Checksum(payload, castagnoli), binary.LittleEndian.Uint32(data[16+n:]); got != want {
		return nil, fmt.Errorf("corrupt: checksum %08x, the file records %08x", got, want)
	}
	return payload, nil
}

// encodeState is the payload of a bucket file: the round, the bucket and
// its nodes.
func encodeState(round, b int, blk *stateBlock) []byte {
	var e []byte
	e = binary.AppendUvarint(e, uint64(round))
	e = binary.AppendUvarint(e, uint64(b))
	e = binary.AppendUvarint(e, uint64(len(blk.Nodes)))
	str := func(s string) {
		e = binary.AppendUvarint(e, uint64(len(s)))
		e = append(e, s...)
	}
	f64 := func(v float64) { e = binary.LittleEndian.AppendUint64(e, math.Float64bits(v)) }
	for k := range blk.Nodes {
		n := &blk.Nodes[k]
		str(n.ID)
		e = binary.AppendUvarint(e, uint64(len(n.Adj)))
		for _, j := range n.Adj {
			str(j)
		}
		for _, w := range n.W {
			f64(w)
		}
		f64(n.T)
		f64(n.U)
		e = binary.AppendVarint(e, int64(n.Class))
		e = binary.AppendVarint(e, n.Pos)
		e = binary.AppendUvarint(e, uint64(len(n.Cur)))
		for _, v := range n.Cur {
			f64(v)
		}
		for _, v := range n.Prev {
			f64(v)
		}
	}
	return e
}

// decoder reads a payload; the first problem sticks in err.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("corrupt: %s", what)
	}
}

func (d *decoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint(what string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a length of items of at least size bytes each: never more
// than what is left, so that a bad length cannot allocate.
func (d *decoder) count(what string, size int) int {
	v := d.uvarint(what)
	if v > uint64(len(d.b)/size) {
		d.fail(what)
		return 0
	}
	return int(v)
}

func (d *decoder) str(what string) string {
	n := d.count(what, 1)
	if d.err != nil {
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *decoder) f64(what string) float64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail(what)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

// decodeState reads a bucket file's payload.
func decodeState(payload []byte) (round, b int, blk stateBlock, err error) {
	d := &decoder{b: payload}
	round = int(min(d.uvarint("round"), math.MaxInt32))
	b = int(min(d.uvarint("bucket"), math.MaxInt32))
	// A node takes at least 21 bytes: the lengths of its id, adjacency
	// and iterates, its class and position (a byte each), t and u.
	nodes := d.count("number of nodes", 21)
	blk.Nodes = make([]spreadNode, nodes)
	for k := range blk.Nodes {
		n := &blk.Nodes[k]
		n.ID = d.str("node id")
		deg := d.count("adjacency length", 9)
		n.Adj, n.W = make([]string, deg), make([]float64, deg)
		for e := range n.Adj {
			n.Adj[e] = d.str("neighbour id")
		}
		for e := range n.W {
			n.W[e] = d.f64("weight")
		}
		n.T, n.U = d.f64("t"), d.f64("u")
		n.Class = int(d.varint("class"))
		n.Pos = d.varint("position")
		c := d.count("number of classes", 16)
		n.Cur, n.Prev = make([]float64, c), make([]float64, c)
		for t := range n.Cur {
			n.Cur[t] = d.f64("iterate")
		}
		for t := range n.Prev {
			n.Prev[t] = d.f64("iterate")
		}
		if d.err != nil {
			return 0, 0, stateBlock{}, d.err
		}
		if n.Class < -1 || n.Class >= c {
			return 0, 0, stateBlock{}, fmt.Errorf("corrupt: node %q has class %d of %d", n.ID, n.Class, c)
		}
		if k > 0 && blk.Nodes[k-1].ID >= n.ID {
			return 0, 0, stateBlock{}, fmt.Errorf("corrupt: node %q after %q (the ids must ascend)", n.ID, blk.Nodes[k-1].ID)
		}
	}
	if d.err != nil {
		return 0, 0, stateBlock{}, d.err
	}
	if len(d.b) > 0 {
		return 0, 0, stateBlock{}, fmt.Errorf("corrupt: %d bytes after the last node", len(d.b))
	}
	return round, b, blk, nil
}

// writeFile writes data to path through Beam's filesystem.
func writeFile(ctx context.Context, path string, data []byte) error {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, path)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// readFile reads path through Beam's filesystem.
func readFile(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// writeStateFn writes the state of a bucket to its file and emits the
// bucket.
type writeStateFn struct {
	Dir   string
	Round int
}

func (f *writeStateFn) ProcessElement(ctx context.Context, b int, blk stateBlock) (int, error) {
	path := bucketFile(f.Dir, b)
	if err := writeFile(ctx, path, frame(stateMagic, encodeState(f.Round, b, &blk))); err != nil {
		return 0, fmt.Errorf("pipeline: checkpoint %s: %w", path, err)
	}
	return b, nil
}

// bucketList collects the buckets written, in ascending order.
type bucketList struct{}

func (bucketList) CreateAccumulator() []int { return nil }
func (bucketList) AddInput(a []int, b int) []int {
	return append(a, b)
}
func (bucketList) MergeAccumulators(a, b []int) []int { return append(a, b...) }
func (bucketList) ExtractOutput(a []int) []int {
	a = slices.Clone(a)
	slices.Sort(a)
	return a
}

// writeInfoFn writes a checkpoint's info file once every bucket file is
// written.
type writeInfoFn struct {
	Dir  string
	Info checkpointInfo // without Classes, IntIDs and Filled
}

// The side inputs are singletons read as iterators, empty only when the
// graph failed upstream: then nothing is written (the job fails with that
// error, not with a race between it and this one).
func (f *writeInfoFn) ProcessElement(ctx context.Context, filled []int, classInfo func(*ClassInfo) bool, ints func(*bool) bool) error {
	var classes ClassInfo
	var intIDs bool
	if !classInfo(&classes) || !ints(&intIDs) {
		return nil
	}
	info := f.Info
	info.Classes, info.IntIDs, info.Filled = classes, intIDs, filled
	payload, err := json.Marshal(info)
	path := infoFile(f.Dir)
	if err == nil {
		err = writeFile(ctx, path, frame(infoMagic, payload))
	}
	if err != nil {
		return fmt.Errorf("pipeline: checkpoint %s: %w", path, err)
	}
	return nil
}

// writeCheckpoint adds the writing of the states after info.Round
// iterations to s.
func writeCheckpoint(s beam.Scope, states beam.PCollection, g Graph, dir string, info checkpointInfo) {
	s = s.Scope("Checkpoint")
	written := beam.ParDo(s, &writeStateFn{Dir: dir, Round: info.Round}, states)
	beam.ParDo0(s, &writeInfoFn{Dir: dir, Info: info}, beam.Combine(s, bucketList{}, written), beam.SideInput{Input: g.Classes}, beam.SideInput{Input: g.IntIDs})
}

// readInfo reads and checks a checkpoint's info file.
func readInfo(ctx context.Context, dir string) (checkpointInfo, error) {
	path := infoFile(dir)
	var info checkpointInfo
	data, err := readFile(ctx, path)
	if err == nil {
		var payload []byte
		if payload, err = unframe(infoMagic, data); err == nil {
			err = json.Unmarshal(payload, &info)
		}
	}
	if err == nil && info.Version != checkpointVersion {
		err = fmt.Errorf("version %d, this gssl-beam reads version %d", info.Version, checkpointVersion)
	}
	if err != nil {
		if errors.Is(err, iofs.ErrNotExist) {
			err = fmt.Errorf("%w (the job that writes it did not finish)", err)
		}
		return checkpointInfo{}, fmt.Errorf("pipeline: checkpoint %s: %w", path, err)
	}
	return info, nil
}

// stateFiles lists a checkpoint's bucket files and checks them against its
// info: every bucket listed there has its file, and no other is present.
func stateFiles(ctx context.Context, dir string, info checkpointInfo) ([]string, error) {
	want := make([]string, len(info.Filled))
	for k, b := range info.Filled {
		want[k] = bucketFile(dir, b)
	}
	fs, err := filesystem.New(ctx, dir+"/")
	if err != nil {
		return nil, fmt.Errorf("pipeline: checkpoint %s: %w", dir, err)
	}
	defer fs.Close()
	got, err := fs.List(ctx, dir+"/bucket-*")
	if err != nil {
		return nil, fmt.Errorf("pipeline: checkpoint %s: listing: %w", dir, err)
	}
	slices.Sort(got)
	// Listings may name the files differently (a local "./" prefix,
	// gs://bucket/…): compare the names only.
	base := func(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
	have := map[string]bool{}
	for _, p := range got {
		have[base(p)] = true
	}
	for _, p := range want {
		if !have[base(p)] {
			return nil, fmt.Errorf("pipeline: checkpoint %s is missing (%s lists %d buckets)", p, infoFile(dir), len(want))
		}
		delete(have, base(p))
	}
	if len(have) > 0 {
		extra := make([]string, 0, len(have))
		for n := range have {
			extra = append(extra, n)
		}
		slices.Sort(extra)
		return nil, fmt.Errorf("pipeline: checkpoint %s: %s is not listed in %s (left from another run?)", dir, extra[0], infoFile(dir))
	}
	return want, nil
}

// readStateFn reads a bucket file and sends from its iterate the
// contributions roundFn sends at the end of a round.
type readStateFn struct {
	Round   int
	Buckets int
}

func (f *readStateFn) ProcessElement(ctx context.Context, path string, emitState func(int, stateBlock), emitContrib func(int, contribBlock)) error {
	data, err := readFile(ctx, path)
	var round, b int
	var blk stateBlock
	if err == nil {
		var payload []byte
		if payload, err = unframe(stateMagic, data); err == nil {
			round, b, blk, err = decodeState(payload)
		}
	}
	if err == nil && round != f.Round {
		err = fmt.Errorf("the state after %d iterations, want %d", round, f.Round)
	}
	if want := path[strings.LastIndexByte(path, '-')+1:]; err == nil && want != fmt.Sprintf("%06d", b) {
		err = fmt.Errorf("the state of bucket %d", b)
	}
	if err == nil && b >= f.Buckets {
		err = fmt.Errorf("bucket %d of %d", b, f.Buckets)
	}
	if err != nil {
		return fmt.Errorf("pipeline: checkpoint %s: %w", path, err)
	}
	s := sender{buckets: f.Buckets}
	for k := range blk.Nodes {
		if bucketOf(blk.Nodes[k].ID, f.Buckets) != b {
			return fmt.Errorf("pipeline: checkpoint %s: node %q is not of bucket %d", path, blk.Nodes[k].ID, b)
		}
		s.add(&blk.Nodes[k])
	}
	s.flush(emitContrib)
	emitState(b, blk)
	return nil
}

// readCheckpoint adds the reading of the checkpoint in dir to s: the
// states and the contributions the next round needs.
func readCheckpoint(s beam.Scope, files []string, round, buckets int) (states, contribs beam.PCollection) {
	s = s.Scope("ReadCheckpoint")
	paths := beam.Reshuffle(s, beam.CreateList(s, files))
	return beam.ParDo2(s, &readStateFn{Round: round, Buckets: buckets}, paths)
}

// removeCheckpoint removes a checkpoint's files (its info first, so that
// what is left is an incomplete checkpoint) and, where the filesystem has
// folders, the folder, if the filesystem can remove files.
func removeCheckpoint(ctx context.Context, dir string, info checkpointInfo) error {
	fs, err := filesystem.New(ctx, dir+"/")
	if err != nil {
		return err
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	if err := rm.Remove(ctx, infoFile(dir)); err != nil {
		return err
	}
	for _, b := range info.Filled {
		if err := rm.Remove(ctx, bucketFile(dir, b)); err != nil {
			return err
		}
	}
	if !strings.Contains(dir, "://") {
		_ = rm.Remove(ctx, dir) // the empty local folder
	}
	return nil
}

// clearCheckpoint removes what an earlier run left in dir under a
// checkpoint's names, before a job writes its checkpoint there.
func clearCheckpoint(ctx context.Context, dir string) error {
	fs, err := filesystem.New(ctx, dir+"/")
	if err != nil {
		return err
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	old, err := fs.List(ctx, dir+"/bucket-*")
	if err != nil {
		return err
	}
	if info, err := fs.List(ctx, infoFile(dir)); err == nil {
		old = append(info, old...)
	}
	for _, p := range old {
		if err := rm.Remove(ctx, p); err != nil {
			return err
		}
	}
	return nil
}
