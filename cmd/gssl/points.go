package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gssl/gssl/loaders"
)

// imageGraphDataset is the KNN graph of the first n images of an image
// set (0: all) with their labels (loaders.ImageKNNDataset).
func imageGraphDataset(ctx context.Context, dir string, n, k int, stderr io.Writer) (*loaders.NodeDataset, error) {
	if err := loaders.CheckImagesPath(dir); err != nil {
		return nil, err
	}
	var bar *progress
	last := 0
	ds, err := loaders.ImageKNNDataset(ctx, dir, n, k, func(done, total int) {
		if bar == nil {
			bar = newProgress(stderr, total, "knn")
		}
		bar.Add(done - last)
		last = done
	})
	if bar != nil {
		bar.Finish()
	}
	if pe := paramFlagError(err); pe != err {
		return nil, pe
	}
	return ds, withFlag("images", err)
}

// paramFlagError retells a *loaders.ParamError (n or k of the first n
// images) in the words of --n and --neighbors; other errors are unchanged.
func paramFlagError(err error) error {
	var pe *loaders.ParamError
	if !errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("--%s %d is invalid: %s", map[string]string{"n": "n", "k": "neighbors"}[pe.Name], pe.Value, pe.Reason)
}
