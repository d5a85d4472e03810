package serve

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkStrictJSON refuses what encoding/json accepts silently: a key given
// twice in one object (the decoder keeps the last; keys are compared
// without regard to case, as the decoder matches them to fields) and bytes
// that are not UTF-8 (the decoder turns them into U+FFFD). Both are 400s
// naming the field, e.g. "graphs[2].id". It is one linear pass over the
// bytes; syntax errors are left to the decoder, which names them with
// their offset.
func checkStrictJSON(body []byte) *httpError {
	type frame struct {
		object    bool
		expectKey bool   // objects: the next string is a key
		key       string // objects: the current key
		index     int    // arrays: the current element
		keys      []string
		keySet    map[string]struct{} // once keys grows past smallObject
	}
	const smallObject = 8
	var stack []*frame
	path := func() string {
		var b []byte
		for _, f := range stack {
			switch {
			case f.object && f.expectKey: // between fields: the object itself
			case f.object:
				if len(b) > 0 {
					b = append(b, '.')
				}
				b = append(b, f.key...)
			default:
				b = append(b, '[')
				b = strconv.AppendInt(b, int64(f.index), 10)
				b = append(b, ']')
			}
		}
		return string(b)
	}
	top := func() *frame {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1]
	}
	validUTF8 := utf8.Valid(body)
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '{':
			stack = append(stack, &frame{object: true, expectKey: true})
		case '[':
			stack = append(stack, &frame{})
		case '}', ']':
			if len(stack) == 0 {
				return nil // a syntax error
			}
			stack = stack[:len(stack)-1]
		case ',':
			if f := top(); f != nil {
				if f.object {
					f.expectKey = true
				} else {
					f.index++
				}
			}
		case '"':
			start := i + 1
			escaped := false
			for i = start; i < len(body) && body[i] != '"'; i++ {
				if body[i] == '\\' {
					escaped = true
					i++
				}
			}
			if i >= len(body) {
				return nil // an unterminated string: a syntax error
			}
			raw := body[start:i]
			f := top()
			isKey := f != nil && f.object && f.expectKey
			if !validUTF8 && !utf8.Valid(raw) {
				what := "string"
				if isKey {
					what = "key"
				}
				return badRequest(path(), "invalid UTF-8 in the %s %q: send text in UTF-8", what, strings.ToValidUTF8(string(raw), "\uFFFD"))
			}
			if !isKey {
				continue
			}
			key := string(raw)
			if escaped {
				if err := json.Unmarshal(body[start-1:i+1], &key); err != nil {
					return nil // a malformed escape: a syntax error
				}
			}
			f.key, f.expectKey = key, false
			folded := strings.ToLower(key)
			dup := false
			if f.keySet != nil {
				_, dup = f.keySet[folded]
				f.keySet[folded] = struct{}{}
			} else {
				for _, k := range f.keys {
					dup = dup || k == folded
				}
				f.keys = append(f.keys, folded)
				if len(f.keys) > smallObject {
					f.keySet = make(map[string]struct{}, 2*len(f.keys))
					for _, k := range f.keys {
						f.keySet[k] = struct{}{}
					}
					f.keys = nil
				}
			}
			if dup {
				return badRequest(path(), "duplicate key %q: give each field once", key)
			}
		}
	}
	return nil
}
