package pipeline

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// The DoFns of the rounds are registered with their types so that the SDK
// calls them without reflection (they run once per node per round).
func init() {
	register.DoFn7x1[context.Context, string, func(*spreadNode) bool, func(*[]float64) bool, func(string, spreadNode), func(string, []float64), func([]float64), error](&roundFn{})
	register.DoFn5x0[string, Node, ClassInfo, func(string, spreadNode), func(string, []float64)](&startSpreadFn{})
	register.DoFn3x0[string, spreadNode, func(string, Scores)](&finishSpreadFn{})
	register.DoFn5x1[string, func(*propNode) bool, func(*[]float64) bool, func(string, propNode), func(string, []float64), error](&propRoundFn{})
	register.DoFn6x1[string, func(*half) bool, func(*int64) bool, func(*Label) bool, ClassInfo, func(string, Node), error](&buildNodeFn{})
	register.Iter1[spreadNode]()
	register.Iter1[propNode]()
	register.Iter1[[]float64]()
	register.Iter1[half]()
	register.Iter1[int64]()
	register.Iter1[Label]()
	register.Emitter2[string, spreadNode]()
	register.Emitter2[string, propNode]()
	register.Emitter2[string, []float64]()
	register.Emitter2[string, Scores]()
	register.Emitter2[string, Node]()
	register.Emitter1[[]float64]()
}
