// Package loaders reads the user's files and the data formats of gssl's
// benchmarks into graphs, label vectors and matrices, and writes graphs as
// Matrix Market files.
//
// # The user's own files (LoadNodes)
//
// LoadNodes reads a node-level data set from the files a user has: an edge
// table, and optionally a labels table, a feature matrix and a targets
// table (NodeFiles). The tables are delimited text as pandas, networkx,
// spreadsheets and databases write them:
//
//   - the delimiter is detected from the first data line (a tab, else a
//     comma, else a semicolon, else a bar, else runs of white space), or set;
//   - a header line is recognised by its column names (source, target,
//     src, dst, from, to, u, v, weight, id, node, label, class, …, and the
//     empty name of pandas' index column), or by text fields above numbers,
//     or forced on or off (HeaderMode);
//   - ids are text as written ("user_0", "17"): the nodes are the ids
//     present in any of the files, numbered as package nodeids says
//     (integer ids ascending, so ids 0..n−1 keep their numbers; other ids in
//     order of first appearance), and NodeDataset.IDs maps them back, so
//     that every output can use the user's ids;
//   - an edge's weight is the column named weight (or by name or position
//     in EdgeTableOptions), else a third column, else the 'weight' of a
//     networkx attribute dictionary ("0 1 {'weight': 0.5}", write_edgelist);
//   - '#' and '%' start comment lines, a UTF-8 byte-order mark and CRLF
//     line ends are accepted, double quotes protect delimiters in a field,
//     and gzip is read transparently;
//   - labels are "id,label" rows whose labels are class names as written
//     (the classes are the distinct labels, in ascending numeric order when
//     all are integers, else in text order, named by ClassNames); an empty
//     or missing label, -1, NaN, NA or None mean unlabelled, and pandas'
//     "3.0" for an integer column with gaps is the class "3". A table of a
//     single column gives line i to the node with id i (blank lines in the
//     middle are then errors);
//   - features are our sparse text format or a table of numbers whose rows
//     are the nodes 0, 1, … or, with an id column first, the named nodes;
//     every node needs a row.
//
// The reader decides nothing silently. TableReport (one per file in
// NodeDataset.Reports) says what each file was recognised as, how its
// header was decided (by its column names, by text above numbers, forced,
// or none) and which columns were used as source, target, weight, id and
// label. What it would otherwise have to guess is an error naming the
// option that decides (NodeFiles.Source, Target, Weight, IDColumn,
// LabelColumn, TargetColumn; the command line's --source, --target,
// --weight, --id-column, --label-column, --target-column):
//
//   - a first line of text over text ids, in a header gssl does not know,
//     whose ids appear on no other line (character1,character2), or, in a
//     labels table, whose id names no node of the graph;
//   - a header column that no rule uses and would be dropped (a weight
//     column named count; a column beside the weight), unless the weight
//     column is named (or none);
//   - a labels or targets table of more than two columns whose id or value
//     column has no known name (name,age,club);
//   - a NumPy labels or targets vector whose length is not the node count;
//   - the header repeated below the data, or a line of column names in the
//     middle of a table without one (two files concatenated);
//   - a UTF-8 byte-order mark anywhere but at the start of the file;
//   - a Matrix Market file without its banner (by its .mtx name, or '%'
//     comments then a size line "n n k" followed by exactly k entries).
//
// Lines that end in CR alone (classic Mac OS) are read as lines.
//
// # Graph formats recognised by content
//
// The graph file (NodeFiles.Edges) is recognised by its first bytes, not
// its name: a Matrix Market banner, a zip archive (a SciPy save_npz matrix,
// or an edge_index .npz), a gssl graph file (.gsg), a NumPy array (an
// edge_index), GraphML ("<?xml"/"<graphml"; networkx's write_graphml,
// weights in the <data> of the edge key whose attr.name is weight, or
// NodeFiles.Weight), GML ("graph ["; networkx's write_gml, nodes named by
// their label as read_gml does), networkx's adjacency lists (the "# GMT"
// comment lines write_adjlist and write_multiline_adjlist write; the
// multiline form by its attribute dictionaries), else an edge table. An
// edge_index array is PyG's: integers of shape (2, E) (row 0 the sources)
// or (E, 2); a (2, 2) array is read only when both layouts give the same
// edges. A .npz holds it as edge_index (or as its only array), with
// optional edge_weight. A gssl model file given as a graph or table, or a
// graph file given as a table, is an error naming it; so is a file with a
// NUL byte in its first 4 KiB given as a text table (/dev/zero).
//
// # Bounds on what a file can make the reader do
//
// A line is searched for its end once, however many reads it arrives in
// (a gzip stream inflates 32 KiB at a time), so a long line costs time
// linear in its length, up to the line cap (256 MiB) that ends it with an
// error. A .npz member is decoded as it inflates, never held whole, and an
// array whose decoded elements pass NodeFiles.MaxMemory is refused before
// its elements are allocated. A file of unknown length (a pipe, a device)
// is read up to 256 MiB.
//
// The same rules are exported line by line (NewLines, NewTableReader,
// EdgeColumns, ParseWeight, DictWeight, Unlabelled, CanonicalLabel) for
// readers that run elsewhere, such as the Beam pipelines of the beam module,
// so that both give the same answers and the same errors.
//
// An id listed twice in a labels or targets table, a row whose field count
// differs from the first row's, an empty id, and a file with no data are
// errors naming the file and line. Nothing is allocated from a number in
// the input: node counts are the ids present, classes the labels present.
//
// # Conventions
//
// Every reader detects gzip by the magic bytes 1f 8b at the start of the file,
// not by its name, so "edges.txt" and "edges.txt.gz" are read alike. A
// truncated or corrupt gzip stream is an error, never a silently short read,
// and so is a file with no content at all. Errors on data are *ParseError
// values, printed as
//
//	loaders: cora/edges.txt:17: want "u v" or "u v w", got "3"
//
// with the file as the caller named it, the 1-based line (absent when the
// problem concerns the whole file, such as a count mismatch) and what was
// expected. Node ids are 0-based except where a format says otherwise (TU
// files and Matrix Market are 1-based). Weights must be finite and
// non-negative; a non-zero number that underflows to 0 (1e-400) is an error,
// not a silent zero. An explicit weight 0 is stored, contributes nothing to
// the degrees, and does not connect components (see package graph). Lines
// end with "\n" or "\r\n". Readers never panic on data; they panic only on
// programmer error (a negative node count, an index out of range in an
// accessor).
//
// Memory follows the input, not the numbers in it: nothing is allocated from
// a count or an id until the data that follows justifies it. Declared counts
// (a Matrix Market size line, a features header) are checked against the
// lines that follow; a node count above MinJustifiedNodes may be at most twice
// the number of distinct nodes the edges name; labels become classes by
// their distinct values. Each parser allocates at most a constant times the
// size of its (decompressed) input, which the fuzz targets check.
//
// Graphs are built by counting (graph.Builder), and the rows of an edge
// table are not held. ReadIntEdgesParallel reads an integer edge list twice
// in blocks (see there); LoadNodes reads any other edge table twice as
// well: the first pass checks the rows, numbers the ids and counts each
// node's entries, the second, once the other files have added their nodes,
// fills the Builder from the rows. In both passes one goroutine reads and
// splits the lines a few batches of rows ahead of the one that numbers or
// looks up the ids and counts or fills, in file order, so that ids are
// numbered and errors reported as by one serial reader. Beyond the graph,
// memory is the ids' map,
// 8 bytes per node of counts and one read buffer: on a file of 10⁶ edges
// among 2·10⁵ text ids ("user_123 user_456") the live heap peaks at the
// graph itself, 11.2 bytes per edge, plus the map, about 70 bytes per node
// (TestTableEdgesPeakHeap). Weights add 16 bytes per edge to the graph (a
// float64 per stored entry). A repeated
// edge that the policy rejects is traced back to its two lines by more
// passes over the file, on that error only; a file that cannot be read
// twice (a named pipe) keeps its rows, 12 bytes per edge (20 with weights).
//
// In files where line i describes item i (labels, graph indicators, per-line
// value lists) a blank line is allowed only at the end of the file: one in
// the middle would shift every later item, so it is an error. Lines whose
// first non-space character is '#' are comments in every text format except
// sparse features (where "#" starts the header) and Matrix Market (where
// comments start with '%').
//
// # Edge lists (ReadEdgeList)
//
// One edge per line, "u v" or "u v w", the fields separated by white space or
// by commas; every line has the same number of fields. Lines starting with '#'
// or '%' and blank lines are skipped. Ids are non-negative integers; the
// optional weight w (default 1) is a finite number ≥ 0. The node count is
// given by the caller or is max id + 1, refused when most of 0..max id never
// appears (ReadEdgeListIDs then numbers the ids that do, and also reads text
// ids). A file without edges is an error. The caller's graph.Options say how
// repeated edges (sum, max or error), self loops (keep, drop or error) and
// directed input (symmetrise by max, sum, mean or mutual arcs) are treated;
// rejected self loops and repeats are reported with their lines.
//
// # Node-classification folders (LoadNodeDataset)
//
// The format of cora, pubmed, amazon_photo and coauthor_*:
//
//	edges.txt            "u v" per line, 0-based, each undirected edge once
//	labels.txt           line i = label of node i (an integer ≥ 0), or −1
//	                     for unknown; the distinct labels, ascending, are the
//	                     classes 0..C−1 (NodeDataset.ClassValues)
//	features.txt.gz      optional; "# n_nodes n_features", then line 2+i =
//	                     node i as space-separated "col:value" pairs with
//	                     0-based, strictly ascending columns; an empty line
//	                     is an all-zero row (ReadFeatures)
//	split_planetoid.txt  optional; "train i", "val i", "test i" (ReadSplit)
//	class_names.txt      optional; "k name" lines for labels k
//
// The number of labels is the node count n; a features header must agree
// with it, edges must name nodes below it, a split node must have a known
// label. The graph follows the convention of the Python peers (PyG's
// to_undirected and remove_self_loops): undirected 0/1 weights, repeated
// edges merged, self loops dropped and counted (NodeGraphOptions,
// NodeDataset.SelfLoopsDropped). Split files in the
// same format, such as bench/splits/<ds>/random20_seed<s>.txt, are read by
// ReadSplit; a node listed twice is an error.
//
// # TU Dortmund graph classification (LoadTU)
//
// The comma-separated files of the TUDataset collection (C. Morris et al.,
// "TUDataset: A collection of benchmark datasets for learning with graphs",
// ICML 2020 GRL+ workshop), for a data set named DS with n nodes, m arcs and
// N graphs:
//
//	DS_A.txt                m lines "r, c": arc between 1-based nodes r and c
//	DS_graph_indicator.txt  n lines: graph id (1..N) of node i, non-decreasing
//	DS_graph_labels.txt     N lines: label of graph g
//	DS_node_labels.txt      optional, n lines: label of node i (first column)
//	DS_edge_labels.txt      optional, m lines: label of the arc on line k of A
//	DS_node_attributes.txt  optional, n lines of comma-separated reals
//
// Every graph is a graph.CSR on its own nodes with weight-1 edges: an arc in
// either direction makes an edge (graph.DirectedMax), self loops are
// dropped, a repeated arc is an error (TUGraphOptions). Edge labels are
// stored aligned with the graph's rows, and the two directions of an edge
// must carry the same label. The distinct graph labels, sorted, become the
// classes 0..C−1 (MUTAG's −1 and 1 become 0 and 1).
//
// # Matrix Market (ReadMatrixMarket, WriteMatrixMarket)
//
// The coordinate format of the NIST Matrix Market (R. F. Boisvert, R. Pozo,
// K. Remington, "The Matrix Market Exchange Formats: Initial Design", NISTIR
// 5935, 1996): a header "%%MatrixMarket matrix coordinate FIELD SYMMETRY",
// '%' comment lines, a size line "rows cols entries", then one 1-based
// "i j [value]" line per entry. FIELD is real, integer or pattern (weight
// 1); SYMMETRY is general or symmetric (only one triangle stored). The
// matrix must be square, with at least one row and one entry; it becomes
// the weight matrix W of a graph. The rows declared by the size line must be
// justified by the entries (as for edge lists, at most half of them empty
// above MinJustifiedNodes), and the entries are counted as they are read. A
// symmetric file is read as undirected edges; a general one must be
// symmetric unless graph.Options names a directed rule to symmetrise it.
// WriteMatrixMarket writes "coordinate real symmetric" with the lower
// triangle, so that writing and reading gives back the same graph.
//
// # Images (ReadImages, ReadInts, ReadFloats)
//
// Raw uint8 pixels without a header, image k at bytes [k·p, (k+1)·p) for p
// pixels per image (784 for 28×28 MNIST, 64 for the 8×8 digits, whose values
// are 0..16), given by the caller (ReadImages) or found from a known image
// count (ReadImagesCount), which must divide the decoded size of the whole
// stream — never guessed from a gzip trailer. Images.Dense scales them by
// 1/255. Their companion files —
// labels, digits, angles — hold one number per line and are read by
// ReadInts and ReadFloats.
//
// # Point clouds (ReadDense)
//
// One point per line, values separated by commas, tabs or spaces, '#'
// comments, an optional header line (taken as one when none of its fields is
// a number). Rows must all have the same length and values must be finite.
//
// # Predictions (NodeDataset.PredictionTable)
//
// A node classifier's predictions are written as one row per node not
// trained on: the user's id, the predicted class name, optionally the
// node's true class and part of the split, p_<class> for every class and
// optionally the prediction set (class names joined by "|"), as CSV or JSON
// Lines (WriteTableFile).
package loaders
