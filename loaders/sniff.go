package loaders

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gssl/gssl/graphfile"
	"github.com/gssl/gssl/internal/inputfile"
	"github.com/gssl/gssl/modelfile"
)

// sniffGraph tells the format of a graph file from its first bytes h
// (decompressed), never from its name alone: a Matrix Market banner, a zip
// archive (.npz), a gssl graph file, a NumPy array (an edge_index), GraphML,
// GML, networkx's adjacency lists; anything else is an edge table. A gssl
// model file, and a Matrix Market file that lost its banner, are errors
// naming what they are.
func sniffGraph(path string, h []byte) (graphFormat, error) {
	switch {
	case bytes.HasPrefix(h, []byte("%%MatrixMarket")):
		return formatMatrixMarket, nil
	case bytes.HasPrefix(h, zipMagic):
		return formatZip, nil
	case graphfile.HasMagic(h):
		return formatGSG, nil
	case bytes.HasPrefix(h, npyMagic):
		return formatNPY, nil
	case bytes.HasPrefix(h, []byte(modelfile.Magic)):
		return "", &ParseError{Path: path, Msg: "this is a gssl model file (.gssl), not a graph: give it to gssl predict or gssl serve (--model), and the graph to --edges"}
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(h, []byte("\ufeff")), " \t\r\n")
	if bytes.HasPrefix(text, []byte("<?xml")) || bytes.HasPrefix(text, []byte("<graphml")) {
		if !bytes.Contains(h, []byte("<graphml")) {
			return "", &ParseError{Path: path, Msg: "an XML document that is not GraphML (no <graphml> element at its start)"}
		}
		return formatGraphML, nil
	}
	if isGML(text) {
		return formatGML, nil
	}
	if adj, multi := networkxAdjHeader(text); adj {
		if multi {
			return formatMultiAdjList, nil
		}
		return formatAdjList, nil
	}
	if err := bannerlessMM(path, text); err != nil {
		return "", err
	}
	return formatEdgeTable, nil
}

// isGML reports whether text starts like a GML file: optional comment
// lines and Creator/Version keys, then "graph [".
func isGML(text []byte) bool {
	for len(text) > 0 {
		line := text
		rest := []byte(nil)
		if k := bytes.IndexByte(text, '\n'); k >= 0 {
			line, rest = text[:k], text[k+1:]
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0 || t[0] == '#':
		case bytes.HasPrefix(t, []byte("Creator")) || bytes.HasPrefix(t, []byte("Version")):
		case bytes.HasPrefix(t, []byte("graph")):
			after := bytes.TrimSpace(t[len("graph"):])
			if len(after) == 0 {
				after = bytes.TrimSpace(rest)
			}
			return len(after) > 0 && after[0] == '['
		default:
			return false
		}
		text = rest
	}
	return false
}

// bannerlessMM refuses a file that is a Matrix Market file without its
// "%%MatrixMarket" banner: by its name (.mtx, .mm), or by its content —
// '%' comment lines, then a size line "n n entries" whose entry count is
// the number of lines that follow. Read as an edge list, its size line
// would be a self loop of node n weighing the entry count.
func bannerlessMM(path string, text []byte) error {
	name := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	if ext := filepath.Ext(name); ext == ".mtx" || ext == ".mm" {
		return &ParseError{Path: path, Line: 1, Msg: fmt.Sprintf("a %s file without the Matrix Market banner (%%%%MatrixMarket matrix coordinate real symmetric) on its first line: add the banner, or rename the file if it is an edge list", ext)}
	}
	if !bytes.HasPrefix(text, []byte("%")) {
		return nil
	}
	lr, err := openLines(path)
	if err != nil {
		return nil // the edge table reader reports it
	}
	defer lr.close()
	sizeLine, entries, data := 0, 0, 0
	for lr.next() {
		s := strings.TrimSpace(lr.text)
		if s == "" || s[0] == '%' || s[0] == '#' {
			continue
		}
		data++
		if sizeLine != 0 {
			continue
		}
		f := strings.Fields(s)
		if len(f) != 3 {
			return nil
		}
		var v [3]int
		for k := range f {
			if v[k], err = strconv.Atoi(f[k]); err != nil || v[k] < 1 {
				return nil
			}
		}
		if v[0] != v[1] {
			return nil
		}
		sizeLine, entries = lr.line, v[2]
	}
	if sizeLine != 0 && data-1 == entries {
		return &ParseError{Path: path, Line: sizeLine, Msg: fmt.Sprintf("this is a Matrix Market file without its banner: '%%' comments, then the size line %q and exactly that many entries; add \"%%%%MatrixMarket matrix coordinate real general\" (or pattern, symmetric) as its first line", strings.Join(strings.Fields(mmSizeLine(path)), " "))}
	}
	return nil
}

// mmSizeLine returns the first line of path that is not a comment.
func mmSizeLine(path string) string {
	lr, err := openLines(path)
	if err != nil {
		return ""
	}
	defer lr.close()
	for lr.next() {
		if s := strings.TrimSpace(lr.text); s != "" && s[0] != '%' && s[0] != '#' {
			return s
		}
	}
	return ""
}

// npzIsScipy reports whether the .npz archive at path is a SciPy sparse
// matrix (save_npz) rather than an edge_index array.
func npzIsScipy(path string) bool {
	z, err := openNPZ(path)
	if err != nil {
		return true // ReadScipyGraph reports what is wrong
	}
	defer z.close()
	return z.has("format") || !(z.has("edge_index") || len(z.names()) == 1)
}

// readGraphFormat reads a graph file in one of the formats other than an
// edge table into a tableEdges that holds its rows.
func (ld *nodeLoad) readGraphFormat(format graphFormat) (*tableEdges, error) {
	f := ld.files
	te := &tableEdges{path: f.Edges, opt: EdgeTableOptions{Weight: f.Weight}, loops: f.Graph.SelfLoops, b: &ld.b, fixed: ld.fixed, unit: true, rows: &EdgeTable{}}
	addNode := func(line int, id string) error {
		i, err := ld.b.Add(id)
		if err != nil {
			return &ParseError{Path: f.Edges, Line: line, Msg: err.Error()}
		}
		if ld.fixed > 0 && int(i) >= ld.fixed && te.outLine == 0 {
			te.outLine = max(line, 1)
		}
		return nil
	}
	var err error
	switch format {
	case formatNPY, formatZip:
		te.report, err = readEdgeIndexFile(f.Edges, format == formatZip, f.MaxMemory, te)
	case formatGraphML:
		var fh *os.File
		if fh, err = inputfile.Open(f.Edges); err != nil {
			return nil, fmt.Errorf("loaders: %w", err)
		}
		defer fh.Close()
		br, derr := decompress(fh, f.Edges)
		if derr != nil {
			return nil, derr
		}
		te.report, err = readGraphML(br, f.Edges, f.Weight, te, addNode)
	default:
		_, err = readFile(f.Edges, func(lr *lineReader) (struct{}, error) {
			var err error
			switch format {
			case formatGML:
				te.report, err = readGML(lr, f.Weight, te, addNode)
			case formatAdjList, formatMultiAdjList:
				if f.Source != "" || f.Target != "" || (f.Weight != "" && f.Weight != "none") {
					return struct{}{}, &ParseError{Path: f.Edges, Msg: "an adjacency list has no columns to choose: --source, --target and --weight apply to edge tables"}
				}
				te.report, err = readAdjList(lr, format == formatMultiAdjList, te, addNode)
			}
			return struct{}{}, err
		})
	}
	if err != nil {
		return nil, err
	}
	if te.unit {
		te.rows.W = nil
	}
	if format != formatAdjList && format != formatMultiAdjList && (f.Source != "" || f.Target != "") {
		return nil, &ParseError{Path: f.Edges, Msg: fmt.Sprintf("a %s file names its edges' ends itself: --source and --target apply to edge tables", te.report.Format)}
	}
	return te, nil
}
