// Package nodefolder writes a node-classification data set with fixed
// splits in the folder layout gssl reads (loaders.LoadNodeDataset, and
// split_K.txt for scripts/hetero-gnn), as the shared heterophilous sets of
// ../shared/data were written:
//
//   - edges.txt: "u v" with u < v, sorted, each undirected edge once;
//   - labels.txt: line i the class of node i;
//   - features.txt.gz: the header "# n F", then per node its nonzero
//     values as "col:value" pairs, each value written as Python's repr of
//     the float64 (the shared sets hold float32 values widened to float64);
//   - split_0.txt … split_{K−1}.txt: "train i" lines, then "val i", then
//     "test i", each in increasing node order.
//
// The converters under scripts/ (platonov-npz, geomgcn-folder) read and
// check their sources and hand a Set to Write; the layout is written in
// this one place.
package nodefolder
