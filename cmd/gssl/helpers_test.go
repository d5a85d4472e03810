package main

import (
	"os"
)

// pathInput names a folder (--data) or a file (--edges), as info's PATH
// argument does.
func pathInput(p string) nodeInput {
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return nodeInput{Data: p, Header: "auto", Directed: "undirected"}
	}
	return nodeInput{Edges: p, Header: "auto", Directed: "undirected"}
}
