package serve

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// checkStrictJSON refuses what encoding/json accepts silently: a key given
// twice in one object (the decoder keeps the last) and bytes that are not
// UTF-8 (the decoder turns them into U+FFFD). Both are 400s naming the
// field, e.g. "graphs[2].id". Syntax errors are left to the decoder, which
// names them with their offset.
func checkStrictJSON(body []byte) *httpError {
	validUTF8 := utf8.Valid(body)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	type frame struct {
		object    bool
		key       string // the current key (objects)
		index     int    // the current element (arrays)
		expectKey bool
		keys      map[string]struct{}
	}
	var stack []*frame
	path := func() string {
		var b []byte
		for _, f := range stack {
			if f.object {
				if f.expectKey {
					break // between fields: the object itself
				}
				if len(b) > 0 {
					b = append(b, '.')
				}
				b = append(b, f.key...)
			} else {
				b = append(b, '[')
				b = strconv.AppendInt(b, int64(f.index), 10)
				b = append(b, ']')
			}
		}
		return string(b)
	}
	// done advances the enclosing container past a value.
	done := func() {
		if len(stack) == 0 {
			return
		}
		if f := stack[len(stack)-1]; f.object {
			f.expectKey = true
		} else {
			f.index++
		}
	}
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil // end of input, or a syntax error the decoder reports
		}
		if !validUTF8 {
			if s, ok := tok.(string); ok && !utf8.Valid(body[before:dec.InputOffset()]) {
				if len(stack) > 0 && stack[len(stack)-1].object && stack[len(stack)-1].expectKey {
					return badRequest(path(), "invalid UTF-8 in the key %q: send text in UTF-8", s)
				}
				return badRequest(path(), "invalid UTF-8 in the string %q: send text in UTF-8", s)
			}
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{object: true, expectKey: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
				done()
			}
		case string:
			if top != nil && top.object && top.expectKey {
				if top.keys == nil {
					top.keys = make(map[string]struct{})
				}
				if _, dup := top.keys[t]; dup {
					top.key, top.expectKey = t, false
					return badRequest(path(), "duplicate key %q: give each field once", t)
				}
				top.keys[t] = struct{}{}
				top.key, top.expectKey = t, false
				continue
			}
			done()
		default:
			done()
		}
	}
}
