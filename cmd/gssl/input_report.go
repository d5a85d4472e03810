package main

import (
	"context"
	"io"
	"sync"

	"github.com/gssl/gssl/loaders"
)

// inputRecord collects how a command read the user's files (the readers'
// column reports), so that its --json object carries them as "inputs".
type inputRecord struct {
	mu      sync.Mutex
	reports []loaders.TableReport
}

type inputRecordKey struct{}

// withInputRecord returns ctx carrying rec.
func withInputRecord(ctx context.Context, rec *inputRecord) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, inputRecordKey{}, rec)
}

// recordInputs prints each report on stderr ("gssl: read …") and keeps it
// for the command's --json object.
func recordInputs(ctx context.Context, stderr io.Writer, reports ...loaders.TableReport) {
	for _, r := range reports {
		logf(stderr, "gssl: read %s", r)
	}
	if ctx == nil {
		return
	}
	if rec, ok := ctx.Value(inputRecordKey{}).(*inputRecord); ok {
		rec.mu.Lock()
		rec.reports = append(rec.reports, reports...)
		rec.mu.Unlock()
	}
}

// commandOut is a command's stdout, through which report adds the inputs
// it read to its JSON object.
type commandOut struct {
	io.Writer
	rec *inputRecord
}

// withInputs returns the JSON encoding of v with an "inputs" key holding
// the reports recorded for w's command (loaders.JSONWithReports), or nil.
func withInputs(w io.Writer, v any) []byte {
	out, ok := w.(*commandOut)
	if !ok {
		return nil
	}
	out.rec.mu.Lock()
	reports := out.rec.reports
	out.rec.mu.Unlock()
	return loaders.JSONWithReports(v, reports)
}
