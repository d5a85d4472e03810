// Command lcc-dataset writes a node-classification data set restricted to
// its largest connected component, with saved splits remapped exactly as
// `gssl stkr --lcc` remaps them, so that a peer script (stkr.py's solvers,
// `gssl labelprop --split`) runs on the same partitions as `gssl stkr --lcc`.
//
//	go run ./scripts/lcc-dataset -data ../shared/data/cora -splits ../shared/bench/splits/cora -out DIR
//
// DIR receives edges.txt (component ids, each edge once), labels.txt,
// original_ids.txt (line t: the loaded id of component node t),
// split_planetoid.txt (remapped; nodes outside the component dropped) and,
// for each seed s with a saved split, splits/random20_seed<s>.txt (the saved
// split remapped) and splits/random20_seed<s>_ptest<p>.txt (the same with
// the test set cut to the p_test draw of protocol.NewPartition, the nodes
// `gssl stkr --lcc --p-test p` scores) and splits/random20_seed<s>_chunks<p>.txt
// (lines "k node": the test chunks of protocol.TestChunks, `--test-chunks`). Features are not written (neither
// stkr.py nor label propagation uses them).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/protocol"
)

func main() {
	data := flag.String("data", "../shared/data/cora", "node-classification data folder")
	splits := flag.String("splits", "../shared/bench/splits/cora", "folder of random20_seed<s>.txt split files")
	out := flag.String("out", "", "output folder (created)")
	pTest := flag.Float64("p-test", 0.01, "p_test of the extra split files, in (0, 1)")
	seeds := flag.Int("seeds", 10, "seeds 0..seeds-1")
	flag.Parse()
	if err := run(*data, *splits, *out, *pTest, *seeds); err != nil {
		fmt.Fprintln(os.Stderr, "lcc-dataset:", err)
		os.Exit(1)
	}
}

func run(data, splits, out string, pTest float64, seeds int) error {
	if out == "" {
		return errors.New("-out is required")
	}
	if !(pTest > 0 && pTest < 1) {
		return fmt.Errorf("-p-test=%v is invalid: it must be in (0, 1)", pTest)
	}
	ds, err := loaders.LoadNodeDataset(data)
	if err != nil {
		return err
	}
	lcc, err := ds.Graph.LargestComponent()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(out, "splits"), 0o755); err != nil {
		return err
	}
	if err := writeComponent(out, ds, lcc); err != nil {
		return err
	}
	for s := 0; s < seeds; s++ {
		if err := writeSeed(out, splits, ds, lcc, s, pTest); err != nil {
			return err
		}
	}
	g := lcc.CSR
	fmt.Printf("%s: largest component %d of %d nodes, %d edges, written to %s\n", ds.Name, g.Nodes(), ds.Graph.Nodes(), g.Edges(), out)
	return nil
}

// writeComponent writes the component's edges, labels, original ids and,
// when the data set has one, its remapped Planetoid split.
func writeComponent(out string, ds *loaders.NodeDataset, lcc *graph.Subgraph) error {
	g := lcc.CSR
	err := write(filepath.Join(out, "edges.txt"), func(w *bufio.Writer) {
		for i := 0; i < g.Nodes(); i++ {
			cols, _ := g.Row(i)
			for _, j := range cols {
				if int(j) > i {
					fmt.Fprintf(w, "%d %d\n", i, j)
				}
			}
		}
	})
	if err != nil {
		return err
	}
	if err := write(filepath.Join(out, "labels.txt"), func(w *bufio.Writer) {
		for _, i := range lcc.Original {
			fmt.Fprintln(w, ds.Labels[i])
		}
	}); err != nil {
		return err
	}
	if err := write(filepath.Join(out, "original_ids.txt"), func(w *bufio.Writer) {
		for _, i := range lcc.Original {
			fmt.Fprintln(w, i)
		}
	}); err != nil {
		return err
	}
	if ds.Split != nil {
		return writeSplit(filepath.Join(out, "split_planetoid.txt"), remap(*ds.Split, lcc))
	}
	return nil
}

// writeSeed writes the saved split of seed s remapped, the same with the
// test set cut to its p_test draw, and its test chunks.
func writeSeed(out, splits string, ds *loaders.NodeDataset, lcc *graph.Subgraph, s int, pTest float64) error {
	g := lcc.CSR
	tag := strconv.FormatFloat(pTest, 'g', -1, 64)
	sp, err := loaders.ReadSplit(filepath.Join(splits, fmt.Sprintf("random20_seed%d.txt", s)), ds.Graph.Nodes())
	if err != nil {
		return err
	}
	local := remap(*sp, lcc)
	if err := writeSplit(filepath.Join(out, "splits", fmt.Sprintf("random20_seed%d.txt", s)), local); err != nil {
		return err
	}
	part, err := protocol.NewPartition(g.Nodes(), local, pTest, uint64(s))
	if err != nil {
		return err
	}
	cut := eval.Split{Train: local.Train, Val: local.Val, Test: part.Test}
	if err := writeSplit(filepath.Join(out, "splits", fmt.Sprintf("random20_seed%d_ptest%s.txt", s, tag)), cut); err != nil {
		return err
	}
	chunks, err := protocol.TestChunks(g.Nodes(), local, pTest, uint64(s))
	if err != nil {
		return err
	}
	return write(filepath.Join(out, "splits", fmt.Sprintf("random20_seed%d_chunks%s.txt", s, tag)), func(w *bufio.Writer) {
		for k, c := range chunks {
			for _, i := range c.Test {
				fmt.Fprintf(w, "%d %d\n", k, i)
			}
		}
	})
}

// remap maps a split in the loaded graph's ids to the component's ids,
// dropping nodes outside it (as gssl stkr --lcc does).
func remap(sp eval.Split, lcc *graph.Subgraph) eval.Split {
	local := func(nodes []int) []int {
		var out []int
		for _, p := range nodes {
			if i, ok := lcc.Local(p); ok {
				out = append(out, i)
			}
		}
		return out
	}
	return eval.Split{Train: local(sp.Train), Val: local(sp.Val), Test: local(sp.Test)}
}

func writeSplit(path string, sp eval.Split) error {
	return write(path, func(w *bufio.Writer) {
		for _, part := range []struct {
			name  string
			nodes []int
		}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
			for _, i := range part.nodes {
				fmt.Fprintf(w, "%s %d\n", part.name, i)
			}
		}
	})
}

func write(path string, body func(w *bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	body(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
