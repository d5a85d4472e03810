package main

import (
	"embed"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"text/template"
)

// The readable summary of a command (its output without --json) is the
// template summary/<command>.tmpl executed on the same value --json
// encodes, so the two never disagree. The functions below format numbers
// the way every summary does.
//
//go:embed summary/*.tmpl
var summaryFiles embed.FS

var summaries = template.Must(template.New("").Funcs(template.FuncMap{
	"f":    formatFloat,
	"pct":  func(v any) string { return formatFloat("%.4f", v) },
	"join": func(sep string, v any) string { return joinValues(sep, v) },
	"add":  func(a, b int) int { return a + b },
	"sub":  func(a, b int) int { return a - b },
	"idx":  func(v any, i int) any { return reflect.ValueOf(v).Index(i).Interface() },
	// fd is f with dash, not "-", for a missing or undefined number; na
	// is fd with "n/a". times100 is 100·v (nil stays nil).
	"fd":       formatOr,
	"na":       func(format string, v any) string { return formatOr(format, "n/a", v) },
	"times100": func(v any) any { return scaled(v, 100, 1) },
	// percent formats a fraction as a percentage (×100) with format.
	"percent": func(format string, v any) string { return formatFloat(format, scaled(v, 100, 1)) },
	// div divides a number (as float64) by d, as the summaries' units do.
	"div": func(v any, d float64) any { return scaled(v, 1, d) },
	// words splits a list written in a template ("a b c").
	"words":  strings.Fields,
	"isTrue": func(p *bool) bool { return p != nil && *p },
	"fsub":   func(a, b float64) float64 { return a - b },
}).ParseFS(summaryFiles, "summary/*.tmpl"))

// printSummary writes the summary of command (summary/<command>.tmpl) of res.
func printSummary(w io.Writer, command string, res any) error {
	return summaries.ExecuteTemplate(w, command+".tmpl", res)
}

// formatFloat formats a number with format, and a missing or undefined
// one (nil, NaN, ±Inf) as "-".
func formatFloat(format string, v any) string {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface) {
		if rv.IsNil() {
			return "-"
		}
		rv = rv.Elem()
	}
	switch {
	case !rv.IsValid():
		return "-"
	case rv.CanFloat():
		if x := rv.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return "-"
		}
		return fmt.Sprintf(format, rv.Float())
	case rv.CanInt():
		return fmt.Sprintf(format, float64(rv.Int()))
	case rv.CanUint():
		return fmt.Sprintf(format, float64(rv.Uint()))
	}
	return fmt.Sprint(v)
}

// joinValues joins the elements of a slice with sep.
func joinValues(sep string, v any) string {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		return fmt.Sprint(v)
	}
	s := make([]string, rv.Len())
	for i := range s {
		s[i] = fmt.Sprint(rv.Index(i).Interface())
	}
	return strings.Join(s, sep)
}

// reportSummary prints res as one JSON object with asJSON, else as the
// summary of command.
func reportSummary(w io.Writer, asJSON bool, command string, res any) error {
	if asJSON {
		return report(w, true, res, nil)
	}
	return printSummary(w, command, res)
}

// formatOr is formatFloat with dash for a missing or undefined number.
func formatOr(format, dash string, v any) string {
	if s := formatFloat(format, v); s != "-" {
		return s
	}
	return dash
}

// scaled is v (a number, or a pointer to one) times c divided by d, nil
// when v is nil.
func scaled(v any, c, d float64) any {
	rv := reflect.ValueOf(v)
	for rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface) {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	switch {
	case !rv.IsValid():
		return v
	case rv.CanFloat():
		return c * rv.Float() / d
	case rv.CanInt():
		return c * float64(rv.Int()) / d
	}
	return v
}
