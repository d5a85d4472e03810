package graphfile

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gssl/gssl/graph"
	"github.com/gssl/gssl/nodeids"
)

// fixChecksums rewrites the section and header checksums of a mutated file
// so that the fuzzer reaches the structure checks behind them, as a buggy
// writer with correct checksums would.
func fixChecksums(b []byte) {
	if len(b) < HeaderSize {
		return
	}
	le := binary.LittleEndian
	for s := 0; s < numSections; s++ {
		e := b[64+24*s:]
		off, n := le.Uint64(e), le.Uint64(e[8:])
		if n > 0 && off <= uint64(len(b)) && n <= uint64(len(b))-off {
			le.PutUint32(e[16:], crc32.Checksum(b[off:off+n], castagnoli))
		}
	}
	le.PutUint32(b[252:], crc32.Checksum(b[:252], castagnoli))
}

// FuzzOpen checks that no file crashes Open or Read, and that an accepted
// graph is a valid one: every row readable, columns ascending and in range,
// W symmetric, products computable.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	add := func(g *graph.CSR, ids *nodeids.Map, opt WriteOptions) {
		p := filepath.Join(dir, "seed.gsg")
		if err := WriteWith(p, g, ids, opt); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	g, _ := graph.FromEdges(5, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 1, V: 2, W: 2}, {U: 0, V: 4, W: 1}, {U: 3, V: 3, W: 4}}, graph.Options{})
	names, _ := nodeids.FromStrings([]string{"a", "b", "c", "d", "e"})
	add(g, names, WriteOptions{})
	add(g, nil, WriteOptions{Float32Weights: true})
	u, _ := graph.FromEdges(4, []graph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}}, graph.Options{})
	ints, _ := nodeids.FromInts([]int64{5, 6, 9, 100})
	add(u, ints, WriteOptions{})

	f.Fuzz(func(t *testing.T, b []byte, fix bool) {
		b = append([]byte(nil), b...)
		if fix {
			fixChecksums(b)
		}
		p := filepath.Join(t.TempDir(), "f.gsg")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if g, _, err := Read(p); err == nil {
			checkValid(t, g)
		}
		for _, v := range []Verify{VerifyAll, VerifyStructure, VerifyNone} {
			file, err := OpenWith(p, OpenOptions{Verify: v})
			if err != nil {
				continue
			}
			if v != VerifyNone {
				checkValid(t, file.Graph)
			}
			if err := file.Close(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func checkValid(t *testing.T, g *graph.CSR) {
	n := g.Nodes()
	for i := 0; i < n; i++ {
		cols, ws := g.Row(i)
		for k, c := range cols {
			if c < 0 || int(c) >= n || (k > 0 && cols[k-1] >= c) {
				t.Fatalf("row %d: bad columns %v", i, cols)
			}
			if g.Weight(int(c), i) != ws[k] {
				t.Fatalf("W not symmetric at (%d, %d)", i, c)
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1
	}
	dst := make([]float64, n)
	g.MulVecTo(dst, x)
}

// Random damage with the checksums fixed up reaches the structure checks:
// every accepted file is a valid graph (a deterministic slice of FuzzOpen
// for every test run).
func TestRandomDamageWithValidChecksums(t *testing.T) {
	g, err := graph.FromEdges(5, []graph.Edge{{U: 0, V: 1, W: 0.5}, {U: 1, V: 2, W: 2}, {U: 0, V: 4, W: 1}, {U: 3, V: 3, W: 4}}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names, _ := nodeids.FromStrings([]string{"a", "b", "c", "d", "e"})
	dir := t.TempDir()
	p := filepath.Join(dir, "seed.gsg")
	if err := Write(p, g, names); err != nil {
		t.Fatal(err)
	}
	b0, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	q := filepath.Join(dir, "damaged.gsg")
	rejected := 0
	const trials = 300
	for it := 0; it < trials; it++ {
		b := append([]byte(nil), b0...)
		for k := 0; k < 1+rng.IntN(3); k++ {
			b[HeaderSize+rng.IntN(len(b)-HeaderSize)] = byte(rng.Uint32())
		}
		fixChecksums(b)
		if err := os.WriteFile(q, b, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(q)
		if err != nil {
			rejected++
			continue
		}
		checkValid(t, f.Graph)
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Most damage breaks the structure; some (a weight changed on both
	// sides, an id renamed) leaves a valid file.
	if rejected < trials/2 {
		t.Fatalf("only %d of %d damaged files rejected", rejected, trials)
	}
}
