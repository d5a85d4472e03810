package graph

// networkSort sorts a row of at most shortRow columns in increasing order by
// Batcher's odd-even merge sort network (K. E. Batcher, "Sorting networks
// and their applications", AFIPS 1968) for the next power of two, without
// the comparators that reach past the row (they would compare with +∞
// padding and move nothing). A comparator is a min and a max, which compile
// to conditional moves: the row is sorted without a branch that depends on
// its values. On rows of about 20 random columns it beats an insertion
// sort, whose inner loop mispredicts its exit once per column
// (BenchmarkRowSort).
func networkSort(a []int32) {
	var t [shortRow]int32
	copy(t[:], a)
	for _, c := range comparators[len(a)] {
		i, j := c.i%shortRow, c.j%shortRow
		x, y := t[i], t[j]
		t[i], t[j] = min(x, y), max(x, y)
	}
	copy(a, t[:len(a)])
}

// comparator orders the elements i < j of a sorting network.
type comparator struct{ i, j uint8 }

// comparators[n] is the network networkSort applies to n elements.
var comparators = func() (nets [shortRow + 1][]comparator) {
	for n := range nets {
		w := 1
		for w < n {
			w *= 2
		}
		for _, c := range oddEvenMergeSort(w) {
			if int(c.j) < n {
				nets[n] = append(nets[n], c)
			}
		}
	}
	return nets
}()

// oddEvenMergeSort returns Batcher's odd-even merge sort network for w
// elements, w a power of two, in an order that applies it: merges of runs
// of p = 1, 2, 4, … elements, each by comparisons at distances p, p/2, …, 1.
func oddEvenMergeSort(w int) []comparator {
	var cs []comparator
	for p := 1; p < w; p *= 2 {
		for k := p; k >= 1; k /= 2 {
			for j := k % p; j+k < w; j += 2 * k {
				for i := 0; i < k && i+j+k < w; i++ {
					if (i+j)/(2*p) == (i+j+k)/(2*p) {
						cs = append(cs, comparator{uint8(i + j), uint8(i + j + k)})
					}
				}
			}
		}
	}
	return cs
}
