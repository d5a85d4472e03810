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
)

func init() {
	for _, t := range []any{Prediction{}, predictFn{}, shardFn{}, writeFn{}} {
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

// shardFn assigns a row to its shard by a hash of its id.
type shardFn struct {
	Shards int
}

func (f *shardFn) ProcessElement(p Prediction) (int, Prediction) {
	if f.Shards <= 1 {
		return 0, p
	}
	var h uint64 = 14695981039346656037 // FNV-1a
	for i := 0; i < len(p.ID); i++ {
		h ^= uint64(p.ID[i])
		h *= 1099511628211
	}
	return int(h % uint64(f.Shards)), p
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

func (f *writeFn) ProcessElement(ctx context.Context, shard int, _ func(*int) bool, rows func(*Prediction) bool, info ClassInfo, intIDs bool) error {
	var all []Prediction
	var p Prediction
	for rows(&p) {
		all = append(all, p)
		p = Prediction{}
	}
	if intIDs {
		slices.SortFunc(all, func(a, b Prediction) int {
			x, _ := canonicalInt(a.ID)
			y, _ := canonicalInt(b.ID)
			return cmp.Compare(x, y)
		})
	} else {
		slices.SortFunc(all, func(a, b Prediction) int {
			if c := cmp.Compare(a.Pos, b.Pos); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
	}
	name := f.Path
	if f.Shards > 1 {
		name = ShardName(f.Path, shard, f.Shards)
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("--out %s: %w", name, err)
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("--out %s: %w", name, err)
	}
	bw := bufio.NewWriterSize(wc, 1<<16)
	cw := csv.NewWriter(bw)
	cols := []string{"id", "predicted"}
	for _, c := range info.Names {
		cols = append(cols, "p_"+c)
	}
	if err := cw.Write(cols); err != nil {
		wc.Close()
		return fmt.Errorf("--out %s: %w", name, err)
	}
	rec := make([]string, len(cols))
	for _, p := range all {
		rec[0], rec[1] = p.ID, info.Names[p.Class]
		for k, v := range p.P {
			rec[2+k] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			wc.Close()
			return fmt.Errorf("--out %s: %w", name, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		wc.Close()
		return fmt.Errorf("--out %s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("--out %s: %w", name, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("--out %s: %w", name, err)
	}
	return nil
}

// WritePredictions adds the writing of the predictions to s: the CSV of
// gssl labelprop --out (id,predicted,p_<class>…, the user's ids and class
// names), in one file at out (shards ≤ 1) or in shards files
// out/part-KKKKK-of-NNNNN.csv, each with the header, rows split by a hash
// of the id. Rows are in the core's node order within each file. One file
// means one worker writes every row.
func WritePredictions(s beam.Scope, g Graph, preds beam.PCollection, out string, shards int) {
	s = s.Scope("WritePredictions")
	shards = max(shards, 1)
	keys := make([]int, shards)
	for k := range keys {
		keys[k] = k
	}
	present := beam.ParDo(s, selfKey, beam.CreateList(s, keys))
	keyed := beam.ParDo(s, &shardFn{Shards: shards}, preds)
	grouped := beam.CoGroupByKey(s, present, keyed)
	beam.ParDo0(s, &writeFn{Path: out, Shards: shards}, grouped, beam.SideInput{Input: g.Classes}, beam.SideInput{Input: g.IntIDs})
}

func selfKey(k int) (int, int) { return k, k }
