// Command geomgcn-folder converts a data set of Pei et al., "Geom-GCN:
// Geometric Graph Convolutional Networks" (ICLR 2020), as their repository
// (graphdml-uiuc-jlu/geom-gcn) lays it out, into a gssl node-classification
// folder with the ten fixed splits, laid out as the shared heterophilous
// sets are (scripts/internal/nodefolder):
//
//	go run ./scripts/geomgcn-folder -repo GEOMGCN -name texas -out DIR
//
// GEOMGCN is a checkout of the repository (or any folder holding the same
// paths): new_data/NAME/out1_node_feature_label.txt (a header, then
// "id<TAB>f1,f2,…,fF<TAB>label" per node), new_data/NAME/out1_graph_edges.txt
// (a header, then "u<TAB>v" per directed edge) and
// splits/NAME_split_0.6_0.2_K.npz for K = 0, 1, … (train_mask, val_mask,
// test_mask: n booleans each; despite the name the parts are 48 / 32 / 20 %).
// The dense comma-separated features are those of texas, cornell,
// wisconsin, chameleon and squirrel; film's rows list feature indices
// instead and are refused (their lengths differ).
//
// The graph is made undirected as the models run on it: u→v and v→u become
// one edge, and self loops are dropped (Geom-GCN's own code keeps the
// directed adjacency; PyG's WebKB users call to_undirected). The counts of
// both are printed with the folder's counts as one JSON line.
//
// The input is checked before anything is written: node ids 0 … n−1 each
// once, every feature row of the same length and finite, every label in
// [0, n), every edge inside [0, n) and no directed edge twice, the masks of
// a split n long, boolean, disjoint and none of them empty. A failed check
// is an error naming the file and the line or element.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	repo := flag.String("repo", "", "a checkout of graphdml-uiuc-jlu/geom-gcn (new_data/ and splits/)")
	name := flag.String("name", "", "the data set: texas, cornell, wisconsin, chameleon or squirrel")
	out := flag.String("out", "", "output folder (created; existing files are replaced)")
	flag.Parse()
	if *repo == "" || *name == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "geomgcn-folder: -repo, -name and -out are required")
		os.Exit(2)
	}
	r, err := convert(*repo, *name, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "geomgcn-folder:", err)
		os.Exit(1)
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fmt.Fprintln(os.Stderr, "geomgcn-folder:", err)
		os.Exit(1)
	}
}
