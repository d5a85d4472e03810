// Package datasets holds small data sets inside the binary, so that gssl's
// commands and examples run anywhere, with no file next to the executable.
//
// Cora is the Planetoid version of the Cora citation graph (Yang, Cohen &
// Salakhutdinov, "Revisiting Semi-Supervised Learning with Graph
// Embeddings", ICML 2016; the citation data of Sen et al., "Collective
// Classification in Network Data", AI Magazine 29(3), 2008): 2708 papers,
// 5278 undirected edges, 7 classes, 1433 binary bag-of-words features and
// the standard split (140 train, 500 val, 1000 test), in the folder layout
// of package loaders (cora/README.md gives its sources and checks). It is
// embedded with go:embed (about 160 KB) and read by
// loaders.LoadNodeDatasetFS.
package datasets
