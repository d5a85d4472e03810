package loaders

import (
	"errors"
	"fmt"
	"io"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/internal/inputfile"
)

// Images is a set of equally sized 8-bit images stored back to back: image
// k is Data[k·Pixels : (k+1)·Pixels], row-major.
type Images struct {
	Count  int
	Pixels int
	Data   []byte
}

// ReadImages reads a raw uint8 image file (gzipped or not) with pixels bytes
// per image and no header, such as images_u8.bin.gz (784 bytes per 28×28
// image, 64 per 8×8 digit). The whole stream is decoded (every member of a
// multi-member gzip file); a size that is not a positive multiple of pixels,
// and pixels ≤ 0, are errors.
func ReadImages(path string, pixels int) (*Images, error) {
	if pixels <= 0 {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d pixels per image is invalid: it must be ≥ 1", pixels)}
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	return decodeImages(f, path, pixels)
}

// ReadImagesCount reads a raw uint8 image file that holds count images (the
// count of a companion labels file, say) and finds the pixels per image as
// the decoded size divided by count, which must divide it exactly. The size
// is that of the whole decoded stream, never a gzip trailer (ISIZE is the
// size modulo 2³² of the last member only). count ≤ 0 is an error.
func ReadImagesCount(path string, count int) (*Images, error) {
	if count <= 0 {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d images is invalid: it must be ≥ 1", count)}
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	data, err := readImageBytes(f, path)
	if err != nil {
		return nil, err
	}
	if len(data)%count != 0 || len(data) < count {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d bytes do not make %d equally sized images: the count must divide the size", len(data), count)}
	}
	return &Images{Count: count, Pixels: len(data) / count, Data: data}, nil
}

// readImageBytes decodes the whole content of an image file.
func readImageBytes(r io.Reader, path string) ([]byte, error) {
	br, err := decompress(r, path)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(br)
	if err != nil {
		msg := fmt.Sprintf("reading after %d bytes", len(data))
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = fmt.Sprintf("truncated input after %d bytes", len(data))
		}
		return nil, &ParseError{Path: path, Msg: msg, Err: err}
	}
	return data, nil
}

func decodeImages(r io.Reader, path string, pixels int) (*Images, error) {
	data, err := readImageBytes(r, path)
	if err != nil {
		return nil, err
	}
	if len(data)%pixels != 0 {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d bytes is not a multiple of %d pixels per image", len(data), pixels)}
	}
	return &Images{Count: len(data) / pixels, Pixels: pixels, Data: data}, nil
}

// Image returns the bytes of image k, a view into Data.
func (im *Images) Image(k int) []byte {
	if k < 0 || k >= im.Count {
		panic("loaders: image index out of range")
	}
	return im.Data[k*im.Pixels : (k+1)*im.Pixels : (k+1)*im.Pixels]
}

// PixelScale is the factor Dense applies to the bytes: 1/255 maps 0..255 to
// [0, 1], the usual scaling of MNIST pixels.
const PixelScale = 1.0 / 255

// Dense returns the listed images, in order, as the rows of a
// len(idx)×Pixels matrix of pixel·PixelScale; nil idx means every image. An
// empty selection gives an empty mat.Dense. Dense panics if an index is out
// of range.
func (im *Images) Dense(idx []int) *mat.Dense {
	if idx == nil {
		return im.DenseRange(0, im.Count)
	}
	if len(idx) == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(len(idx), im.Pixels, nil)
	raw := d.RawMatrix()
	for r, k := range idx {
		scaleRow(raw.Data[r*raw.Stride:r*raw.Stride+im.Pixels], im.Image(k))
	}
	return d
}

// DenseRange returns images lo..hi−1 (the first N with lo = 0, hi = N) as the
// rows of a matrix of pixel·PixelScale. It panics unless 0 ≤ lo ≤ hi ≤ Count.
func (im *Images) DenseRange(lo, hi int) *mat.Dense {
	if lo < 0 || hi < lo || hi > im.Count {
		panic("loaders: image range out of bounds")
	}
	if lo == hi {
		return &mat.Dense{}
	}
	d := mat.NewDense(hi-lo, im.Pixels, nil)
	scaleRow(d.RawMatrix().Data, im.Data[lo*im.Pixels:hi*im.Pixels])
	return d
}

// BytesRange is DenseRange without the scaling: the pixel bytes 0..255 as
// float64, so that squared distances between images are exact integers
// (the exact KNN search runs on them). It panics unless 0 ≤ lo ≤ hi ≤ Count.
func (im *Images) BytesRange(lo, hi int) *mat.Dense {
	if lo < 0 || hi < lo || hi > im.Count {
		panic("loaders: image range out of bounds")
	}
	if lo == hi {
		return &mat.Dense{}
	}
	d := mat.NewDense(hi-lo, im.Pixels, nil)
	raw := d.RawMatrix().Data
	for i, b := range im.Data[lo*im.Pixels : hi*im.Pixels] {
		raw[i] = float64(b)
	}
	return d
}

func scaleRow(dst []float64, src []byte) {
	for i, b := range src {
		dst[i] = float64(b) * PixelScale
	}
}

// ReadInts reads one integer per line (labels.txt, train_digits.txt, index
// lists). Lines starting with '#' are comments; blank lines may only end the
// file.
func ReadInts(path string) ([]int, error) {
	return readFile(path, decodeInts)
}

func decodeInts(lr *lineReader) ([]int, error) {
	return decodeLines(lr, "#", 0, "no values", func(s string) (int, error) { return parseInt(s, "value") })
}

// ReadFloats reads one finite number per line (angles, regression targets),
// with the same comment and blank-line rules as ReadInts.
func ReadFloats(path string) ([]float64, error) {
	return readFile(path, decodeFloats)
}

func decodeFloats(lr *lineReader) ([]float64, error) {
	return decodeLines(lr, "#", 0, "no values", func(s string) (float64, error) { return parseFinite(s, "value") })
}
