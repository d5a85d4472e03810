package loaders

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Graph formats other tools write, read into the rows of an edge table
// (edgeRows) so that LoadNodes builds their graphs as it builds an edge
// table's: GraphML and GML as networkx's write_graphml and write_gml write
// them, networkx's adjacency lists (write_adjlist, write_multiline_adjlist)
// and PyG-style edge_index arrays (edgeindex.go). Nodes a file declares
// without edges are nodes of the graph (isolated), added by addNode.

// graphFormat is what the content of a graph file was recognised as.
type graphFormat string

const (
	formatEdgeTable     graphFormat = "edge-table"
	formatMatrixMarket  graphFormat = "matrix-market"
	formatZip           graphFormat = "zip"
	formatGSG           graphFormat = "gssl-graph"
	formatNPY           graphFormat = "npy"
	formatGraphML       graphFormat = "graphml"
	formatGML           graphFormat = "gml"
	formatAdjList       graphFormat = "adjlist"
	formatMultiAdjList  graphFormat = "multiline-adjlist"
	formatModel         graphFormat = "gssl-model"
	formatBannerlessMM  graphFormat = "matrix-market-without-banner"
	formatUnknownBinary graphFormat = "binary"
)

// nodeAdder adds a node declared without an edge.
type nodeAdder func(line int, id string) error

// xmlLine returns the line of the decoder's position.
func xmlLine(d *xml.Decoder) int {
	line, _ := d.InputPos()
	return line
}

// graphDoc is what the GraphML and GML readers share: the file, where its
// nodes and rows go, the report, and the weight key asked for.
type graphDoc struct {
	path       string
	rows       edgeRows
	addNode    nodeAdder
	rep        TableReport
	weightName string // the weight key: "weight" when none was named
	noWeight   bool   // the key named is "none": weights are ignored
}

// newGraphDoc starts the reading of a GraphML or GML file; unweighted is
// the report's weight when no edge has one.
func newGraphDoc(path string, format graphFormat, weightName, unweighted string, rows edgeRows, addNode nodeAdder) graphDoc {
	d := graphDoc{path: path, rows: rows, addNode: addNode, weightName: weightName, noWeight: strings.EqualFold(weightName, "none"),
		rep: TableReport{Path: path, Role: "edges", Format: string(format), Weight: unweighted}}
	if weightName == "" {
		d.weightName = "weight"
	}
	return d
}

// readGraphML reads a GraphML document (graphml.graphdrawing.org) as
// networkx's write_graphml writes it: <key> declarations, one <graph>
// whose <node id> and <edge source target> elements give the nodes and
// edges, an edge's weight in the <data> of the edge key whose attr.name is
// weightName ("" means "weight"; "none" ignores weights), or that key's
// <default>. Nested graphs, hyperedges and ports are refused.
func readGraphML(r io.Reader, path, weightName string, rows edgeRows, addNode nodeAdder) (TableReport, error) {
	g := &graphMLReader{d: xml.NewDecoder(r), weightDef: 1,
		graphDoc: newGraphDoc(path, formatGraphML, weightName, "none (no edge key named weight: every edge weighs 1)", rows, addNode)}
	g.d.Strict = true
	for {
		tok, err := g.d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return g.rep, &ParseError{Path: path, Line: se.Line, Msg: "GraphML: " + se.Msg}
			}
			return g.rep, &ParseError{Path: path, Line: xmlLine(g.d), Msg: "GraphML", Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			err = g.start(t)
		case xml.CharData:
			err = g.charData(t)
		case xml.EndElement:
			err = g.end(t)
		}
		if err != nil {
			return g.rep, err
		}
	}
	return g.rep, g.finish()
}

// graphMLReader is the state of readGraphML.
type graphMLReader struct {
	graphDoc
	d *xml.Decoder

	weightKey string
	weightDef float64
	keyNames  []string
	inKey     string // the key whose <default> is being read
	inDefault bool
	graphs    int
	depth     int // graph nesting
	inEdge    bool
	edgeW     float64
	edges     int
	inData    bool
	data      strings.Builder
	dataKey   string
}

// fail returns a ParseError at the decoder's line.
func (g *graphMLReader) fail(format string, args ...any) error {
	return &ParseError{Path: g.path, Line: xmlLine(g.d), Msg: fmt.Sprintf(format, args...)}
}

// xmlAttr returns the value of t's attribute name.
func xmlAttr(t xml.StartElement, name string) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// start reads an element's start tag.
func (g *graphMLReader) start(t xml.StartElement) error {
	switch t.Name.Local {
	case "key":
		return g.key(t)
	case "default":
		g.inDefault = g.inKey != ""
		g.data.Reset()
	case "graph":
		return g.graph(t)
	case "node":
		if g.depth == 0 {
			return g.fail("GraphML: <node> outside a <graph>")
		}
		id, ok := xmlAttr(t, "id")
		if !ok || id == "" {
			return g.fail("GraphML: <node> without an id")
		}
		return g.addNode(xmlLine(g.d), id)
	case "edge":
		return g.edge(t)
	case "data":
		if g.inEdge {
			k, _ := xmlAttr(t, "key")
			g.inData, g.dataKey = true, k
			g.data.Reset()
		}
	case "hyperedge", "port":
		return g.fail("GraphML: <%s> is not supported", t.Name.Local)
	}
	return nil
}

// key reads a <key> declaration, keeping the id of the edge key named
// weightName.
func (g *graphMLReader) key(t xml.StartElement) error {
	id, _ := xmlAttr(t, "id")
	name, _ := xmlAttr(t, "attr.name")
	target, _ := xmlAttr(t, "for")
	if target != "edge" && target != "all" {
		return nil
	}
	g.keyNames = append(g.keyNames, name)
	if !g.noWeight && strings.EqualFold(name, g.weightName) && g.weightKey == "" {
		g.weightKey = id
		if typ, _ := xmlAttr(t, "attr.type"); typ != "" && typ != "double" && typ != "float" && typ != "int" && typ != "long" {
			return g.fail("GraphML edge key %q (attr.name %s) has attr.type %s: a weight is a number", id, name, typ)
		}
		g.inKey = id
	}
	return nil
}

// graph reads the start of the <graph>, refusing a second or nested one.
func (g *graphMLReader) graph(t xml.StartElement) error {
	if g.depth > 0 || g.inEdge {
		return g.fail("GraphML: a graph nested in a node is not supported")
	}
	g.graphs++
	if g.graphs > 1 {
		return g.fail("GraphML: a second <graph>; give one graph per file")
	}
	g.depth++
	if ed, _ := xmlAttr(t, "edgedefault"); ed == "directed" {
		g.rep.Note = "edgedefault directed: each edge is an arc, made undirected as --directed says"
	}
	return nil
}

// edge reads an <edge>'s source and target; its weight comes with its end.
func (g *graphMLReader) edge(t xml.StartElement) error {
	if g.depth == 0 {
		return g.fail("GraphML: <edge> outside a <graph>")
	}
	if g.inEdge {
		return g.fail("GraphML: an <edge> inside an <edge>")
	}
	s, ok1 := xmlAttr(t, "source")
	tg, ok2 := xmlAttr(t, "target")
	if !ok1 || !ok2 || s == "" || tg == "" {
		return g.fail("GraphML: <edge> needs a source and a target")
	}
	if _, ok := xmlAttr(t, "sourceport"); ok {
		return g.fail("GraphML: ports are not supported")
	}
	line := xmlLine(g.d)
	if err := g.rows.id(0, line, s); err != nil {
		return err
	}
	if err := g.rows.id(1, line, tg); err != nil {
		return err
	}
	g.inEdge, g.edgeW = true, g.weightDef
	return nil
}

// charData collects the text of a <data> or <default> being read.
func (g *graphMLReader) charData(t xml.CharData) error {
	if g.inData || g.inDefault {
		if g.data.Len()+len(t) > 1<<10 {
			return g.fail("GraphML: a <data> value longer than %d bytes", 1<<10)
		}
		g.data.Write(t)
	}
	return nil
}

// end reads an element's end tag.
func (g *graphMLReader) end(t xml.EndElement) (err error) {
	switch t.Name.Local {
	case "key":
		g.inKey = ""
	case "default":
		if g.inDefault {
			err = g.dataWeight("GraphML default of the weight key", &g.weightDef)
		}
		g.inDefault = false
	case "graph":
		g.depth--
	case "data":
		if g.inData && g.weightKey != "" && g.dataKey == g.weightKey {
			err = g.dataWeight("GraphML edge", &g.edgeW)
		}
		g.inData = false
	case "edge":
		if g.inEdge {
			err = g.rows.weight(g.edgeW, g.weightKey != "")
			g.edges++
			g.inEdge = false
		}
	}
	return err
}

// dataWeight parses the text of the <data> or <default> being closed as
// the weight *w; an error starts with what.
func (g *graphMLReader) dataWeight(what string, w *float64) error {
	v, err := parseWeight(strings.TrimSpace(g.data.String()))
	if err != nil {
		return g.fail("%s: %v", what, err)
	}
	*w = v
	return nil
}

// finish checks the document as a whole and completes the report.
func (g *graphMLReader) finish() error {
	if g.graphs == 0 {
		return &ParseError{Path: g.path, Msg: "GraphML: no <graph> element"}
	}
	if g.edges == 0 {
		return &ParseError{Path: g.path, Msg: "GraphML: the graph has no edges"}
	}
	switch {
	case g.weightKey != "":
		g.rep.Weight = fmt.Sprintf("edge key %q (attr.name %s)", g.weightKey, g.weightName)
	case g.noWeight:
		g.rep.Weight = "none (--weight none: every edge weighs 1)"
	case !strings.EqualFold(g.weightName, "weight"):
		return &ParseError{Path: g.path, Msg: fmt.Sprintf("GraphML: no edge key has attr.name %q (edge keys: %s)", g.weightName, strings.Join(g.keyNames, ", "))}
	}
	return nil
}

// gmlToken is a token of a GML file: a key, a number, a string, or '['
// or ']'.
type gmlToken struct {
	kind byte // 'k' key, 'n' number, 's' string, '[' or ']'
	text string
	line int
}

// gmlLexer splits a GML file (M. Himsolt, "GML: A portable Graph File
// Format") into tokens.
type gmlLexer struct {
	lr   *lineReader
	rest string
}

func (l *gmlLexer) next() (gmlToken, bool, error) {
	for {
		l.rest = strings.TrimLeft(l.rest, " \t\r")
		if l.rest == "" || l.rest[0] == '#' {
			if !l.lr.next() {
				return gmlToken{}, false, l.lr.err()
			}
			l.rest = l.lr.text
			if l.lr.line == 1 {
				l.rest = strings.TrimPrefix(l.rest, "\ufeff")
			}
			continue
		}
		s, line := l.rest, l.lr.line
		switch c := s[0]; {
		case c == '[' || c == ']':
			l.rest = s[1:]
			return gmlToken{kind: c, line: line}, true, nil
		case c == '"':
			k := strings.IndexByte(s[1:], '"')
			if k < 0 {
				return gmlToken{}, false, l.lr.errorf("GML: a string without its closing quote (strings span one line here)")
			}
			l.rest = s[k+2:]
			return gmlToken{kind: 's', text: gmlUnescape(s[1 : k+1]), line: line}, true, nil
		case c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9'):
			k := strings.IndexAny(s, " \t\r[]")
			if k < 0 {
				k = len(s)
			}
			l.rest = s[k:]
			return gmlToken{kind: 'n', text: s[:k], line: line}, true, nil
		case c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
			k := 1
			for k < len(s) && (s[k] == '_' || s[k]|0x20 >= 'a' && s[k]|0x20 <= 'z' || s[k] >= '0' && s[k] <= '9') {
				k++
			}
			l.rest = s[k:]
			return gmlToken{kind: 'k', text: s[:k], line: line}, true, nil
		default:
			return gmlToken{}, false, l.lr.errorf("GML: unexpected %q", s[:min(len(s), 20)])
		}
	}
}

// gmlUnescape decodes the character entities networkx writes in GML
// strings (&#34; for a quote, &amp; …), as html.unescape does for them.
func gmlUnescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		k := strings.IndexByte(s, '&')
		if k < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:k])
		s = s[k:]
		end := strings.IndexByte(s, ';')
		if end < 0 || end > 10 {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		ent := s[1:end]
		switch {
		case ent == "amp":
			b.WriteByte('&')
		case ent == "quot":
			b.WriteByte('"')
		case ent == "lt":
			b.WriteByte('<')
		case ent == "gt":
			b.WriteByte('>')
		case strings.HasPrefix(ent, "#"):
			base, digits := 10, ent[1:]
			if strings.HasPrefix(digits, "x") || strings.HasPrefix(digits, "X") {
				base, digits = 16, digits[1:]
			}
			v, err := strconv.ParseUint(digits, base, 32)
			if err != nil || v > 0x10ffff {
				b.WriteString(s[:end+1])
			} else {
				b.WriteRune(rune(v))
			}
		default:
			b.WriteString(s[:end+1])
		}
		s = s[end+1:]
	}
	return b.String()
}

// readGML reads a GML file as networkx's write_gml writes it:
//
//	graph [ directed 0  node [ id 0 label "a" ]  edge [ source 0 target 1 weight 2.5 ] ]
//
// A node is named by its label, as networkx's read_gml does (by its id when
// it has no label); an edge's source and target are node ids declared
// above it; its weight is the value of the key weightName ("" means
// "weight", "none" ignores it), 1 without one. Other keys and lists are
// skipped.
func readGML(lr *lineReader, weightName string, rows edgeRows, addNode nodeAdder) (TableReport, error) {
	g := &gmlReader{lx: &gmlLexer{lr: lr}, names: make(map[string]string),
		graphDoc: newGraphDoc(lr.path, formatGML, weightName, "none (no edge has a weight key: every edge weighs 1)", rows, addNode)}
	for {
		t, ok, err := g.lx.next()
		if err != nil {
			return g.rep, err
		}
		if !ok {
			break
		}
		if err := g.topLevel(t); err != nil {
			return g.rep, err
		}
	}
	if g.graphs == 0 {
		return g.rep, &ParseError{Path: g.path, Msg: "GML: no graph [ … ] list"}
	}
	if g.edges == 0 {
		return g.rep, &ParseError{Path: g.path, Msg: "GML: the graph has no edges"}
	}
	if g.weighted {
		g.rep.Weight = fmt.Sprintf("the edges' %s key (1 where absent)", g.weightName)
	} else if g.noWeight {
		g.rep.Weight = "none (--weight none: every edge weighs 1)"
	}
	g.rep.ID = "each node's label (its id without one), as networkx's read_gml"
	return g.rep, nil
}

// gmlReader is the state of readGML.
type gmlReader struct {
	graphDoc
	lx       *gmlLexer
	names    map[string]string // GML node id → the user's id (label)
	edges    int
	graphs   int
	weighted bool
}

func (g *gmlReader) errAt(line int, format string, args ...any) error {
	return &ParseError{Path: g.path, Line: line, Msg: "GML: " + fmt.Sprintf(format, args...)}
}

// next returns the next token, which must exist.
func (g *gmlReader) next() (gmlToken, error) {
	t, ok, err := g.lx.next()
	if err != nil {
		return t, err
	}
	if !ok {
		return t, &ParseError{Path: g.path, Line: g.lx.lr.line, Msg: "GML: the file ends inside a list (a ] is missing)"}
	}
	return t, nil
}

// skip skips a value: a scalar or a whole list.
func (g *gmlReader) skip(t gmlToken) error {
	if t.kind != '[' {
		if t.kind == ']' || t.kind == 'k' {
			return g.errAt(t.line, "want a value, got %q", t.text+string(t.kind))
		}
		return nil
	}
	depth := 1
	for depth > 0 {
		t, err := g.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case '[':
			if depth++; depth > 64 {
				return g.errAt(t.line, "lists nested more than 64 deep")
			}
		case ']':
			depth--
		}
	}
	return nil
}

// list reads the key-value pairs of a list whose '[' was read, calling fn
// with each key and its value token (a '[' value is skipped by fn).
func (g *gmlReader) list(fn func(key, val gmlToken) error) error {
	for {
		k, err := g.next()
		if err != nil {
			return err
		}
		if k.kind == ']' {
			return nil
		}
		if k.kind != 'k' {
			return g.errAt(k.line, "want a key, got %q", k.text)
		}
		v, err := g.next()
		if err != nil {
			return err
		}
		if err := fn(k, v); err != nil {
			return err
		}
	}
}

// topLevel reads a top-level key t and its value: the graph list is read,
// any other value skipped.
func (g *gmlReader) topLevel(t gmlToken) error {
	if t.kind != 'k' {
		return g.errAt(t.line, "want a key such as graph, got %q", t.text+string(t.kind))
	}
	v, err := g.next()
	if err != nil {
		return err
	}
	if t.text != "graph" || v.kind != '[' {
		return g.skip(v)
	}
	if g.graphs++; g.graphs > 1 {
		return g.errAt(t.line, "a second graph; give one graph per file")
	}
	return g.list(g.graphEntry)
}

// graphEntry reads a key-value pair of the graph list.
func (g *gmlReader) graphEntry(k, v gmlToken) error {
	switch {
	case k.text == "directed" && v.kind == 'n' && v.text == "1":
		g.rep.Note = "directed 1: each edge is an arc, made undirected as --directed says"
	case k.text == "node" && v.kind == '[':
		return g.node(k.line)
	case k.text == "edge" && v.kind == '[':
		return g.edge(k.line)
	}
	return g.skip(v)
}

// scalars reads the pairs of a node or edge list whose '[' was read and
// returns the last scalar value of the keys slot places (slot(key) ≥ 0 is
// its index in the result; −1 and list values are skipped).
func (g *gmlReader) scalars(slot func(key string) int) (v [3]string, err error) {
	err = g.list(func(k, val gmlToken) error {
		if i := slot(k.text); i >= 0 && val.kind != '[' {
			v[i] = val.text
		}
		return g.skip(val)
	})
	return v, err
}

// node reads a node list whose key is on line.
func (g *gmlReader) node(line int) error {
	v, err := g.scalars(func(key string) int {
		switch key {
		case "id":
			return 0
		case "label":
			return 1
		}
		return -1
	})
	if err != nil {
		return err
	}
	id, label := v[0], v[1]
	if id == "" {
		return g.errAt(line, "a node without an id")
	}
	if _, dup := g.names[id]; dup {
		return g.errAt(line, "node id %s is declared twice", id)
	}
	if label == "" {
		label = id
	}
	g.names[id] = label
	return g.addNode(line, label)
}

// edge reads an edge list whose key is on line.
func (g *gmlReader) edge(line int) error {
	v, err := g.scalars(func(key string) int {
		switch {
		case key == "source":
			return 0
		case key == "target":
			return 1
		case !g.noWeight && strings.EqualFold(key, g.weightName):
			return 2
		}
		return -1
	})
	if err != nil {
		return err
	}
	src, dst, wtext := v[0], v[1], v[2]
	for k, id := range [2]string{src, dst} {
		if id == "" {
			return g.errAt(line, "an edge without a %s", [2]string{"source", "target"}[k])
		}
		name, ok := g.names[id]
		if !ok {
			return g.errAt(line, "edge names node id %s, which no node above declares", id)
		}
		if err := g.rows.id(k, line, name); err != nil {
			return err
		}
	}
	w := 1.0
	if wtext != "" {
		if w, err = parseWeight(wtext); err != nil {
			return g.errAt(line, "%v", err)
		}
		g.weighted = true
	}
	g.edges++
	return g.rows.weight(w, g.weighted)
}

// readAdjList reads networkx's adjacency lists, the fields separated by
// white space: write_adjlist's "u v1 v2 …" lines (an edge from u to each
// v, a line of u alone a node), or, multiline, write_multiline_adjlist's
// "u d" line followed by d lines "v {attributes}" whose 'weight' is the
// edge's weight. '#' starts a comment.
func readAdjList(lr *lineReader, multiline bool, rows edgeRows, addNode nodeAdder) (TableReport, error) {
	rep := TableReport{Path: lr.path, Role: "edges", Format: string(formatAdjList), Delimiter: "white space",
		Source: "the first node of each line", Target: "the other nodes of the line", Weight: "none (every edge weighs 1)"}
	if multiline {
		rep.Format = string(formatMultiAdjList)
		rep.Source, rep.Target = `the node of each "node degree" line`, "the node of each of the degree lines that follow"
		rep.Weight = "the 'weight' of each neighbour's attribute dictionary (1 without one)"
	}
	a := &adjListReader{t: newTable(lr, TableOptions{Header: HeaderNo, Delimiter: ' '}, "#"), path: lr.path, rows: rows, addNode: addNode}
	for {
		f, line, ok, err := a.t.row()
		if err != nil {
			return rep, err
		}
		if !ok {
			break
		}
		if multiline {
			err = a.multiLine(f, line)
		} else {
			err = a.line(f, line)
		}
		if err != nil {
			return rep, err
		}
	}
	if a.edges == 0 {
		return rep, lr.fileErrorf("adjacency list without edges")
	}
	return rep, nil
}

// adjListReader is the state of readAdjList.
type adjListReader struct {
	t        *table
	path     string
	rows     edgeRows
	addNode  nodeAdder
	edges    int
	weighted bool
}

// edge hands over the edge (u, v) of weight w read on line.
func (a *adjListReader) edge(line int, u, v string, w float64) error {
	if err := a.rows.id(0, line, u); err != nil {
		return err
	}
	if err := a.rows.id(1, line, v); err != nil {
		return err
	}
	if err := a.rows.weight(w, a.weighted); err != nil {
		return err
	}
	a.edges++
	return nil
}

// line reads a write_adjlist line "u v1 v2 …".
func (a *adjListReader) line(f []string, line int) error {
	if err := a.addNode(line, f[0]); err != nil {
		return err
	}
	for _, v := range f[1:] {
		if err := a.edge(line, f[0], v, 1); err != nil {
			return err
		}
	}
	return nil
}

// multiLine reads a write_multiline_adjlist "u d" line and the d lines
// that follow it.
func (a *adjListReader) multiLine(f []string, line int) error {
	if len(f) != 2 {
		return &ParseError{Path: a.path, Line: line, Msg: fmt.Sprintf(`multiline adjacency list: want "node degree", got %d fields`, len(f))}
	}
	u := f[0]
	d, err := strconv.Atoi(f[1])
	if err != nil || d < 0 {
		return &ParseError{Path: a.path, Line: line, Msg: fmt.Sprintf(`multiline adjacency list: want "node degree", got degree %q`, f[1])}
	}
	if err := a.addNode(line, u); err != nil {
		return err
	}
	for k := 0; k < d; k++ {
		g, gl, ok, err := a.t.row()
		if err != nil {
			return err
		}
		if !ok {
			return &ParseError{Path: a.path, Line: line, Msg: fmt.Sprintf("multiline adjacency list: node %q has degree %d but the file ends after %d of its lines", u, d, k)}
		}
		if len(g) > 2 {
			return &ParseError{Path: a.path, Line: gl, Msg: fmt.Sprintf(`multiline adjacency list: want "neighbour {attributes}", got %d fields`, len(g))}
		}
		w := 1.0
		if len(g) == 2 {
			if w, err = dictWeight(g[1]); err != nil {
				return &ParseError{Path: a.path, Line: gl, Msg: err.Error()}
			}
			a.weighted = a.weighted || w != 1
		}
		if err := a.edge(gl, u, g[0], w); err != nil {
			return err
		}
	}
	return nil
}

// networkxAdjHeader reports whether head starts with the comment lines
// networkx's write_adjlist and write_multiline_adjlist write ("#" and the
// command line, "# GMT " and the time, "# " and the graph's name), and
// whether the lists are multiline: a data line in head holds an attribute
// dictionary, which only write_multiline_adjlist writes.
func networkxAdjHeader(head []byte) (adj, multiline bool) {
	lines := bytes.SplitN(head, []byte("\n"), 4)
	if len(lines) < 3 || !bytes.HasPrefix(lines[0], []byte("#")) || !bytes.HasPrefix(lines[1], []byte("# GMT ")) {
		return false, false
	}
	for _, l := range bytes.Split(head, []byte("\n")) {
		if len(l) > 0 && l[0] != '#' && bytes.IndexByte(l, '{') >= 0 {
			return true, true
		}
	}
	return true, false
}
