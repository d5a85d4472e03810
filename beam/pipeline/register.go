package pipeline

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// The DoFns of the rounds are registered with their types so that the SDK
// calls them without reflection (they run once per node per round).
func init() {
	register.DoFn7x1[context.Context, int, func(*stateBlock) bool, func(*contribBlock) bool, func(int, stateBlock), func(int, contribBlock), func([]float64), error](&roundFn{})
	register.DoFn5x0[int, bucketNodes, ClassInfo, func(int, stateBlock), func(int, contribBlock)](&startSpreadFn{})
	register.DoFn5x1[int, func(*halfBlock) bool, func(*labelBlock) bool, ClassInfo, func(int, bucketNodes), error](&buildBucketFn{})
	register.DoFn3x1[context.Context, fileRef, func(int, halfBlock), error](&readHalvesFn{})
	register.DoFn3x1[context.Context, fileRef, func(int, labelBlock), error](&readLabelBlocksFn{})
	register.DoFn3x1[int, func(*idNode) bool, func(int, bucketNodes), error](&gatherBucketFn{})
	register.DoFn2x2[string, Node, int, idNode](&bucketNodeFn{})
	register.DoFn3x0[int, stateBlock, func(string, Scores)](&finishSpreadFn{})
	register.DoFn5x1[string, func(*propNode) bool, func(*[]float64) bool, func(string, propNode), func(string, []float64), error](&propRoundFn{})
	register.DoFn6x1[string, func(*half) bool, func(*int64) bool, func(*Label) bool, ClassInfo, func(string, Node), error](&buildNodeFn{})
	register.DoFn3x2[context.Context, int, stateBlock, int, error](&writeStateFn{})
	register.DoFn4x1[context.Context, []int, func(*ClassInfo) bool, func(*bool) bool, error](&writeInfoFn{})
	register.Iter1[ClassInfo]()
	register.Iter1[bool]()
	register.DoFn4x1[context.Context, string, func(int, stateBlock), func(int, contribBlock), error](&readStateFn{})
	register.Combiner3[[]int, int, []int](&bucketList{})
	register.Iter1[stateBlock]()
	register.Iter1[contribBlock]()
	register.Iter1[idNode]()
	register.Iter1[halfBlock]()
	register.Iter1[labelBlock]()
	register.Emitter2[int, halfBlock]()
	register.Emitter2[int, labelBlock]()
	register.Emitter2[int, bucketNodes]()
	register.Iter1[propNode]()
	register.Iter1[[]float64]()
	register.Iter1[half]()
	register.Iter1[int64]()
	register.Iter1[Label]()
	register.Emitter2[int, stateBlock]()
	register.Emitter2[int, contribBlock]()
	register.Emitter2[string, propNode]()
	register.Emitter2[string, []float64]()
	register.Emitter2[string, Scores]()
	register.Emitter2[string, Node]()
	register.Emitter1[[]float64]()
}
