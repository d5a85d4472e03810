package imgp

// DefaultSpec is the Spec of the defaults (DefaultK, DefaultNu,
// DefaultIterations, DefaultLearningRate, DefaultProbes, the nearest-node
// distance and the refit procedure): what gssl imgp fits when no option
// is given.
func DefaultSpec() Spec {
	return Spec{K: DefaultK, Nu: DefaultNu, MaxIter: DefaultIterations, LearningRate: DefaultLearningRate, Probes: DefaultProbes,
		Distance: "nearest", Procedure: ProcedureRefit.String()}
}
