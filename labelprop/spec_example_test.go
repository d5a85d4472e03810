package labelprop_test

import (
	"fmt"

	"github.com/gssl/gssl/labelprop"
)

// A front end builds label spreading from the names and numbers a user
// gave; an invalid setting is named by its field.
func ExampleSpec() {
	m, grid, err := labelprop.Spec{Alpha: "0.9", Solver: "cg"}.Model()
	fmt.Println(m.(*labelprop.Spreading).Solver, grid, err)
	_, grid, _ = labelprop.Spec{Method: "harmonic"}.Model()
	fmt.Println(grid == nil)
	_, _, err = labelprop.Spec{Alpha: "1.5"}.Model()
	fmt.Println(err)
	// Output:
	// cg [0.9] <nil>
	// true
	// labelprop: Alpha = "1.5" is invalid: it must be a number inside the open interval (0, 1), or auto
}
