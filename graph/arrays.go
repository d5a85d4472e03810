package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/gssl/gssl/internal/parallel"
)

// CSRArrays are the arrays of a graph in CSR form, as a CSR holds them: row
// i of W is Indices[Indptr[i]:Indptr[i+1]] with weights at the same
// positions of Weights, and Degrees[i] = Σ_j W_ij. FromCSRArrays builds a
// CSR over them without copying, which is how a graph file opens by memory
// mapping; CSR.Arrays returns them.
type CSRArrays struct {
	Indptr  []int     // n+1 row offsets, Indptr[0] = 0, Indptr[n] = len(Indices)
	Indices []int32   // column of each stored entry, strictly ascending within a row
	Weights []float64 // weight of each stored entry; nil means every weight is 1
	Degrees []float64 // row sums; nil means computed
}

// Arrays returns views of g's arrays. They must not be modified.
func (g *CSR) Arrays() CSRArrays {
	if g.n == 0 {
		return CSRArrays{Indptr: []int{0}}
	}
	return CSRArrays{Indptr: g.indptr, Indices: g.indices, Weights: g.weights, Degrees: g.degree}
}

// minCheckWork is the number of stored entries per goroutine below which
// FromCSRArrays checks rows on one goroutine.
const minCheckWork = 1 << 16

// FromCSRArrays returns the graph on n nodes whose arrays are a, after
// checking them in O(n + nnz) time, in parallel over rows: Indptr starts at
// 0, never decreases and ends at len(Indices); every column is in [0, n) and
// the columns of a row are strictly ascending; every weight is finite and
// non-negative; W is symmetric (see below); and given Degrees equal the row
// sums, summed in column order, bitwise. The CSR keeps the slices (no copy):
// they must stay unmodified for as long as the graph is used. nil Weights
// mean every weight is 1 (the graph then stores none, as it drops weights
// that are all 1), and nil Degrees allocate a slice of row sums (8 bytes per
// node).
//
// Symmetry is checked without random access: the sum over the entries above
// the diagonal of h(i, j, W_ij) must equal the sum over the entries below it
// of h(j, i, W_ij), for a hash h keyed at random on each call. Rows hold no
// repeated column, so a symmetric W always passes, and a non-symmetric one
// passes with probability about 2⁻⁶⁴ unless the input was built knowing the
// key.
func FromCSRArrays(n int, a CSRArrays) (*CSR, error) {
	if err := checkArrayShapes(n, a); err != nil {
		return nil, err
	}
	if err := checkIndptr(n, a.Indptr, len(a.Indices)); err != nil {
		return nil, err
	}
	unit := a.Weights == nil
	given := a.Degrees != nil
	if !given {
		a.Degrees = make([]float64, n)
	}
	k0, k1 := rand.Uint64(), rand.Uint64()|1
	rc := rowChecker{n: n, a: a, given: given, k0: k0, k1: k1}
	var (
		mu       sync.Mutex
		firstBad = n // lowest row with an error
		firstErr error
		total    = rowTally{ones: true}
	)
	parallel.Balanced(a.Indptr, minCheckWork, func(lo, hi int) {
		var t rowTally
		var bad int
		var err error
		if unit {
			t, bad, err = rc.unitRows(lo, hi)
		} else {
			t, bad, err = rc.weightedRows(lo, hi)
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if bad < firstBad {
				firstBad, firstErr = bad, err
			}
			return
		}
		total.add(t)
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if total.upper != total.lower {
		return nil, fmt.Errorf("graph: the arrays are not symmetric: some entry W_ij has no equal W_ji")
	}
	g := &CSR{n: n, indptr: a.Indptr, indices: a.Indices, weights: a.Weights, degree: a.Degrees,
		selfLoops: total.selfLoops, unitWeights: unit || total.ones}
	g.dropUnitWeights()
	return g, nil
}

// rowTally sums what FromCSRArrays learns from a range of rows: the
// entries' hashes above and below the diagonal, the self loops, and
// whether every weight is 1.
type rowTally struct {
	upper, lower uint64
	selfLoops    int
	ones         bool
}

// add adds the tally of another range of rows to t.
func (t *rowTally) add(o rowTally) {
	t.upper += o.upper
	t.lower += o.lower
	t.selfLoops += o.selfLoops
	t.ones = t.ones && o.ones
}

// rowChecker checks the rows of arrays a on n nodes for FromCSRArrays,
// hashing entries under the key (k0, k1); it sets the degrees, or checks
// the given ones.
type rowChecker struct {
	n      int
	a      CSRArrays
	given  bool
	k0, k1 uint64
}

// unitRows checks rows [lo, hi) of unit weights (the pattern alone) and
// returns their tally, or the row of the first error and the error.
func (rc *rowChecker) unitRows(lo, hi int) (rowTally, int, error) {
	n, a, given := rc.n, rc.a, rc.given
	// entryHash(k0, k1, i, j, 1) is mix64 of the position under ku.
	ku := rc.k0 ^ math.Float64bits(1)*rc.k1
	var up, low uint64
	loops := 0
	for i := lo; i < hi; i++ {
		prev := int32(-1)
		row := a.Indices[a.Indptr[i]:a.Indptr[i+1]]
		for k, c := range row {
			if c <= prev || int(c) >= n {
				return rowTally{}, i, columnError(i, a.Indptr[i]+k, c, prev, n)
			}
			prev = c
			switch {
			case int(c) > i:
				up += mix64((uint64(i)<<32 | uint64(c)) ^ ku)
			case int(c) < i:
				low += mix64((uint64(c)<<32 | uint64(i)) ^ ku)
			default:
				loops++
			}
		}
		if err := setDegree(a.Degrees, given, i, float64(len(row))); err != nil {
			return rowTally{}, i, err
		}
	}
	return rowTally{upper: up, lower: low, selfLoops: loops, ones: true}, 0, nil
}

// weightedRows checks rows [lo, hi) with their weights and returns their
// tally, or the row of the first error and the error.
func (rc *rowChecker) weightedRows(lo, hi int) (rowTally, int, error) {
	n, a, given, k0, k1 := rc.n, rc.a, rc.given, rc.k0, rc.k1
	var up, low uint64
	loops, ones := 0, true
	for i := lo; i < hi; i++ {
		var d float64
		prev := int32(-1)
		for p := a.Indptr[i]; p < a.Indptr[i+1]; p++ {
			c, w := a.Indices[p], a.Weights[p]
			if c <= prev || int(c) >= n {
				return rowTally{}, i, columnError(i, p, c, prev, n)
			}
			if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
				return rowTally{}, i, fmt.Errorf("graph: row %d, column %d: weight %v; weights must be finite and ≥ 0", i, c, w)
			}
			prev = c
			d += w
			if w != 1 {
				ones = false
			}
			switch {
			case int(c) > i:
				up += entryHash(k0, k1, uint32(i), uint32(c), w)
			case int(c) < i:
				low += entryHash(k0, k1, uint32(c), uint32(i), w)
			default:
				loops++
			}
		}
		if err := setDegree(a.Degrees, given, i, d); err != nil {
			return rowTally{}, i, err
		}
	}
	return rowTally{upper: up, lower: low, selfLoops: loops, ones: ones}, 0, nil
}

// FromCSRArraysTrusted is FromCSRArrays for arrays known to be valid, such
// as those of a checksummed file that this package's arrays were written
// to: it checks only the lengths and the two ends of Indptr, in O(1), and
// takes the number of self loops and whether every weight is 1 from the
// caller. Degrees must not be nil; Weights may be nil only when unitWeights
// is true. Arrays that break the rules of FromCSRArrays give wrong results
// and may crash the vector products, which read them without bounds checks.
func FromCSRArraysTrusted(n int, a CSRArrays, selfLoops int, unitWeights bool) (*CSR, error) {
	if err := checkArrayShapes(n, a); err != nil {
		return nil, err
	}
	if (a.Weights == nil && !unitWeights) || a.Degrees == nil {
		return nil, fmt.Errorf("graph: trusted arrays need weights and degrees (weights may be nil when every weight is 1)")
	}
	if a.Indptr[0] != 0 || a.Indptr[n] != len(a.Indices) {
		return nil, fmt.Errorf("graph: row offsets run from %d to %d, want 0 to %d", a.Indptr[0], a.Indptr[n], len(a.Indices))
	}
	if selfLoops < 0 || selfLoops > n || selfLoops > len(a.Indices) {
		return nil, fmt.Errorf("graph: %d self loops out of range [0, %d]", selfLoops, min(n, len(a.Indices)))
	}
	g := &CSR{n: n, indptr: a.Indptr, indices: a.Indices, weights: a.Weights, degree: a.Degrees,
		selfLoops: selfLoops, unitWeights: unitWeights}
	g.dropUnitWeights()
	return g, nil
}

// checkArrayShapes checks the lengths of a against n.
func checkArrayShapes(n int, a CSRArrays) error {
	if err := checkN(n); err != nil {
		return err
	}
	switch {
	case len(a.Indptr) != n+1:
		return fmt.Errorf("graph: %d row offsets for %d nodes, want %d", len(a.Indptr), n, n+1)
	case a.Weights != nil && len(a.Weights) != len(a.Indices):
		return fmt.Errorf("graph: %d weights for %d stored entries", len(a.Weights), len(a.Indices))
	case a.Degrees != nil && len(a.Degrees) != n:
		return fmt.Errorf("graph: %d degrees for %d nodes", len(a.Degrees), n)
	}
	return nil
}

// checkIndptr checks that the row offsets start at 0, never decrease and end
// at nnz.
func checkIndptr(n int, indptr []int, nnz int) error {
	if indptr[0] != 0 || indptr[n] != nnz {
		return fmt.Errorf("graph: row offsets run from %d to %d, want 0 to %d (the number of stored entries)", indptr[0], indptr[n], nnz)
	}
	bad := make([]int, 0, parallel.Workers())
	var mu sync.Mutex
	parallel.For(n, 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if indptr[i+1] < indptr[i] {
				mu.Lock()
				bad = append(bad, i)
				mu.Unlock()
				return
			}
		}
	})
	if len(bad) > 0 {
		i := bad[0]
		for _, j := range bad {
			i = min(i, j)
		}
		return fmt.Errorf("graph: row offsets decrease at row %d (%d, then %d)", i, indptr[i], indptr[i+1])
	}
	return nil
}

// columnError is FromCSRArrays' error for column c at entry p of row i,
// out of range or not after the row's previous column prev.
func columnError(i, p int, c, prev int32, n int) error {
	if c < 0 || int(c) >= n {
		return fmt.Errorf("graph: row %d, entry %d: column %d out of range [0, %d)", i, p, c, n)
	}
	return fmt.Errorf("graph: row %d, entry %d: column %d after column %d; columns must be strictly ascending within a row", i, p, c, prev)
}

// setDegree checks row i's sum d against the given degree, or sets it.
func setDegree(degrees []float64, given bool, i int, d float64) error {
	if !given {
		degrees[i] = d
		return nil
	}
	if math.Float64bits(d) != math.Float64bits(degrees[i]) {
		return fmt.Errorf("graph: node %d: degree %v given, row sum %v", i, degrees[i], d)
	}
	return nil
}

// entryHash mixes an entry (i, j, w) into 64 bits under the key (k0, k1):
// the SplitMix64 finaliser of the entry's position and weight, each hidden
// by a key drawn per check. The sums of these over the upper and the lower
// triangle agree for symmetric arrays; for others only by accident, since
// the arrays cannot depend on keys drawn after they were written. One round
// (a bijection with full avalanche) keeps it cheap: this is the hot loop of
// opening a graph file.
func entryHash(k0, k1 uint64, i, j uint32, w float64) uint64 {
	return mix64((uint64(i)<<32 | uint64(j)) ^ k0 ^ math.Float64bits(w)*k1)
}

func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
