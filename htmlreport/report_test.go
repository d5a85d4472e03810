package htmlreport

import (
	"bytes"
	"encoding/base64"
	stdhtml "html"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func tinyPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	require.NoError(t, png.Encode(&b, img))
	return b.Bytes()
}

// refAttr finds the attributes that load or link a resource.
var refAttr = regexp.MustCompile(`(?i)\b(?:src|href|action|srcset)\s*=\s*"([^"]*)"`)

func TestWrite(t *testing.T) {
	pic := tinyPNG(t)
	res := struct {
		Data     string    `json:"data"`
		Accuracy float64   `json:"accuracy"`
		Grid     []float64 `json:"grid"`
	}{"<cora> & co", 0.8125, []float64{0.5, 0.9}}
	fields, err := FieldsTable("result", res)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"data", "<cora> & co"}, {"accuracy", "0.8125"}, {"grid", "[0.5,0.9]"}}, fields.Rows)
	r := &Report{
		Title:   "gssl labelprop",
		Command: []string{"gssl", "labelprop", "--report", "out dir", "--x=it's"},
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Seeds:   "seed 7",
		Timings: []Timing{{"fit", 1.25}},
		Notes:   []string{"a <note>"},
		Figures: []Figure{{Caption: "confusion matrix", PNG: pic}},
		Tables:  []Table{fields, {Caption: "per class", Header: []string{"class", "accuracy"}, Rows: [][]string{{"Theory", "0.75"}}}},
	}
	dir := filepath.Join(t.TempDir(), "rep")
	require.NoError(t, r.Write(dir))
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	html := string(b)
	for _, want := range []string{
		"<title>gssl labelprop</title>",
		`gssl labelprop --report &#39;out dir&#39; &#39;--x=it&#39;\&#39;&#39;s&#39;`,
		"2026-01-02T03:04:05Z", "seed 7", "1.250 s",
		"&lt;cora&gt; &amp; co", "a &lt;note&gt;",
		"<caption>per class</caption>", "<th>class</th>", "<td>Theory</td>",
		`<figcaption>confusion matrix</figcaption>`,
		"<td>go</td>",
	} {
		require.Contains(t, html, want)
	}
	require.NotContains(t, html, "<script")
	require.NotContains(t, html, "http:")
	require.NotContains(t, html, "https:")
	for _, m := range refAttr.FindAllStringSubmatch(html, -1) {
		require.True(t, strings.HasPrefix(m[1], "data:image/png;base64,"), "a reference out of the page: %.60s", m[0])
	}
	require.NotContains(t, html, "url(")
	// The figure is the PNG, byte for byte.
	m := regexp.MustCompile(`src="data:image/png;base64,([^"]+)"`).FindStringSubmatch(html)
	require.Len(t, m, 2)
	got, err := base64.StdEncoding.DecodeString(stdhtml.UnescapeString(m[1]))
	require.NoError(t, err)
	require.Equal(t, pic, got)
	// Every opened element is closed (the page is well formed enough for a
	// strict reader).
	for _, tag := range []string{"table", "tr", "td", "figure", "ul", "li", "pre", "h2"} {
		require.Equal(t, strings.Count(html, "<"+tag+">")+strings.Count(html, "<"+tag+" "), strings.Count(html, "</"+tag+">"), tag)
	}
}

func TestFieldsTableNotObject(t *testing.T) {
	_, err := FieldsTable("x", []int{1})
	require.Error(t, err)
}
