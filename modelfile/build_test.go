package modelfile

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// ReadBuild reports the Go toolchain the test binary was built with, as
// package runtime does, and a module and a version.
func TestReadBuild(t *testing.T) {
	b := ReadBuild()
	assert.Equal(t, runtime.Version(), b.Go)
	assert.NotEmpty(t, b.Module)
	assert.NotEmpty(t, b.Version)
}
