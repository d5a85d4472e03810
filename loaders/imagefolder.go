package loaders

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// ImageSet is a labelled image set in the layout of shared/data/mnist and
// digits8x8:
//
//	images_u8.bin.gz  raw uint8 images back to back, no header (ReadImages)
//	labels.txt        line i = the class of image i (ReadInts), as written
//	origin.txt        optional; line i = "train j" or "test j": the part of
//	                  the original data set image i comes from
type ImageSet struct {
	Path        string  // the images file
	Images      *Images // every image
	Labels      []int   // one per image, or nil when there is no labels.txt
	Train, Test []int   // image indices of origin.txt's two parts; nil without origin.txt
}

// ReadImageSet reads path: a folder in the ImageSet layout, or a raw image
// file (labels.txt and origin.txt beside it are read when present). pixels
// > 0 gives the bytes per image; pixels = 0 finds it as the decoded size
// divided by the number of labels, which must divide it exactly (784, one
// 28×28 image, without labels). The size is that of the whole decoded
// stream, never a gzip trailer.
func ReadImageSet(path string, pixels int) (*ImageSet, error) {
	if pixels < 0 {
		return nil, fmt.Errorf("loaders: %d pixels per image is invalid: it must be ≥ 0 (0: from the labels)", pixels)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	file, dir := path, filepath.Dir(path)
	if st.IsDir() {
		file, dir = filepath.Join(path, "images_u8.bin.gz"), path
	}
	set := &ImageSet{Path: file}
	labelsPath := filepath.Join(dir, "labels.txt")
	if _, err := os.Stat(labelsPath); err == nil {
		if set.Labels, err = ReadInts(labelsPath); err != nil {
			return nil, err
		}
	} else if st.IsDir() {
		return nil, fmt.Errorf("loaders: %s: no labels.txt in the image folder", path)
	}
	if pixels > 0 {
		set.Images, err = ReadImages(file, pixels)
	} else if set.Labels != nil {
		set.Images, err = readImagesCount(file, len(set.Labels), labelsPath)
	} else {
		set.Images, err = ReadImages(file, 784)
	}
	if err != nil {
		return nil, err
	}
	if set.Labels != nil && len(set.Labels) != set.Images.Count {
		return nil, fmt.Errorf("loaders: %s: %d labels for the %d images of %d pixels in %s", labelsPath, len(set.Labels), set.Images.Count, set.Images.Pixels, file)
	}
	originPath := filepath.Join(dir, "origin.txt")
	if _, err := os.Stat(originPath); err == nil {
		if set.Train, set.Test, err = readOrigin(originPath, set.Images.Count); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// readImagesCount reads count images of equal size from path: the pixels
// per image are the decoded size divided by count.
func readImagesCount(path string, count int, countFrom string) (*Images, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loaders: %w", err)
	}
	defer f.Close()
	br, err := decompress(f, path)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(br)
	if err != nil {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("reading after %d bytes", len(data)), Err: err}
	}
	if len(data) < count || len(data)%count != 0 {
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("%d bytes do not make %d equally sized images (one per line of %s); give the pixels per image", len(data), count, countFrom)}
	}
	return &Images{Count: count, Pixels: len(data) / count, Data: data}, nil
}

// readOrigin reads origin.txt: line i is "train j" or "test j".
func readOrigin(path string, n int) (train, test []int, err error) {
	lr, err := openLines(path)
	if err != nil {
		return nil, nil, err
	}
	defer lr.close()
	i := 0
	err = lr.eachLine("#", blankTrailing, func(s string) error {
		part := strings.Fields(s)[0]
		switch part {
		case "train":
			train = append(train, i)
		case "test":
			test = append(test, i)
		default:
			return fmt.Errorf("%q: want \"train j\" or \"test j\"", s)
		}
		i++
		if i > n {
			return fmt.Errorf("more lines than the %d images", n)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if i != n {
		return nil, nil, lr.fileErrorf("%d lines for %d images", i, n)
	}
	return train, test, nil
}

// ImageRegression is a regression data set of images in the layout of
// shared/data/srmnist:
//
//	train_images_u8.bin.gz, test_images_u8.bin.gz  raw uint8 images
//	train_angles.txt, test_angles.txt              one target per image
//
// X and XTest hold the pixels/255.
type ImageRegression struct {
	X, XTest      *mat.Dense
	Y, YTest      []float64
	Pixels        int
	Train, Tested string // the two image files
}

// ReadImageRegression reads an ImageRegression folder. The pixels per image
// are the training file's decoded size divided by the number of training
// targets; the test file must have the same.
func ReadImageRegression(dir string) (*ImageRegression, error) {
	r := &ImageRegression{Train: filepath.Join(dir, "train_images_u8.bin.gz"), Tested: filepath.Join(dir, "test_images_u8.bin.gz")}
	var err error
	if r.Y, err = ReadFloats(filepath.Join(dir, "train_angles.txt")); err != nil {
		return nil, err
	}
	if r.YTest, err = ReadFloats(filepath.Join(dir, "test_angles.txt")); err != nil {
		return nil, err
	}
	tr, err := readImagesCount(r.Train, len(r.Y), filepath.Join(dir, "train_angles.txt"))
	if err != nil {
		return nil, err
	}
	te, err := ReadImages(r.Tested, tr.Pixels)
	if err != nil {
		return nil, err
	}
	if te.Count != len(r.YTest) {
		return nil, fmt.Errorf("loaders: %s holds %d images of %d pixels but test_angles.txt %d targets", r.Tested, te.Count, tr.Pixels, len(r.YTest))
	}
	r.Pixels = tr.Pixels
	r.X, r.XTest = tr.DenseRange(0, tr.Count), te.DenseRange(0, te.Count)
	return r, nil
}
