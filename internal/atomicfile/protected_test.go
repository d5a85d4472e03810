package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProtectedSeesLinks: a hard link and a symbolic link to a protected
// file are that file; another file is not.
func TestProtectedSeesLinks(t *testing.T) {
	dir := t.TempDir()
	in, other := filepath.Join(dir, "in.csv"), filepath.Join(dir, "other.csv")
	for _, p := range []string{in, other} {
		if err := os.WriteFile(p, []byte("a,b\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard, soft := filepath.Join(dir, "hard.csv"), filepath.Join(dir, "soft.csv")
	if err := os.Link(in, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := os.Symlink(in, soft); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	Protect(in)
	defer Protect()
	for _, p := range []string{in, hard, soft} {
		if got := Protected(p); got != in {
			t.Errorf("Protected(%s) = %q, want %q", p, got, in)
		}
	}
	if got := Protected(other); got != "" {
		t.Errorf("Protected(%s) = %q, want none", other, got)
	}
}

// GuardOutputs refuses an output that is an input by path, symbolic link,
// hard link or as a file of an input folder, naming both; a new file
// passes, and Create refuses a protected file afterwards.
func TestGuardOutputs(t *testing.T) {
	defer Protect()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	require.NoError(t, os.Mkdir(data, 0o755))
	in := filepath.Join(dir, "edges.txt")
	inData := filepath.Join(data, "labels.txt")
	for _, p := range []string{in, inData} {
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
	}
	sym, hard := filepath.Join(dir, "sym"), filepath.Join(dir, "hard")
	require.NoError(t, os.Symlink(in, sym))
	require.NoError(t, os.Link(in, hard))
	ins := []Named{{"--edges", in}, {"--data", data}, {"--labels", "-"}, {"--missing", filepath.Join(dir, "none")}}
	for _, out := range []string{in, sym, hard} {
		err := GuardOutputs([]Named{{"--out", out}}, ins)
		require.Error(t, err, out)
		assert.Equal(t, "--out "+out+" is the input "+in+" (--edges): an output never replaces an input; write it elsewhere", err.Error())
	}
	err := GuardOutputs([]Named{{"", inData}}, ins)
	assert.EqualError(t, err, "the output "+inData+" is the input "+inData+" (--data): an output never replaces an input; write it elsewhere")
	require.NoError(t, GuardOutputs([]Named{{"--out", filepath.Join(dir, "new.csv")}}, ins))
	err = Write(hard, func(w io.Writer) error { return nil })
	assert.ErrorContains(t, err, "an output never replaces an input")
}
