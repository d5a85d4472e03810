package loaders

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"
)

// scanPairBytewise is scanPair as it was written first, a digit at a time:
// the reference the word-wise parser is checked against.
func scanPairBytewise(b []byte) (u, v int64, kind byte, end int, ok bool) {
	n := len(b)
	i := 0
	for i < n && b[i]-'0' <= 9 {
		u = u*10 + int64(b[i]-'0')
		i++
	}
	du := i
	if du == 0 || du > 18 || (b[0] == '0' && du > 1) || i == n {
		return 0, 0, 0, 0, false
	}
	kind = ' '
	switch b[i] {
	case ',':
		kind = ','
		i++
	case ' ', '\t':
		for i < n && (b[i] == ' ' || b[i] == '\t') {
			if b[i] == '\t' {
				kind = '\t'
			}
			i++
		}
	default:
		return 0, 0, 0, 0, false
	}
	j := i
	for i < n && b[i]-'0' <= 9 {
		v = v*10 + int64(b[i]-'0')
		i++
	}
	dv := i - j
	if dv == 0 || dv > 18 || (b[j] == '0' && dv > 1) {
		return 0, 0, 0, 0, false
	}
	return u, v, kind, i, true
}

// edgeBytes are the bytes the parser tests draw from: digits, the
// separators, and the neighbours of the digit range in value and in
// nibbles, where a word-wise digit test could go wrong.
var edgeBytes = []byte("0123456789 \t,\r\n/:?@-+.e\x00\x06\x39\x3a\x3f\x40\x70\xb0\xb9\xfa\xff")

// TestDigits8 checks digits8 against a byte-at-a-time count and value on
// random words, including every word of a digit run followed by each byte
// value.
func TestDigits8(t *testing.T) {
	check := func(w [8]byte) {
		t.Helper()
		k, v := 0, uint64(0)
		for k < 8 && w[k]-'0' <= 9 {
			v = v*10 + uint64(w[k]-'0')
			k++
		}
		gk, gv := digits8(binary.LittleEndian.Uint64(w[:]))
		if gk != k || gv != v {
			t.Fatalf("digits8(%q) = %d, %d, want %d, %d", w[:], gk, gv, k, v)
		}
	}
	for run := 0; run <= 8; run++ {
		for c := 0; c < 256; c++ {
			for _, fill := range []byte{'9', 0xff, 0x00, '0'} {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				for i := 0; i < run; i++ {
					w[i] = byte('0' + (i*7+run)%10)
				}
				if run < 8 {
					w[run] = byte(c)
				}
				check(w)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w [8]byte
		for i := range w {
			w[i] = edgeBytes[rng.IntN(len(edgeBytes))]
		}
		check(w)
	}
}

// TestScanPairMatchesBytewise compares scanPair with the byte-at-a-time
// reference on random lines: digit runs of every length up to 21 (past the
// 18-digit limit and int64) with separators and stray bytes, in buffers
// that end anywhere, so that both the eight-byte path and the tail run.
func TestScanPairMatchesBytewise(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	digits := func(b []byte) []byte {
		n := rng.IntN(22)
		for i := 0; i < n; i++ {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		return b
	}
	seps := []string{" ", "\t", ",", "  ", " \t", ";", "", ", "}
	accepted := 0
	for range 300000 {
		var b []byte
		b = digits(b)
		b = append(b, seps[rng.IntN(len(seps))]...)
		b = digits(b)
		for n := rng.IntN(12); n > 0; n-- {
			b = append(b, edgeBytes[rng.IntN(len(edgeBytes))])
		}
		if len(b) > 0 && rng.IntN(4) == 0 {
			b[rng.IntN(len(b))] = edgeBytes[rng.IntN(len(edgeBytes))]
		}
		b = b[:rng.IntN(len(b)+1)]
		u, v, kind, end, ok := scanPairBytewise(b)
		var l fastLine
		gend, gok := l.scanPair(b)
		if gok != ok || ok && (gend != end || l.u != u || l.v != v || l.kind != kind ||
			string(l.fields[0]) != string(b[:len(l.fields[0])]) || string(l.fields[1]) != string(b[end-len(l.fields[1]):end])) {
			t.Fatalf("scanPair(%q) = %d %v (%d %d %q), want %d %v (%d %d %q)", b, gend, gok, l.u, l.v, l.kind, end, ok, u, v, kind)
		}
		if ok {
			accepted++
		}
	}
	if accepted < 10000 {
		t.Fatalf("only %d of the random lines were pairs; the test does not reach the parser's fast path", accepted)
	}
}

func BenchmarkScanPair(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	var buf []byte
	for range 4096 {
		buf = strconv.AppendInt(buf, rng.Int64N(10_000_000), 10)
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, rng.Int64N(10_000_000), 10)
		buf = append(buf, '\n')
	}
	b.SetBytes(int64(len(buf)))
	var l fastLine
	for b.Loop() {
		rest := buf
		for len(rest) > 0 {
			end, ok := l.scanPair(rest)
			if !ok {
				b.Fatal("not a pair")
			}
			rest = rest[end+1:]
		}
	}
}
