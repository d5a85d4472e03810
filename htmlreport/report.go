package htmlreport

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gssl/gssl/internal/atomicfile"
)

// Table is a table of the report; Header may be empty.
type Table struct {
	Caption string
	Header  []string
	Rows    [][]string
}

// Figure is an image of the report.
type Figure struct {
	Caption string
	// PNG is the encoded image, inlined as a data URI.
	PNG []byte
}

// Timing is one named duration of the run.
type Timing struct {
	Name    string
	Seconds float64
}

// Report is the content of one page.
type Report struct {
	// Title heads the page ("gssl labelprop").
	Title string
	// Command is the command line, as os.Args.
	Command []string
	// Started is when the run started; the zero time leaves it out.
	Started time.Time
	// Seeds names the seeds of the run ("seed 0, 10 splits: 0..9").
	Seeds   string
	Timings []Timing
	Notes   []string
	Figures []Figure
	Tables  []Table
}

// Version is one line of the versions table.
type Version struct{ Name, Version string }

// Versions returns Go's version, the main module's version and revision
// and the versions of its direct numerical dependencies, from the build
// information of the running binary.
func Versions() []Version {
	v := []Version{{"go", runtime.Version()}, {"os/arch", runtime.GOOS + "/" + runtime.GOARCH}}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v = append(v, Version{bi.Main.Path, bi.Main.Version})
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.time", "vcs.modified":
			v = append(v, Version{s.Key, s.Value})
		}
	}
	for _, d := range bi.Deps {
		if strings.HasPrefix(d.Path, "gonum.org/") {
			v = append(v, Version{d.Path, d.Version})
		}
	}
	return v
}

//go:embed page.html
var pageSource string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"png": func(b []byte) template.URL {
		return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b))
	},
	"seconds": func(s float64) string { return fmt.Sprintf("%.3f s", s) },
	"command": func(args []string) string { return shellQuote(args) },
}).Parse(pageSource))

// Render writes the page to w.
func (r *Report) Render(w io.Writer) error {
	data := struct {
		*Report
		Versions []Version
		Started  string
	}{Report: r, Versions: Versions()}
	if !r.Started.IsZero() {
		data.Started = r.Started.UTC().Format(time.RFC3339)
	}
	return page.Execute(w, data)
}

// Write creates dir if needed and writes dir/index.html, atomically.
func (r *Report) Write(dir string) error {
	if dir == "" {
		return errors.New("htmlreport: no folder")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := r.Render(&b); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "index.html"), func(w io.Writer) error {
		_, err := w.Write(b.Bytes())
		return err
	})
}

// shellQuote joins args into one line a POSIX shell reads back as args.
func shellQuote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

// CheckDir refuses, before any work, a report folder that is a file or
// whose parent folder does not exist; "" (no report) passes.
func CheckDir(dir string) error {
	if dir == "" {
		return nil
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is a file; give a folder (index.html is written into it)", dir)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if st, err := os.Stat(parent); err != nil || !st.IsDir() {
		return fmt.Errorf("%s: the folder %s does not exist", dir, parent)
	}
	return nil
}
