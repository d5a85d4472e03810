package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// maxValueLen is the longest value FieldsTable shows in full; longer ones
// (long arrays) are cut with an ellipsis: the full object is the command's
// --json output.
const maxValueLen = 240

// FieldsTable returns a two-column table (field, value) of the JSON object
// v marshals to, fields in their order; strings are shown unquoted, other
// values as compact JSON.
func FieldsTable(caption string, v any) (Table, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Table{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	t := Table{Caption: caption, Header: []string{"field", "value"}}
	tok, err := dec.Token()
	if err != nil {
		return Table{}, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return Table{}, fmt.Errorf("htmlreport: %T is not a JSON object", v)
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return Table{}, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return Table{}, err
		}
		s := string(raw)
		var str string
		if json.Unmarshal(raw, &str) == nil {
			s = str
		}
		if r := []rune(s); len(r) > maxValueLen {
			s = string(r[:maxValueLen]) + "…"
		}
		t.Rows = append(t.Rows, []string{fmt.Sprint(key), strings.TrimSpace(s)})
	}
	return t, nil
}
