package labelprop

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// rowsVec returns n random entries: normal, tiny (float32 subnormal or
// flushed), huge (float32 overflow), signed zeros and values on a float32
// rounding tie, so that the rounding of the assembly kernels is exercised.
func rowsVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch rng.IntN(8) {
		case 0:
			v[i] = rng.NormFloat64() * 1e-42
		case 1:
			v[i] = rng.NormFloat64() * 1e39
		case 2:
			v[i] = math.Copysign(0, rng.NormFloat64())
		case 3:
			// 1 + half an ulp of float32: a tie
			v[i] = float64(float32(rng.NormFloat64())) * (1 + 0x1p-24)
		default:
			v[i] = rng.NormFloat64()
		}
	}
	return v
}

// TestRowKernelsSIMD checks the assembly row passes against the
// generated Go kernels (stepRows32W; updateRowsW and finish32W without and
// with their deflation sums, finish32W also without its sums), bit for bit, for w = 5..8 on row ranges of odd
// lengths not starting at 0, with x wider than the panel.
func TestRowKernelsSIMD(t *testing.T) {
	if !hasRowsAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(13, 5))
	const n = 150
	for w := 5; w <= rowsMaxW; w++ {
		for _, rg := range [][2]int{{0, 1}, {3, 4}, {0, 2}, {2, 6}, {7, 70}, {1, 150}, {64, 129}} {
			lo, hi := rg[0], rg[1]
			rows := (hi - lo) * w
			tt, u := rowsVec(rng, n), rowsVec(rng, n)
			alpha, beta, on := rowsVec(rng, w), rowsVec(rng, w), rowsVec(rng, w)
			on[0] = 0
			p, r := rowsVec(rng, rows), rowsVec(rng, rows)
			c := w + 3
			x := rowsVec(rng, (hi-lo-1)*c+w)
			p32 := make([]float32, (hi-lo)*8)
			for e := range p32 {
				p32[e] = float32(rng.NormFloat64())
			}
			x1, p1, f1 := slices.Clone(x), slices.Clone(p), slices.Clone(p32)
			x2, p2, f2 := slices.Clone(x), slices.Clone(p), slices.Clone(p32)
			require.True(t, stepRows32SIMD(x1, c, p1, r, tt, u, alpha, beta, on, f1, w, lo, hi))
			require.True(t, stepRows32W(x2, c, p2, r, tt, u, alpha, beta, on, f2, w, lo, hi))
			requireBitwise(t, "stepRows32", w, x1, x2, p1, p2)
			for e := range f1 {
				if math.Float32bits(f1[e]) != math.Float32bits(f2[e]) {
					t.Fatalf("stepRows32 p32, w = %d, rows [%d, %d), entry %d: %v, want %v", w, lo, hi, e, f1[e], f2[e])
				}
			}

			s, q := rowsVec(rng, (hi-lo)*8), rowsVec(rng, rows)
			diag, left, d := rowsVec(rng, n), rowsVec(rng, n), rowsVec(rng, n)
			acc, accD := rowsVec(rng, w), rowsVec(rng, w)
			for _, dd := range [][]float64{nil, d} {
				a1, z1, r1 := slices.Clone(acc), slices.Clone(accD), slices.Clone(r)
				a2, z2, r2 := slices.Clone(acc), slices.Clone(accD), slices.Clone(r)
				require.True(t, updateRowsSIMD(a1, z1, alpha, r1, q, tt, dd, w, lo, hi))
				require.True(t, updateRowsW(a2, z2, alpha, r2, q, tt, dd, w, lo, hi))
				requireBitwise(t, "updateRows", w, r1, r2, a1, a2, z1, z2)
			}
			for _, sums := range []bool{false, true} {
				for _, dd := range [][]float64{nil, d} {
					var a1, z1, a2, z2 []float64
					if sums {
						a1, z1, a2, z2 = slices.Clone(acc), slices.Clone(accD), slices.Clone(acc), slices.Clone(accD)
					}
					q1, q2 := slices.Clone(q), slices.Clone(q)
					require.True(t, finish32SIMD(a1, z1, q1, p, s, diag, left, u, dd, w, lo, hi))
					require.True(t, finish32W(a2, z2, q2, p, s, diag, left, u, dd, w, lo, hi))
					requireBitwise(t, "finish32", w, q1, q2, a1, a2, z1, z2)
				}
			}
		}
	}
	require.False(t, stepRows32SIMD(nil, 0, nil, nil, nil, nil, nil, nil, nil, nil, rowsMaxW+1, 0, 1))
	require.False(t, stepRows32SIMD(nil, 0, nil, nil, nil, nil, nil, nil, nil, nil, 4, 0, 1))
	require.False(t, stepRows32SIMD(nil, 0, nil, nil, nil, nil, nil, nil, nil, nil, 5, 3, 3))
	require.False(t, finish32SIMD(nil, nil, nil, nil, nil, nil, nil, nil, nil, 4, 0, 1))
	require.False(t, updateRowsSIMD(nil, nil, nil, nil, nil, nil, nil, 9, 0, 1))
}

// BenchmarkRowKernels times the row passes of a 5-column panel of 100 000
// rows, the benchmark graphs' shape, by the Go and the assembly kernels.
func BenchmarkRowKernels(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	n, w := benchRows, 5
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		return v
	}
	unit := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64() / 2
		}
		return v
	}
	// |on_j·β_j| < 1 and t_i < 1 keep p bounded (no subnormals or
	// overflow) over the repeated steps
	tt, u, alpha, beta, on := unit(n), unit(n), vec(w), unit(w), unit(w)
	p, r, x := vec(n*w), vec(n*w), vec(n*w)
	p32 := make([]float32, n*8)
	q, d, acc, accD := vec(n*w), unit(n), vec(w), vec(w)
	s := vec(gather32Rows * 8)
	for _, asm := range []bool{false, true} {
		name := "go"
		if asm {
			name = "asm"
		}
		b.Run("stepRows32/"+name, func(b *testing.B) {
			if asm && !hasRowsAVX2 {
				b.Skip("no AVX2")
			}
			for b.Loop() {
				if !asm || !stepRows32SIMD(x, w, p, r, tt, u, alpha, beta, on, p32, w, 0, n) {
					stepRows32W(x, w, p, r, tt, u, alpha, beta, on, p32, w, 0, n)
				}
			}
		})
		// finish32 as mul32Rows runs it: blocks of gather32Rows rows,
		// deflated, with the sums
		b.Run("finish32/"+name, func(b *testing.B) {
			if asm && !hasRowsAVX2 {
				b.Skip("no AVX2")
			}
			for b.Loop() {
				for r0 := 0; r0 < n; r0 += gather32Rows {
					r1 := min(r0+gather32Rows, n)
					pb, qb := p[r0*w:r1*w], q[r0*w:r1*w]
					if !asm || !finish32SIMD(acc, accD, qb, pb, s, tt, u, u, d, w, r0, r1) {
						finish32W(acc, accD, qb, pb, s, tt, u, u, d, w, r0, r1)
					}
				}
			}
		})
		b.Run("updateRows/"+name, func(b *testing.B) {
			if asm && !hasRowsAVX2 {
				b.Skip("no AVX2")
			}
			small := unit(w) // keeps r bounded
			for b.Loop() {
				if !asm || !updateRowsSIMD(acc, accD, small, r, q, tt, d, w, 0, n) {
					updateRowsW(acc, accD, small, r, q, tt, d, w, 0, n)
				}
			}
		})
	}
}

// benchRows is the row count of BenchmarkRowKernels, GSSL_LP_ROWS if set
// (2000 rows stay in L2).
var benchRows = envInt("GSSL_LP_ROWS", 100000)

// envInt returns the integer value of the environment variable name, or
// def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}
