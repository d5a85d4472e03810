//go:build ignore

// Command figures draws the bar charts of BENCHMARKS.md: the speed against
// the peers and, for tables with accuracy columns, the accuracies:
// for every "## " section with a table that has a ratio (a column whose
// header says "ratio", or a row whose first cell does), one SVG
// docs/figures/<section>.svg of the ratios gssl time / peer time, one bar per
// table row (and ratio column), a dashed line at 1 (as fast as the peer).
// With -link it also adds, after each such section's heading, a link to its
// figure when the section has none.
//
//	go run scripts/figures.go [-in BENCHMARKS.md] [-out docs/figures] [-link] [-format svg|png]
//
// A section whose tables have columns headed accuracy (acc., test error or
// test %) also
// gets docs/figures/<section>-accuracy.svg: one bar per row and accuracy
// column, in percent (fractions in [0, 1] are scaled).
//
// Run it after the tables change: the figures are drawn from their numbers.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/gssl/gssl/figures"
)

// bar is one ratio of a section.
type bar struct {
	label string
	value float64
}

// section is a "## " section and the ratios of its tables.
type section struct {
	title, slug string
	line        int // of the heading, 0-based
	bars        []bar
	acc         []bar // accuracies in percent
}

// accuracyWord marks an accuracy column.
var accuracyWord = regexp.MustCompile(`(?i)\baccuracy\b|\bacc\.|\btest error\b|\btest %`)

// accuracies returns the accuracy bars of one table.
func accuracies(header []string, rows [][]string) []bar {
	var out []bar
	for j, h := range header {
		if j == 0 || !accuracyWord.MatchString(h) || ratioWord.MatchString(h) {
			continue
		}
		for _, r := range rows {
			if j >= len(r) || pair.MatchString(r[j]) {
				continue
			}
			v, ok := firstNumber(r[j])
			if !ok {
				continue
			}
			if v <= 1 && !strings.Contains(r[j], "%") {
				v *= 100
			}
			if v <= 0 || v > 100 {
				continue
			}
			label := rowLabel(header, r)
			if n := len(header); n > 2 {
				label += " — " + decoration.Replace(h)
			}
			out = append(out, bar{label: label, value: v})
		}
	}
	return out
}

var (
	number     = regexp.MustCompile(`[0-9]+(?:[ ,][0-9]{3})*(?:\.[0-9]+)?`)
	inParens   = regexp.MustCompile(`\(([^)]*)\)`)
	decoration = strings.NewReplacer("**", "", "`", "", "*", "")
	ratioWord  = regexp.MustCompile(`(?i)\bratios?\b`)
	// speedRatios in the paragraph above a table says that its cells are
	// time ratios ("ratio gssl / lp.py").
	speedRatios = regexp.MustCompile(`(?i)\bratios? gssl\b`)
	// pair is a cell of two numbers ("17 / 16", iterations of two sides),
	// not a ratio.
	pair = regexp.MustCompile(`[0-9]\s*/\s*[0-9]`)
)

// firstNumber returns the first number of s (thousands separated by spaces
// allowed), or false.
func firstNumber(s string) (float64, bool) {
	m := number.FindString(decoration.Replace(s))
	if m == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.NewReplacer(" ", "", ",", "").Replace(m), 64)
	return v, err == nil
}

func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	parts := strings.Split(line, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func isRule(c []string) bool {
	for _, x := range c {
		if strings.Trim(x, ":- ") != "" {
			return false
		}
	}
	return true
}

// numericCell says whether a cell is a value (it starts with a number)
// rather than a name.
var numericCell = regexp.MustCompile(`^[\s(]*[-−–]?[0-9]`)

// rowLabel joins the leading name cells (at most two); a numeric first
// cell is named by its header.
func rowLabel(header, row []string) string {
	first := decoration.Replace(row[0])
	if numericCell.MatchString(first) {
		return decoration.Replace(header[0]) + " " + first
	}
	parts := []string{first}
	if len(row) > 2 && !numericCell.MatchString(decoration.Replace(row[1])) {
		parts = append(parts, decoration.Replace(row[1]))
	}
	return strings.Join(parts, ", ")
}

// ratios returns the bars of one table; allRows (the paragraph before the
// table says its cells are ratios) takes every row as a row of ratios.
func ratios(header []string, rows [][]string, allRows bool) []bar {
	var out []bar
	var ratioCols []int
	for j, h := range header {
		if j > 0 && ratioWord.MatchString(h) {
			ratioCols = append(ratioCols, j)
		}
	}
	allRows = allRows && len(ratioCols) == 0
	for _, r := range rows {
		if len(r) == 0 {
			continue
		}
		if ratioWord.MatchString(r[0]) || allRows {
			// A row of ratios, one per column.
			for j := 1; j < len(r) && j < len(header); j++ {
				if pair.MatchString(r[j]) {
					continue
				}
				if v, ok := firstNumber(r[j]); ok {
					out = append(out, bar{label: decoration.Replace(r[0]) + ": " + decoration.Replace(header[0]) + " " + decoration.Replace(header[j]), value: v})
				}
			}
			continue
		}
		for _, j := range ratioCols {
			if j >= len(r) {
				continue
			}
			cell := r[j]
			h := header[j]
			if strings.Contains(strings.ToLower(h), "(ratio)") {
				// "1.24 (**0.60**)": the ratio is in the brackets.
				m := inParens.FindStringSubmatch(cell)
				if m == nil {
					continue
				}
				cell = m[1]
			}
			v, ok := firstNumber(cell)
			if !ok {
				continue
			}
			label := rowLabel(header, r)
			if len(ratioCols) > 1 {
				short := strings.TrimSpace(strings.Split(strings.Split(decoration.Replace(h), "(")[0], ";")[0])
				label += " — " + short
			}
			out = append(out, bar{label: label, value: v})
		}
	}
	return out
}

func slug(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

func parse(lines []string) []*section {
	var secs []*section
	var cur *section
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			title := strings.TrimSpace(strings.TrimPrefix(l, "## "))
			cur = &section{title: title, slug: slug(strings.Split(title, "(")[0]), line: i}
			secs = append(secs, cur)
			continue
		}
		if cur == nil || !strings.HasPrefix(strings.TrimSpace(l), "|") || i+1 >= len(lines) || !isRule(cells(lines[i+1])) {
			continue
		}
		header := cells(l)
		var rows [][]string
		j := i + 2
		for ; j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "|"); j++ {
			rows = append(rows, cells(lines[j]))
		}
		// The paragraph just above the table, when it names its cells.
		above := ""
		for k := i - 1; k >= 0 && k >= i-4; k-- {
			if strings.TrimSpace(lines[k]) != "" {
				above = lines[k] + " " + above
			} else if above != "" {
				break
			}
		}
		cur.bars = append(cur.bars, ratios(header, rows, speedRatios.MatchString(above))...)
		cur.acc = append(cur.acc, accuracies(header, rows)...)
		i = j - 1
	}
	return secs
}

func main() {
	in := flag.String("in", "BENCHMARKS.md", "the Markdown file whose tables are drawn")
	out := flag.String("out", "docs/figures", "folder of the SVG files")
	link := flag.Bool("link", false, "add a link to each figure after its section's heading, where missing")
	format := flag.String("format", "svg", "svg, or png to look at the figures")
	flag.Parse()
	lines := readLines(*in)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	secs := parse(lines)
	for _, s := range secs {
		if len(s.acc) == 0 {
			continue
		}
		path := filepath.Join(*out, s.slug+"-accuracy."+*format)
		if err := drawBars(path, decoration.Replace(s.title)+": accuracy and error", "percent (the column named in each row)", s.acc, 0); err != nil {
			log.Fatalf("%s: %v", s.title, err)
		}
		fmt.Printf("%s: %d accuracies\n", path, len(s.acc))
	}
	inserted := 0
	for _, s := range secs {
		if *link && len(s.acc) > 0 {
			rel := filepath.ToSlash(filepath.Join(*out, s.slug+"-accuracy.svg"))
			ref := fmt.Sprintf("![%s: accuracy and error](%s)", decoration.Replace(s.title), rel)
			lines, inserted = insertLink(lines, s.line+inserted, rel, ref, inserted)
		}
		if len(s.bars) == 0 {
			continue
		}
		drawRatios(s, filepath.Join(*out, s.slug+"."+*format))
		if *link {
			rel := filepath.ToSlash(filepath.Join(*out, s.slug+".svg"))
			ref := fmt.Sprintf("![%s: speed against the peers](%s)", decoration.Replace(s.title), rel)
			// the accuracy link may stand first
			lines, inserted = insertLink(lines, s.line+inserted, rel, ref, inserted)
		}
	}
	if *link && inserted > 0 {
		if err := os.WriteFile(*in, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// readLines returns the lines of the file at path.
func readLines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	f.Close()
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	return lines
}

// insertLink inserts a blank line and ref after the heading at line at,
// unless a link to rel stands within the six lines from the heading; it
// returns the lines and the count of lines inserted so far.
func insertLink(lines []string, at int, rel, ref string, inserted int) ([]string, int) {
	if strings.Contains(strings.Join(lines[at:min(at+6, len(lines))], "\n"), "("+rel+")") {
		return lines, inserted
	}
	return append(lines[:at+1], append([]string{"", ref}, lines[at+1:]...)...), inserted + 2
}

// drawRatios writes the ratio bar chart of section s to path.
func drawRatios(s *section, path string) {
	names := make([]string, len(s.bars))
	vals := make([]float64, len(s.bars))
	for i, b := range s.bars {
		names[i], vals[i] = b.label, b.value
	}
	p, err := figures.Bars(s.title+": gssl time / peer time", "ratio (below 1: gssl faster)", names, vals, 1)
	if err != nil {
		log.Fatalf("%s: %v", s.title, err)
	}
	// Room on the left for the row names.
	longest := 0
	for _, n := range names {
		longest = max(longest, len([]rune(n)))
	}
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	fig := &figures.Figure{Panels: []*figures.Plot{p}, PanelWidth: vg.Length(5+0.06*float64(longest)) * vg.Inch, PanelHeight: vg.Length(1.2+0.28*float64(len(names))) * vg.Inch}
	if err := fig.Save(path); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d ratios\n", path, len(names))
}

// drawBars writes one bar chart of bs to path.
func drawBars(path, title, axis string, bs []bar, ref float64) error {
	names := make([]string, len(bs))
	vals := make([]float64, len(bs))
	longest := 0
	for i, b := range bs {
		names[i], vals[i] = b.label, b.value
		longest = max(longest, len([]rune(b.label)))
	}
	p, err := figures.Bars(title, axis, names, vals, ref)
	if err != nil {
		return err
	}
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	fig := &figures.Figure{Panels: []*figures.Plot{p}, PanelWidth: vg.Length(5+0.06*float64(longest)) * vg.Inch, PanelHeight: vg.Length(1.2+0.28*float64(len(names))) * vg.Inch}
	return fig.Save(path)
}
