package spectral_test

import (
	"fmt"

	"github.com/gssl/gssl/spectral"
)

// A front end checks an eigensolve described by names and numbers, first
// alone and then against the graph's size.
func ExampleEigsSpec() {
	s := spectral.EigsSpec{Eigenpairs: 4, Laplacian: "sym", Isolated: "component", BasisSize: 40}
	kind, _, settings, err := s.Parse()
	fmt.Println(kind, settings.BasisSize, err)
	fmt.Println(s.ValidateFor(30))
	// Output:
	// symmetric 40 <nil>
	// spectral: BasisSize = 40 is invalid: it must be in [0, 30] (the number of nodes; 0: automatic)
}
