//go:build !cgo

package main

import (
	"fmt"
	"os"
)

// main, without cgo, says how to build the C ABI: its exported functions
// (main.go, eval.go) need cgo, so a cross-build of the module (CGO_ENABLED=0,
// another GOARCH) compiles the rest of the package and leaves them out.
func main() {
	fmt.Fprintln(os.Stderr, "capi: gssl's C ABI needs cgo: build it with CGO_ENABLED=1 and a C compiler: go build -buildmode=c-shared -o libgssl.so ./capi")
	os.Exit(2)
}
