package labelprop

// AlphaGrid returns the values of a that the command line and the peer
// script choose from on the validation nodes: 0.5, 0.7, 0.8, 0.9, 0.95, 0.99.
func AlphaGrid() []float64 { return []float64{0.5, 0.7, 0.8, 0.9, 0.95, 0.99} }

// AlphaCandidates returns one candidate per value of grid: a Clone of base
// with Alpha set to it, every other hyperparameter kept (Float32, Stop,
// LabelPatience, LabelTol, the solver and the tolerances among them).
func AlphaCandidates(base *Spreading, grid []float64) []*Spreading {
	out := make([]*Spreading, len(grid))
	for i, a := range grid {
		out[i] = base.Clone()
		out[i].Alpha = a
	}
	return out
}
