package modelfile

import "encoding/json"

func jsonValid(b []byte) bool { return json.Valid(b) }

// GraphRef says what a model needs of the graph it was fitted on: its size
// always, and either the arrays prediction needs stored as sections of the
// model file (Stored), or the SHA-256 of the graph file the model was fitted
// on, for a command that must reopen that graph and can check it is the
// same one.
type GraphRef struct {
	Nodes  int    `json:"nodes"`
	Edges  int    `json:"edges"`
	Stored bool   `json:"stored"`           // what prediction needs of the graph is in this file
	SHA256 string `json:"sha256,omitempty"` // hex SHA-256 of the graph file (FileSHA256)
	File   string `json:"file,omitempty"`   // the graph file's name at fit time, a hint only
}
