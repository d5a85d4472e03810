// Package htmlreport writes the report of one gssl run as a single,
// self-contained HTML page, DIR/index.html: the exact command line, the
// versions (runtime/debug build information: Go, the module and its
// revision, the plotting and numerical dependencies), the seeds and the
// timings, the result's tables and its figures inlined as base64 PNG data
// URIs.
//
// The page has no script, no style sheet, font or image from elsewhere and
// no link out, so it opens offline in any browser and reads the same in ten
// years; html/template escapes every string that came from the user (file
// names, class names, notes).
package htmlreport
