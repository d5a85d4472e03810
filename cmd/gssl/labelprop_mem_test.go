package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLabelpropStopAndFloat32 runs the default Cora protocol with --stop
// labels and with --float32: the same chosen a and accuracies as lp.py (the
// default run's), in no more iterations for the label rule.
func TestLabelpropStopAndFloat32(t *testing.T) {
	base := runLabelpropJSON(t, defaults())
	for _, o := range []func(*labelpropOptions){
		func(o *labelpropOptions) { o.Model.Stop = "labels" },
		func(o *labelpropOptions) { o.Model.Float32 = true },
		func(o *labelpropOptions) { o.Model.Stop, o.Model.Float32 = "labels", true },
	} {
		opts := defaults()
		o(&opts)
		obj := runLabelpropJSON(t, opts)
		assert.Equal(t, coraPeerAlpha, obj["alpha"], "%+v", opts)
		assert.Equal(t, coraPeerTest, obj["test_accuracy"], "%+v", opts)
		assert.Equal(t, coraPeerVal, obj["grid_val_accuracy"], "%+v", opts)
		if opts.Model.Stop == "labels" && !opts.Model.Float32 {
			assert.Less(t, obj["iterations"], base["iterations"], "%+v", opts)
		}
	}
	for _, o := range []func(*labelpropOptions){
		func(o *labelpropOptions) { o.Model.Stop = "argmax" },
		func(o *labelpropOptions) { o.Model.Stop, o.Model.Solver = "labels", "cg" },
		func(o *labelpropOptions) { o.Model.Float32, o.Model.Solver = true, "fixed-point" },
		func(o *labelpropOptions) { o.Model.Float32, o.Model.Method = true, "harmonic" },
	} {
		opts := defaults()
		o(&opts)
		var out bytes.Buffer
		err := runLabelprop(context.Background(), opts, &out, &out)
		require.Error(t, err, "%+v", opts)
		assert.Contains(t, err.Error(), "--", "the error names the flag")
	}
}
