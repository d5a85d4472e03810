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
	s := strictScan{body: body, validUTF8: utf8.Valid(body)}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '{':
			s.stack = append(s.stack, &jsonFrame{object: true, expectKey: true})
		case '[':
			s.stack = append(s.stack, &jsonFrame{})
		case '}', ']':
			if len(s.stack) == 0 {
				return nil // a syntax error
			}
			s.stack = s.stack[:len(s.stack)-1]
		case ',':
			if f := s.top(); f != nil {
				if f.object {
					f.expectKey = true
				} else {
					f.index++
				}
			}
		case '"':
			end, stop, herr := s.str(i)
			if stop {
				return herr
			}
			i = end
		}
	}
	return nil
}

// jsonFrame is an object or array that checkStrictJSON is inside.
type jsonFrame struct {
	object    bool
	expectKey bool   // objects: the next string is a key
	key       string // objects: the current key
	index     int    // arrays: the current element
	keys      []string
	keySet    map[string]struct{} // once keys grows past smallObject
}

// smallObject is the number of keys an object's frame compares one by one
// before it keeps them in a set.
const smallObject = 8

// seen records the case-folded key and reports whether the object had it
// already.
func (f *jsonFrame) seen(folded string) bool {
	dup := false
	if f.keySet != nil {
		_, dup = f.keySet[folded]
		f.keySet[folded] = struct{}{}
		return dup
	}
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
	return dup
}

// strictScan is checkStrictJSON's pass over body: the objects and arrays it
// is inside.
type strictScan struct {
	body      []byte
	stack     []*jsonFrame
	validUTF8 bool
}

// path names where the scan is, e.g. "graphs[2].id".
func (s *strictScan) path() string {
	var b []byte
	for _, f := range s.stack {
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

func (s *strictScan) top() *jsonFrame {
	if len(s.stack) == 0 {
		return nil
	}
	return s.stack[len(s.stack)-1]
}

// str checks the string whose opening quote is body[i]: its bytes are
// UTF-8 and, when it is a key, the key is new to its object. It returns
// the index of the closing quote, or stop with the error to answer (nil
// for a syntax error, left to the decoder).
func (s *strictScan) str(i int) (end int, stop bool, herr *httpError) {
	body := s.body
	start := i + 1
	escaped := false
	for i = start; i < len(body) && body[i] != '"'; i++ {
		if body[i] == '\\' {
			escaped = true
			i++
		}
	}
	if i >= len(body) {
		return i, true, nil // an unterminated string: a syntax error
	}
	raw := body[start:i]
	f := s.top()
	isKey := f != nil && f.object && f.expectKey
	if !s.validUTF8 && !utf8.Valid(raw) {
		what := "string"
		if isKey {
			what = "key"
		}
		return i, true, badRequest(s.path(), "invalid UTF-8 in the %s %q: send text in UTF-8", what, strings.ToValidUTF8(string(raw), "\uFFFD"))
	}
	if !isKey {
		return i, false, nil
	}
	key := string(raw)
	if escaped {
		if err := json.Unmarshal(body[start-1:i+1], &key); err != nil {
			return i, true, nil // a malformed escape: a syntax error
		}
	}
	f.key, f.expectKey = key, false
	if f.seen(strings.ToLower(key)) {
		return i, true, badRequest(s.path(), "duplicate key %q: give each field once", key)
	}
	return i, false, nil
}
