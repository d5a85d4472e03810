package loaders

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gssl/gssl/internal/inputfile"
)

// TableReport says how one input file was read: what its content was
// recognised as, how its header was decided and which columns were used, so
// that a user can see that the reader took the file as meant. LoadNodes
// gives one per file (NodeDataset.Reports); the command line prints them
// on stderr and in --json.
type TableReport struct {
	// Path is the file as the caller named it; Role what it was given as
	// ("edges", "labels", "targets", "features").
	Path string `json:"path"`
	Role string `json:"role"`
	// Format is what the content was recognised as: "edge-table",
	// "integer-edge-list", "matrix-market", "scipy-sparse", "gssl-graph",
	// "graphml", "gml", "adjlist", "multiline-adjlist", "edge-index",
	// "table", "npy", "npz", "sparse-text" or "svmlight".
	Format string `json:"format"`
	// Header says whether a header line was taken and why; Delimiter is the
	// field separator of a text table.
	Header    string `json:"header,omitempty"`
	Delimiter string `json:"delimiter,omitempty"`
	// The columns used, each as `"name" (column k)` under a header and
	// `column k` without; empty when the role has no such column. Weight
	// may also say where weights come from in other formats.
	Source string `json:"source,omitempty"`
	Target string `json:"target,omitempty"`
	Weight string `json:"weight,omitempty"`
	ID     string `json:"id,omitempty"`
	Label  string `json:"label,omitempty"`
	// Ignored lists the columns read past (pandas' unnamed index column).
	Ignored []string `json:"ignored,omitempty"`
	// Note adds what else decided the reading (an array's layout).
	Note string `json:"note,omitempty"`
}

// String is the report on one line, as the command line prints it.
func (r TableReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s", r.Role, inputfile.Display(r.Path), r.Format)
	if r.Delimiter != "" {
		fmt.Fprintf(&b, ", %s-separated", r.Delimiter)
	}
	if r.Header != "" {
		fmt.Fprintf(&b, ", header: %s", r.Header)
	}
	for _, c := range [][2]string{{"source", r.Source}, {"target", r.Target}, {"weight", r.Weight}, {"id", r.ID}, {"label", r.Label}} {
		if c[1] != "" {
			fmt.Fprintf(&b, "; %s = %s", c[0], c[1])
		}
	}
	if len(r.Ignored) > 0 {
		fmt.Fprintf(&b, "; ignored %s", strings.Join(r.Ignored, ", "))
	}
	if r.Note != "" {
		fmt.Fprintf(&b, " (%s)", r.Note)
	}
	return b.String()
}

// JSONWithReports returns the JSON encoding of v with an "inputs" key
// holding reports, when v encodes as an object without one and there are
// reports; else nil.
func JSONWithReports(v any, reports []TableReport) []byte {
	b, err := json.Marshal(v)
	var keys map[string]json.RawMessage
	if len(reports) == 0 || err != nil || json.Unmarshal(b, &keys) != nil || keys == nil || keys["inputs"] != nil {
		return nil
	}
	in, err := json.Marshal(reports)
	if err != nil {
		return nil
	}
	body := bytes.TrimSuffix(b, []byte("}"))
	if len(keys) > 0 {
		body = append(body, ',')
	}
	return append(append(append(body, `"inputs":`...), in...), '}', '\n')
}
