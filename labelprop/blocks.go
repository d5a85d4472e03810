package labelprop

import "gonum.org/v1/gonum/mat"

// solverBlocks holds F and, for a block CG solve in one batch, the work
// area of r, p and q (3·n·c entries), all zero. Blocks from 2 MiB to
// 32 MiB are faulted in when they are allocated, one system call each
// (newBlock: hugepage.GatherFloat64s), and a cold fit's set-up is
// otherwise serial: on the planted-partition graph of 10⁶ edges
// (BENCHMARKS.md, "Loading and scale"; 10⁵ nodes, 5 classes, a 4 MB and
// a 12 MB block) the two calls took 3 to 80 ms of a 50 ms fit with the
// other core idle (gssl labelprop --json, 4 Dec). So a CG fit in one
// batch allocates them on a goroutine of its own while the calling one
// searches the nodes a label reaches; the blocks are the same zeroed
// blocks, so the iterates are unchanged.
type solverBlocks struct {
	f     *mat.Dense
	work  []float64
	fDone chan struct{} // closed once f is set; nil when allocated in startBlocks
	wDone chan struct{} // closed once work is set
}

// startBlocks allocates F (n×c) and, with work, the CG work area: on
// another goroutine when work is true, else F at once.
func startBlocks(n, c int, work bool) *solverBlocks {
	if !work {
		return &solverBlocks{f: mat.NewDense(n, c, newBlock(n*c))}
	}
	sb := &solverBlocks{fDone: make(chan struct{}), wDone: make(chan struct{})}
	go func() {
		sb.f = mat.NewDense(n, c, newBlock(n*c))
		close(sb.fDone)
		sb.work = newBlock(3 * n * c)
		close(sb.wDone)
	}()
	return sb
}

// scores returns F, waiting for its allocation.
func (sb *solverBlocks) scores() *mat.Dense {
	if sb.fDone != nil {
		<-sb.fDone
	}
	return sb.f
}

// workArea returns the CG work area, waiting for its allocation, or nil
// when startBlocks did not allocate one.
func (sb *solverBlocks) workArea() []float64 {
	if sb.wDone == nil {
		return nil
	}
	<-sb.wDone
	return sb.work
}
