package main

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/loaders"
)

// TestInputErrorNamesTheFlag: a reader's error about one of the input files
// is named by that file's flag, keeps its cause, and loses the package
// prefix; an error about no input file is unchanged.
func TestInputErrorNamesTheFlag(t *testing.T) {
	in := &nodeInput{Edges: "e.csv", Labels: "l.csv"}
	err := in.inputError(&os.PathError{Op: "open", Path: "l.csv", Err: fs.ErrNotExist})
	require.EqualError(t, err, "--labels l.csv: file does not exist")
	require.ErrorIs(t, err, fs.ErrNotExist)
	err = in.inputError(&loaders.ParseError{Path: "e.csv", Line: 3, Msg: "want 2 fields"})
	require.EqualError(t, err, "--edges e.csv:3: want 2 fields")
	other := &loaders.ParseError{Path: "x.csv", Line: 1, Msg: "bad"}
	require.Same(t, other, in.inputError(other))
	plain := errors.New("no graph")
	require.Same(t, plain, in.inputError(plain))
}
