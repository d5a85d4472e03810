package figures

import (
	"strconv"

	"gonum.org/v1/plot"
)

// IntegerTicks puts one tick on axis at each of values, labelled as an
// integer: for axes of counts or heights, where gonum/plot's default
// ticks would fall between them.
func IntegerTicks(axis *plot.Axis, values []float64) {
	ticks := make(plot.ConstantTicks, len(values))
	for i, v := range values {
		ticks[i] = plot.Tick{Value: v, Label: strconv.Itoa(int(v))}
	}
	axis.Tick.Marker = ticks
}
