package labelprop

import "github.com/gssl/gssl/graph"

// MemoryBytes returns the bytes of Go heap that Fit allocates on g beyond
// the graph itself, for the model's settings and the number of classes c
// (Classes, or 1 + the largest class when Classes is 0 — pass the model
// with Classes set for an exact count). A fit frees almost nothing before it
// returns, so this is also its peak heap beyond the graph; the process peak
// is the graph (g.Bytes, or the mapped file of a .gsg), plus this, plus the
// runtime's headroom (docs/memory.md). The model keeps F, not the class
// probabilities: Probabilities forms them (8nc more, the caller's), and
// ProbabilityRow one row at a time. With n nodes, m = g.NNZ() stored
// entries, 8-byte words and S = g.SlicedCost() (the SELL-4-σ copy, 4m + 8n
// bytes for a 0/1 graph, 0 above graph.SetSlicedLimit):
//
//	every fit     8nc + 53n        F (n×c float64); degrees 32n, seeds 4n,
//	                               components 9n, labels 8n
//	Chebyshev     + 8nc + 16n      its second block z_{k−1} (the first is F's
//	                               own storage) and two scalings
//	                               (c = 3 or 7: + 8nc + 8n), + S for c ≤ 8
//	  Float32     + 0              both float32 blocks live in F's storage
//	  StopLabels  + 4n             the labels of the last iteration
//	CG            + 24nc + S       r, p and q (S for c ≤ 4; p̃'s float32
//	                               copy instead for 5 ≤ c ≤ 16, 32n up to
//	                               8 classes, 64n above; or the column
//	                               segments, 4m + 8kn for a 0/1 graph,
//	                               when the product runs in k of them);
//	                               with
//	                               MaxMemory, in class batches of w
//	                               columns: + 32nw + S (a batch ≤ 4)
//	                               (the batch's x, r, p and q; the
//	                               degrees and scalings t, u and −a·t
//	                               are the 32n of every fit)
//	FixedPoint    + 24nc + 16n + 8m + 8n
//	                               B, two iterates, S's weights
//	ReverseCuthillMcKee  + g.Bytes() + 24nc + 24n
//	                               the renumbered graph, B, F and the scores
//	                               in its numbering, the permutation
//
// For label spreading on 10^7 nodes, 2·10^8 stored entries and 10 classes
// (the SELL copy is not built above 8 columns): 1.6 GB + 0.7 GB in float64
// (Chebyshev), 3.2 + 1.17 GB with CG (0.64 GB of it p̃'s float32 copy),
// 0.8 + 0.5 GB with Float32, beside the graph's 0.96 GB; on 5·10^7 nodes, 2·10^9 stored entries and 10 classes,
// Float32 takes 4 GB + 2.65 GB beside the graph's 8.7 GB.
func (m *Spreading) MemoryBytes(g *graph.CSR) int64 {
	return m.memoryBytes(g, max(m.Classes, 1))
}

// memoryBytes is MemoryBytes for c classes.
func (m *Spreading) memoryBytes(g *graph.CSR, classes int) int64 {
	n, nnz := int64(g.Nodes()), int64(g.NNZ())
	c := int64(classes)
	total := 8*n*c + 53*n
	sliced := int64(0)
	if c <= 8 {
		sliced = g.SlicedCost()
	}
	switch m.solverFor(int(n), int(c)) {
	case Chebyshev:
		if !m.Float32 {
			total += 8*n*c + 16*n + sliced
			if c == 3 || c == 7 {
				total -= 8 * n
			}
		}
		if m.Stop == StopLabels {
			total += 4 * n
		}
	case CG:
		total += batchExtra(g, n, c, int64(m.classBatch(g, classes)))
	case FixedPoint:
		total += 24*n*c + 16*n + 8*nnz + 8*n
	}
	if m.Ordering == ReverseCuthillMcKee {
		total += int64(g.Bytes()) + 24*n*c + 24*n
	}
	return total
}

// MemoryBytes returns the bytes a fit of the harmonic function allocates
// beyond the graph: the subgraph induced by the unlabelled nodes (at most
// g.Bytes()), nine n×c float64 blocks (the scores F, the right-hand side W_ul Y_l and the iterate, block CG's
// work blocks and the columns it copies), and about 53 bytes per node of
// index maps, degrees and the Jacobi preconditioner. TestHarmonicMemoryBytes
// checks it against the Go heap.
func (m *Harmonic) MemoryBytes(g *graph.CSR) int64 {
	n, c := int64(g.Nodes()), int64(max(m.Classes, 1))
	return int64(g.Bytes()) + 9*8*n*c + 53*n
}
