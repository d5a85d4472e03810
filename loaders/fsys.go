package loaders

import (
	"fmt"
	"io/fs"
	"path"
)

// LoadNodeDatasetFS reads a node-classification folder in our layout (see
// LoadNodeDataset) from a file system, such as the data embedded in the
// binary by package datasets. dir is a slash-separated path inside fsys
// ("." for its root); Name is its last element.
func LoadNodeDatasetFS(fsys fs.FS, dir string) (*NodeDataset, error) {
	if !fs.ValidPath(dir) {
		return nil, fmt.Errorf("loaders: %q is not a valid path inside the file system", dir)
	}
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	return loadNodeFolder(folderSource{fsys: sub, show: dir}, path.Base(dir))
}
