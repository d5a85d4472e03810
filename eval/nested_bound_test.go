package eval

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// A fold id of 10⁹ in an outer assignment is an error, not a 10⁹-fold
// allocation.
func TestNestedCVHugeFoldID(t *testing.T) {
	cv := NestedCV{Candidates: 1, Score: func(context.Context, int, []int, []int) (float64, error) { return 1, nil }}
	_, err := cv.Run(context.Background(), []int{0, 1, 0, 1}, []int{0, 1, 1_000_000_000, 0}, 0)
	require.ErrorContains(t, err, "fold id 1000000000 of item 2 is invalid: it must be in [−1, 4)")
}
