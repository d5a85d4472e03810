//go:build ignore

// Command pngpalette rewrites PNG files as paletted PNGs of at most 256
// colours, sixteen greys and the most frequent colours of the image, every
// other pixel mapped to the nearest of them (no dithering: a dithered heat map compresses worse
// than the original). gonum/plot writes RGBA with anti-aliased edges, so a
// figure of flat colours holds a few thousand nearly equal shades; the
// palette keeps the look and roughly halves the file. scripts/plot-examples.sh
// runs it on the example figures.
//
//	go run scripts/pngpalette.go FILE.png...
package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"sort"
)

func main() {
	for _, path := range os.Args[1:] {
		if err := rewrite(path); err != nil {
			fmt.Fprintln(os.Stderr, "pngpalette:", err)
			os.Exit(1)
		}
	}
}

func rewrite(path string) error {
	in, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	img, err := png.Decode(bytes.NewReader(in))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	b := img.Bounds()
	count := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	cs := make([]color.RGBA, 0, len(count))
	for c := range count {
		cs = append(cs, c)
	}
	// Most frequent first; ties by value, so that the output is the same
	// on every run.
	sort.Slice(cs, func(i, j int) bool {
		if count[cs[i]] != count[cs[j]] {
			return count[cs[i]] > count[cs[j]]
		}
		a, c := cs[i], cs[j]
		return uint32(a.R)<<24|uint32(a.G)<<16|uint32(a.B)<<8|uint32(a.A) < uint32(c.R)<<24|uint32(c.G)<<16|uint32(c.B)<<8|uint32(c.A)
	})
	// Sixteen greys first: anti-aliased black text must not take the
	// nearest shade of a heat map.
	pal := make(color.Palette, 0, 256)
	inPal := map[color.RGBA]bool{}
	for g := 0; g < 16; g++ {
		c := color.RGBA{R: uint8(17 * g), G: uint8(17 * g), B: uint8(17 * g), A: 255}
		pal, inPal[c] = append(pal, c), true
	}
	for _, c := range cs {
		if len(pal) == 256 {
			break
		}
		if !inPal[c] {
			pal, inPal[c] = append(pal, c), true
		}
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if buf.Len() >= len(in) {
		return nil // already small
	}
	fmt.Printf("%s: %d → %d bytes\n", path, len(in), buf.Len())
	return os.WriteFile(path, buf.Bytes(), 0o644)
}
