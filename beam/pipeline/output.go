package pipeline

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/gssl/gssl/nodeids"
)

func init() {
	for _, t := range []any{Prediction{}, Row{}, Header{}, predictFn{}, predRowFn{}, predHeaderFn{}, shardFn{}, writeFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterFunction(selfKey)
}

// Prediction is the output row of a node: its id, predicted class (index
// into ClassInfo.Names) and class probabilities.
type Prediction struct {
	ID    string
	Class int
	P     []float64
	Pos   int64
}

// predictFn turns the scores of an unlabelled node into its prediction;
// labelled (training) nodes are not predicted, as in gssl labelprop --out.
type predictFn struct{}

func (predictFn) ProcessElement(id string, sc Scores, info ClassInfo, emit func(Prediction)) {
	if sc.Class >= 0 {
		return
	}
	p := make([]float64, len(sc.F))
	Normalise(p, sc.F, info.Prior())
	emit(Prediction{ID: id, Class: argmax(p), P: p, Pos: sc.Pos})
}

// Predict adds the predictions of the unlabelled nodes to s:
// PCollection<Prediction> from the scores of Spread.
func Predict(s beam.Scope, g Graph, scores beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("Predict"), predictFn{}, scores, beam.SideInput{Input: g.Classes})
}

// Row is one line of an output table: the node's id (the first cell), its
// first position (for the order) and the other cells.
type Row struct {
	ID    string
	Pos   int64
	Cells []string
}

// Header is the column names of an output table.
type Header struct {
	Cols []string
}

// predRowFn formats a prediction as gssl labelprop --out does (floats in
// the shortest form that reads back exactly).
type predRowFn struct{}

func (predRowFn) ProcessElement(p Prediction, info ClassInfo) Row {
	cells := make([]string, 1+len(p.P))
	cells[0] = info.Names[p.Class]
	for k, v := range p.P {
		cells[1+k] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return Row{ID: p.ID, Pos: p.Pos, Cells: cells}
}

// predHeaderFn is the header id,predicted,p_<class>….
type predHeaderFn struct{}

func (predHeaderFn) ProcessElement(_ []byte, info ClassInfo) Header {
	cols := []string{"id", "predicted"}
	for _, c := range info.Names {
		cols = append(cols, "p_"+c)
	}
	return Header{Cols: cols}
}

// shardFn assigns a row to its shard by a hash of its id.
type shardFn struct {
	Shards int
}

func (f *shardFn) ProcessElement(r Row) (int, Row) {
	if f.Shards <= 1 {
		return 0, r
	}
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(r.ID); i++ {
		h ^= uint64(r.ID[i])
		h *= 1099511628211
	}
	return int(h % uint64(f.Shards)), r
}

// writeFn writes one shard: the header and its rows in the core's node
// order (ascending integer ids, else first appearance).
type writeFn struct {
	Path   string
	Shards int
}

// ShardName is the file of shard k of n under dir.
func ShardName(dir string, k, n int) string {
	return strings.TrimSuffix(dir, "/") + "/" + fmt.Sprintf("part-%05d-of-%05d.csv", k, n)
}

// ShardNameParquet is ShardName for Parquet shards.
func ShardNameParquet(dir string, k, n int) string {
	return strings.TrimSuffix(ShardName(dir, k, n), ".csv") + ".parquet"
}

// The header and intIDs side inputs are singletons read as iterators: when
// the graph failed upstream they are empty, and the shard writes nothing
// rather than fail too (which failure the runner reports first would then
// be a race); the job fails with the upstream error.
func (f *writeFn) ProcessElement(ctx context.Context, shard int, _ func(*int) bool, rows func(*Row) bool, headers func(*Header) bool, ints func(*bool) bool) error {
	var header Header
	var intIDs bool
	if !headers(&header) || !ints(&intIDs) {
		return nil
	}
	var all []Row
	var r Row
	for rows(&r) {
		all = append(all, r)
		r = Row{}
	}
	if intIDs {
		slices.SortFunc(all, func(a, b Row) int {
			x, _ := nodeids.ParseCanonical(a.ID)
			y, _ := nodeids.ParseCanonical(b.ID)
			return cmp.Compare(x, y)
		})
	} else {
		slices.SortFunc(all, func(a, b Row) int {
			if c := cmp.Compare(a.Pos, b.Pos); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
	}
	name := f.Path
	if f.Shards > 1 {
		name = ShardName(f.Path, shard, f.Shards)
		if isParquetOut(f.Path) {
			name = ShardNameParquet(f.Path, shard, f.Shards)
		}
	}
	write := writeCSV
	if isParquetOut(name) {
		write = writeParquet
	}
	if err := write(ctx, name, header.Cols, all); err != nil {
		return fmt.Errorf("--out %s: %w", name, err)
	}
	return nil
}

// writeCSV writes the header and rows to name through Beam's filesystem.
func writeCSV(ctx context.Context, name string, cols []string, rows []Row) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(wc, 1<<16)
	cw := csv.NewWriter(bw)
	err = cw.Write(cols)
	rec := make([]string, len(cols))
	for _, r := range rows {
		if err != nil {
			break
		}
		rec = append(rec[:0], r.ID)
		rec = append(rec, r.Cells...)
		err = cw.Write(rec)
	}
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteTable adds the writing of rows (PCollection<Row>) under header (a
// singleton PCollection<Header>) to s: one CSV file at out (shards ≤ 1) or
// shards files out/part-KKKKK-of-NNNNN.csv, each with the header, rows
// split by a hash of the id; within each file the rows are in the core's
// node order. One file means one worker writes every row. When out ends in
// .parquet the files are Parquet (.parquet shards under out): the id and
// "predicted" columns UTF-8 strings, the others doubles, column names with
// ',', '=' and blanks replaced by '_'.
func WriteTable(s beam.Scope, g Graph, header, rows beam.PCollection, out string, shards int) {
	s = s.Scope("WriteTable")
	shards = max(shards, 1)
	keys := make([]int, shards)
	for k := range keys {
		keys[k] = k
	}
	present := beam.ParDo(s, selfKey, beam.CreateList(s, keys))
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, rows)
	grouped := beam.CoGroupByKey(s, present, keyed)
	beam.ParDo0(s, &writeFn{Path: out, Shards: shards}, grouped, beam.SideInput{Input: header}, beam.SideInput{Input: g.IntIDs})
}

// WritePredictions adds the writing of the predictions to s: the CSV of
// gssl labelprop --out (id,predicted,p_<class>…, the user's ids and class
// names), as WriteTable.
func WritePredictions(s beam.Scope, g Graph, preds beam.PCollection, out string, shards int) {
	s = s.Scope("WritePredictions")
	classes := beam.SideInput{Input: g.Classes}
	header := beam.ParDo(s, predHeaderFn{}, beam.Impulse(s), classes)
	WriteTable(s, g, header, beam.ParDo(s, predRowFn{}, preds, classes), out, shards)
}

func selfKey(k int) (int, int) { return k, k }
