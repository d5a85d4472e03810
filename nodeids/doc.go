// Package nodeids maps the node ids of a user's files to the node indices
// 0..n−1 that graphs, label vectors and feature rows are indexed by, and back.
//
// Ids are read as text, exactly as written: "user_0", "17" and "0017" are
// three different ids. When every id of a file is a non-negative integer in
// canonical decimal form (no sign, no leading zeros), the nodes are numbered
// in ascending numeric order, so a file whose ids are 0..n−1 gives node i the
// id i (Identity); otherwise nodes are numbered in order of first appearance,
// as pandas' factorize and networkx's add_edge do. Either way the numbering
// depends only on the input, never on how it was read (serially or in
// parallel chunks).
//
// Memory is linear in the number of distinct ids: about 8 bytes per node for
// integer ids, and for other ids their text (a copy, however the id was
// read) plus about 55 bytes per node for the index and the list (70 bytes
// per id of ten characters in loaders' TestTableEdgesPeakHeap).
package nodeids
