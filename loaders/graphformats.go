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

// readGraphML reads a GraphML document (graphml.graphdrawing.org) as
// networkx's write_graphml writes it: <key> declarations, one <graph>
// whose <node id> and <edge source target> elements give the nodes and
// edges, an edge's weight in the <data> of the edge key whose attr.name is
// weightName ("" means "weight"; "none" ignores weights), or that key's
// <default>. Nested graphs, hyperedges and ports are refused.
func readGraphML(r io.Reader, path, weightName string, rows edgeRows, addNode nodeAdder) (TableReport, error) {
	rep := TableReport{Path: path, Role: "edges", Format: string(formatGraphML), Weight: "none (no edge key named weight: every edge weighs 1)"}
	noWeight := strings.EqualFold(weightName, "none")
	if weightName == "" {
		weightName = "weight"
	}
	d := xml.NewDecoder(r)
	d.Strict = true
	fail := func(format string, args ...any) error {
		return &ParseError{Path: path, Line: xmlLine(d), Msg: fmt.Sprintf(format, args...)}
	}
	var (
		weightKey string
		weightDef = 1.0
		inKey     string // the key whose <default> is being read
		graphs    int
		depth     int // graph nesting
		inEdge    bool
		edgeLine  int
		edgeW     float64
		inData    bool
		data      strings.Builder
		dataKey   string
		edges     int
		keyNames  []string
		inDefault bool
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return rep, &ParseError{Path: path, Line: se.Line, Msg: "GraphML: " + se.Msg}
			}
			return rep, &ParseError{Path: path, Line: xmlLine(d), Msg: "GraphML", Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			attr := func(name string) (string, bool) {
				for _, a := range t.Attr {
					if a.Name.Local == name {
						return a.Value, true
					}
				}
				return "", false
			}
			switch t.Name.Local {
			case "graphml":
			case "key":
				id, _ := attr("id")
				name, _ := attr("attr.name")
				target, _ := attr("for")
				if target == "edge" || target == "all" {
					keyNames = append(keyNames, name)
					if !noWeight && strings.EqualFold(name, weightName) && weightKey == "" {
						weightKey = id
						if typ, _ := attr("attr.type"); typ != "" && typ != "double" && typ != "float" && typ != "int" && typ != "long" {
							return rep, fail("GraphML edge key %q (attr.name %s) has attr.type %s: a weight is a number", id, name, typ)
						}
						inKey = id
					}
				}
			case "default":
				inDefault = inKey != ""
				data.Reset()
			case "graph":
				if depth > 0 || inEdge {
					return rep, fail("GraphML: a graph nested in a node is not supported")
				}
				graphs++
				if graphs > 1 {
					return rep, fail("GraphML: a second <graph>; give one graph per file")
				}
				depth++
				if ed, _ := attr("edgedefault"); ed == "directed" {
					rep.Note = "edgedefault directed: each edge is an arc, made undirected as --directed says"
				}
			case "node":
				if depth == 0 {
					return rep, fail("GraphML: <node> outside a <graph>")
				}
				id, ok := attr("id")
				if !ok || id == "" {
					return rep, fail("GraphML: <node> without an id")
				}
				if err := addNode(xmlLine(d), id); err != nil {
					return rep, err
				}
			case "edge":
				if depth == 0 {
					return rep, fail("GraphML: <edge> outside a <graph>")
				}
				if inEdge {
					return rep, fail("GraphML: an <edge> inside an <edge>")
				}
				s, ok1 := attr("source")
				tg, ok2 := attr("target")
				if !ok1 || !ok2 || s == "" || tg == "" {
					return rep, fail("GraphML: <edge> needs a source and a target")
				}
				if _, ok := attr("sourceport"); ok {
					return rep, fail("GraphML: ports are not supported")
				}
				edgeLine = xmlLine(d)
				if err := rows.id(0, edgeLine, s); err != nil {
					return rep, err
				}
				if err := rows.id(1, edgeLine, tg); err != nil {
					return rep, err
				}
				inEdge, edgeW = true, weightDef
				_ = edgeLine
			case "data":
				if inEdge {
					k, _ := attr("key")
					inData, dataKey = true, k
					data.Reset()
				}
			case "hyperedge", "port":
				return rep, fail("GraphML: <%s> is not supported", t.Name.Local)
			}
		case xml.CharData:
			if inData || inDefault {
				if data.Len()+len(t) > 1<<10 {
					return rep, fail("GraphML: a <data> value longer than %d bytes", 1<<10)
				}
				data.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "key":
				inKey = ""
			case "default":
				if inDefault {
					w, err := parseWeight(strings.TrimSpace(data.String()))
					if err != nil {
						return rep, fail("GraphML default of the weight key: %v", err)
					}
					weightDef = w
				}
				inDefault = false
			case "graph":
				depth--
			case "data":
				if inData && weightKey != "" && dataKey == weightKey {
					w, err := parseWeight(strings.TrimSpace(data.String()))
					if err != nil {
						return rep, fail("GraphML edge: %v", err)
					}
					edgeW = w
				}
				inData = false
			case "edge":
				if inEdge {
					if err := rows.weight(edgeW, weightKey != ""); err != nil {
						return rep, err
					}
					edges++
					inEdge = false
				}
			}
		}
	}
	if graphs == 0 {
		return rep, &ParseError{Path: path, Msg: "GraphML: no <graph> element"}
	}
	if edges == 0 {
		return rep, &ParseError{Path: path, Msg: "GraphML: the graph has no edges"}
	}
	switch {
	case weightKey != "":
		rep.Weight = fmt.Sprintf("edge key %q (attr.name %s)", weightKey, weightName)
	case noWeight:
		rep.Weight = "none (--weight none: every edge weighs 1)"
	case !strings.EqualFold(weightName, "weight"):
		return rep, &ParseError{Path: path, Msg: fmt.Sprintf("GraphML: no edge key has attr.name %q (edge keys: %s)", weightName, strings.Join(keyNames, ", "))}
	}
	return rep, nil
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
	path := lr.path
	rep := TableReport{Path: path, Role: "edges", Format: string(formatGML), Weight: "none (no edge has a weight key: every edge weighs 1)"}
	noWeight := strings.EqualFold(weightName, "none")
	if weightName == "" {
		weightName = "weight"
	}
	lx := &gmlLexer{lr: lr}
	errAt := func(line int, format string, args ...any) error {
		return &ParseError{Path: path, Line: line, Msg: "GML: " + fmt.Sprintf(format, args...)}
	}
	next := func() (gmlToken, error) {
		t, ok, err := lx.next()
		if err != nil {
			return t, err
		}
		if !ok {
			return t, &ParseError{Path: path, Line: lr.line, Msg: "GML: the file ends inside a list (a ] is missing)"}
		}
		return t, nil
	}
	// skip skips a value: a scalar or a whole list.
	skip := func(t gmlToken) error {
		if t.kind != '[' {
			if t.kind == ']' || t.kind == 'k' {
				return errAt(t.line, "want a value, got %q", t.text+string(t.kind))
			}
			return nil
		}
		depth := 1
		for depth > 0 {
			t, err := next()
			if err != nil {
				return err
			}
			switch t.kind {
			case '[':
				if depth++; depth > 64 {
					return errAt(t.line, "lists nested more than 64 deep")
				}
			case ']':
				depth--
			}
		}
		return nil
	}
	// list reads the key-value pairs of a list whose '[' was read, calling
	// fn with each key and its value token (a '[' value is skipped by fn).
	list := func(fn func(key, val gmlToken) error) error {
		for {
			k, err := next()
			if err != nil {
				return err
			}
			if k.kind == ']' {
				return nil
			}
			if k.kind != 'k' {
				return errAt(k.line, "want a key, got %q", k.text)
			}
			v, err := next()
			if err != nil {
				return err
			}
			if err := fn(k, v); err != nil {
				return err
			}
		}
	}
	names := make(map[string]string) // GML node id → the user's id (label)
	edges, graphs := 0, 0
	weighted := false
	for {
		t, ok, err := lx.next()
		if err != nil {
			return rep, err
		}
		if !ok {
			break
		}
		if t.kind != 'k' {
			return rep, errAt(t.line, "want a key such as graph, got %q", t.text+string(t.kind))
		}
		v, err := next()
		if err != nil {
			return rep, err
		}
		if t.text != "graph" || v.kind != '[' {
			if err := skip(v); err != nil {
				return rep, err
			}
			continue
		}
		if graphs++; graphs > 1 {
			return rep, errAt(t.line, "a second graph; give one graph per file")
		}
		if err := list(func(k, v gmlToken) error {
			switch {
			case k.text == "directed" && v.kind == 'n' && v.text == "1":
				rep.Note = "directed 1: each edge is an arc, made undirected as --directed says"
			case k.text == "node" && v.kind == '[':
				var id, label string
				line := k.line
				if err := list(func(k, v gmlToken) error {
					switch {
					case k.text == "id" && v.kind != '[':
						id = v.text
					case k.text == "label" && v.kind != '[':
						label = v.text
					}
					return skip(v)
				}); err != nil {
					return err
				}
				if id == "" {
					return errAt(line, "a node without an id")
				}
				if _, dup := names[id]; dup {
					return errAt(line, "node id %s is declared twice", id)
				}
				if label == "" {
					label = id
				}
				names[id] = label
				return addNode(line, label)
			case k.text == "edge" && v.kind == '[':
				var src, dst, wtext string
				line := k.line
				if err := list(func(k, v gmlToken) error {
					switch {
					case k.text == "source" && v.kind != '[':
						src = v.text
					case k.text == "target" && v.kind != '[':
						dst = v.text
					case !noWeight && strings.EqualFold(k.text, weightName) && v.kind != '[':
						wtext = v.text
					}
					return skip(v)
				}); err != nil {
					return err
				}
				for k, id := range [2]string{src, dst} {
					if id == "" {
						return errAt(line, "an edge without a %s", [2]string{"source", "target"}[k])
					}
					name, ok := names[id]
					if !ok {
						return errAt(line, "edge names node id %s, which no node above declares", id)
					}
					if err := rows.id(k, line, name); err != nil {
						return err
					}
				}
				w := 1.0
				if wtext != "" {
					var err error
					if w, err = parseWeight(wtext); err != nil {
						return errAt(line, "%v", err)
					}
					weighted = true
				}
				edges++
				return rows.weight(w, weighted)
			}
			return skip(v)
		}); err != nil {
			return rep, err
		}
	}
	if graphs == 0 {
		return rep, &ParseError{Path: path, Msg: "GML: no graph [ … ] list"}
	}
	if edges == 0 {
		return rep, &ParseError{Path: path, Msg: "GML: the graph has no edges"}
	}
	if weighted {
		rep.Weight = fmt.Sprintf("the edges' %s key (1 where absent)", weightName)
	} else if noWeight {
		rep.Weight = "none (--weight none: every edge weighs 1)"
	}
	rep.ID = "each node's label (its id without one), as networkx's read_gml"
	return rep, nil
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
	t := newTable(lr, TableOptions{Header: HeaderNo, Delimiter: ' '}, "#")
	edges, weighted := 0, false
	for {
		f, line, ok, err := t.row()
		if err != nil {
			return rep, err
		}
		if !ok {
			break
		}
		if !multiline {
			if err := addNode(line, f[0]); err != nil {
				return rep, err
			}
			for _, v := range f[1:] {
				if err := rows.id(0, line, f[0]); err != nil {
					return rep, err
				}
				if err := rows.id(1, line, v); err != nil {
					return rep, err
				}
				if err := rows.weight(1, false); err != nil {
					return rep, err
				}
				edges++
			}
			continue
		}
		if len(f) != 2 {
			return rep, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf(`multiline adjacency list: want "node degree", got %d fields`, len(f))}
		}
		u := f[0]
		d, err := strconv.Atoi(f[1])
		if err != nil || d < 0 {
			return rep, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf(`multiline adjacency list: want "node degree", got degree %q`, f[1])}
		}
		if err := addNode(line, u); err != nil {
			return rep, err
		}
		for k := 0; k < d; k++ {
			g, gl, ok, err := t.row()
			if err != nil {
				return rep, err
			}
			if !ok {
				return rep, &ParseError{Path: lr.path, Line: line, Msg: fmt.Sprintf("multiline adjacency list: node %q has degree %d but the file ends after %d of its lines", u, d, k)}
			}
			if len(g) > 2 {
				return rep, &ParseError{Path: lr.path, Line: gl, Msg: fmt.Sprintf(`multiline adjacency list: want "neighbour {attributes}", got %d fields`, len(g))}
			}
			w := 1.0
			if len(g) == 2 {
				if w, err = dictWeight(g[1]); err != nil {
					return rep, &ParseError{Path: lr.path, Line: gl, Msg: err.Error()}
				}
				weighted = weighted || w != 1
			}
			if err := rows.id(0, gl, u); err != nil {
				return rep, err
			}
			if err := rows.id(1, gl, g[0]); err != nil {
				return rep, err
			}
			if err := rows.weight(w, weighted); err != nil {
				return rep, err
			}
			edges++
		}
	}
	if edges == 0 {
		return rep, lr.fileErrorf("adjacency list without edges")
	}
	return rep, nil
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
