package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/savedmodel"
	"github.com/gssl/gssl/serve"
)

// docExample is one request of docs/serve.md and the answer the page
// promises.
type docExample struct {
	model                string // the fitting command (<!-- model: ARGS -->) the example is answered by
	line                 int
	method, path         string
	reqHeader            http.Header
	reqBody              string
	status               int
	respHeader           http.Header
	respBody             string
	responseLine, reqEnd int
}

// readDocExamples reads the ```http blocks of a Markdown file in pairs: a
// request ("METHOD PATH", headers, blank line, body) then its response
// ("HTTP/1.1 STATUS …", headers, blank line, body).
func readDocExamples(t *testing.T, path string) []docExample {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var (
		blocks [][]string
		starts []int
		models []string
		model  string
		cur    []string
		in     bool
		line   int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line++
		s := sc.Text()
		switch {
		case !in && strings.HasPrefix(s, "<!-- model: "):
			model = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "<!-- model: "), "-->"))
		case !in && strings.TrimSpace(s) == "```http":
			in, cur = true, nil
			starts = append(starts, line)
			models = append(models, model)
		case in && strings.TrimSpace(s) == "```":
			in = false
			blocks = append(blocks, cur)
		case in:
			cur = append(cur, s)
		}
	}
	require.NoError(t, sc.Err())
	require.False(t, in, "%s: unterminated ```http block", path)
	require.Zero(t, len(blocks)%2, "%s: ```http blocks come in request/response pairs", path)
	split := func(b []string) (first string, hdr http.Header, body string) {
		hdr = http.Header{}
		first = b[0]
		i := 1
		for ; i < len(b) && b[i] != ""; i++ {
			k, v, ok := strings.Cut(b[i], ":")
			require.True(t, ok, "header line %q", b[i])
			hdr.Add(strings.TrimSpace(k), strings.TrimSpace(v))
		}
		if i < len(b) {
			body = strings.Join(b[i+1:], "\n")
		}
		return first, hdr, body
	}
	var out []docExample
	for k := 0; k < len(blocks); k += 2 {
		ex := docExample{model: models[k], line: starts[k], responseLine: starts[k+1]}
		require.NotEmpty(t, ex.model, "line %d: no <!-- model: ARGS --> before the example", starts[k])
		first, hdr, body := split(blocks[k])
		parts := strings.Fields(first)
		require.Len(t, parts, 2, "line %d: want METHOD PATH, got %q", starts[k], first)
		ex.method, ex.path, ex.reqHeader, ex.reqBody = parts[0], parts[1], hdr, body
		first, hdr, body = split(blocks[k+1])
		parts = strings.Fields(first)
		require.True(t, len(parts) >= 2 && strings.HasPrefix(parts[0], "HTTP/"), "line %d: want HTTP/1.1 STATUS, got %q", starts[k+1], first)
		ex.status, err = strconv.Atoi(parts[1])
		require.NoError(t, err)
		ex.respHeader, ex.respBody = hdr, body
		out = append(out, ex)
	}
	return out
}

// jsonMatch compares an answer with the page's: numbers to a relative
// 1e-9 (the page rounds nothing, but another platform's last bits may
// differ), the string "..." on the page matching any value.
func jsonMatch(want, got any, at string) error {
	if s, ok := want.(string); ok && s == "..." {
		return nil
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %v", at, got)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Errorf("%s.%s: in the answer, not on the page", at, k)
			}
		}
		for k, v := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s: on the page, not in the answer", at, k)
			}
			if err := jsonMatch(v, gv, at+"."+k); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: want %d items, got %v", at, len(w), got)
		}
		for i := range w {
			if err := jsonMatch(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		return nil
	case float64:
		g, ok := got.(float64)
		if !ok || math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
			return fmt.Errorf("%s: want %v, got %v", at, w, got)
		}
		return nil
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		return fmt.Errorf("%s: want %v, got %v", at, want, got)
	}
	return nil
}

// TestDocsServeExamples runs docs/serve.md: each <!-- model: ARGS -->
// comment is a gssl command (the one the page shows) run with --save, and
// every request after it is sent to a server for that model; the answers
// must be the page's.
func TestDocsServeExamples(t *testing.T) {
	doc := "docs/serve.md"
	t.Chdir("../..") // the page's paths are relative to the repository
	examples := readDocExamples(t, doc)
	require.GreaterOrEqual(t, len(examples), 5, "%s has too few examples", doc)
	handlers := map[string]http.Handler{}
	dir := t.TempDir()
	for _, ex := range examples {
		if handlers[ex.model] != nil {
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("m%d.gssl", len(handlers)))
		_, _, err := runRoot(t, append(strings.Fields(ex.model), "--save", path)...)
		require.NoError(t, err, "gssl %s", ex.model)
		s, err := savedmodel.Open(path)
		require.NoError(t, err)
		h, err := serve.NewHandler(s, serve.Config{MaxBatch: 100})
		require.NoError(t, err)
		handlers[ex.model] = h
	}
	for _, ex := range examples {
		r := httptest.NewRequest(ex.method, ex.path, strings.NewReader(ex.reqBody))
		r.Header = ex.reqHeader
		w := httptest.NewRecorder()
		handlers[ex.model].ServeHTTP(w, r)
		got := w.Body.String()
		where := fmt.Sprintf("%s:%d: %s %s", doc, ex.line, ex.method, ex.path)
		if w.Code != ex.status {
			t.Errorf("%s: status %d, the page says %d; answer:\n%s", where, w.Code, ex.status, got)
			continue
		}
		for k := range ex.respHeader {
			if g := w.Header().Get(k); g != ex.respHeader.Get(k) {
				t.Errorf("%s: header %s is %q, the page says %q", where, k, g, ex.respHeader.Get(k))
			}
		}
		if !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			if strings.TrimSpace(got) != strings.TrimSpace(ex.respBody) {
				t.Errorf("%s: answer %q, the page says %q", where, got, ex.respBody)
			}
			continue
		}
		var want, have any
		if err := json.Unmarshal([]byte(ex.respBody), &want); err != nil {
			t.Errorf("%s:%d: the page's answer is not JSON: %v", doc, ex.responseLine, err)
			continue
		}
		require.NoError(t, json.Unmarshal([]byte(got), &have))
		if err := jsonMatch(want, have, "answer"); err != nil {
			t.Errorf("%s: %v; the answer is:\n%s", where, err, got)
		}
	}
}
