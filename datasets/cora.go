package datasets

import (
	"embed"
	"io/fs"

	"github.com/gssl/gssl/loaders"
)

//go:embed cora
var files embed.FS

// CoraName is the name of the embedded Cora data set.
const CoraName = "cora"

// FS returns the embedded files: the folder cora in the layout of
// loaders.LoadNodeDataset.
func FS() fs.FS { return files }

// Cora reads the embedded copy of Cora (a fresh data set on every call, so
// callers may modify it).
func Cora() (*loaders.NodeDataset, error) {
	return loaders.LoadNodeDatasetFS(files, CoraName)
}
