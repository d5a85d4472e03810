// svmlight / libsvm feature files.
//
// The sparse text format of SVMlight (T. Joachims) and LIBSVM (C.-C. Chang,
// C.-J. Lin), as scikit-learn's dump_svmlight_file writes it: one sample per
// line,
//
//	<label> [qid:<query>] <index>:<value> <index>:<value> … [# comment]
//
// with indices strictly ascending, 1-based unless the file says otherwise
// (scikit-learn's zero_based), and features not listed equal to zero. The
// label is a number: a class (read as a float, the caller maps it) or a
// regression target. qid is read and ignored; multi-label lines ("1,3 …")
// are refused. Lines starting with '#' are comments; a blank line may only
// end the file, since line i of the data is sample i.

package loaders

import (
	"fmt"
	"strings"
)

// ReadSVMLight reads an svmlight/libsvm file (gzipped or not) into a sparse
// sample × feature matrix and the label of every sample. zeroBased says
// whether feature indices start at 0 (scikit-learn's zero_based=True) or at 1
// (the format's default). The number of columns is the largest index + 1.
func ReadSVMLight(path string, zeroBased bool) (*Sparse, []float64, error) {
	type result struct {
		s *Sparse
		y []float64
	}
	r, err := readFile(path, func(lr *lineReader) (result, error) {
		s, y, err := decodeSVMLight(lr, zeroBased)
		return result{s, y}, err
	})
	return r.s, r.y, err
}

func decodeSVMLight(lr *lineReader, zeroBased bool) (*Sparse, []float64, error) {
	base := 1
	if zeroBased {
		base = 0
	}
	s := &Sparse{Indptr: []int{0}}
	var labels []float64
	err := lr.eachLine("#", blankTrailing, func(line string) error {
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			return fmt.Errorf(`want "label index:value …", got only a comment`)
		}
		if strings.IndexByte(f[0], ',') >= 0 {
			return fmt.Errorf("multi-label line (labels %q) is not supported: want one label per sample", f[0])
		}
		if strings.IndexByte(f[0], ':') >= 0 {
			return fmt.Errorf(`want a label before the features, got %q`, f[0])
		}
		y, err := parseFinite(f[0], "label")
		if err != nil {
			return err
		}
		f = f[1:]
		if len(f) > 0 && strings.HasPrefix(f[0], "qid:") {
			if _, err := parseInt(f[0][4:], "qid"); err != nil {
				return err
			}
			f = f[1:]
		}
		prev := -1
		for _, tok := range f {
			is, vs, ok := strings.Cut(tok, ":")
			if !ok {
				return fmt.Errorf(`want "index:value", got %q`, tok)
			}
			if is == "qid" {
				return fmt.Errorf("qid:%s must come right after the label", vs)
			}
			idx, err := parseIndex(is, "feature index")
			if err != nil {
				return err
			}
			if idx < base {
				return fmt.Errorf("feature index %d in a 1-based file: indices start at 1 (read the file as zero-based if it was written with zero_based=True)", idx)
			}
			c := idx - base
			if c <= prev {
				return fmt.Errorf("feature index %d after %d: indices must be strictly ascending", idx, prev+base)
			}
			v, err := parseFinite(vs, "value")
			if err != nil {
				return fmt.Errorf("feature %d: %v", idx, err)
			}
			prev = c
			s.Cols = max(s.Cols, c+1)
			s.Indices = append(s.Indices, int32(c))
			s.Values = append(s.Values, v)
		}
		s.Indptr = append(s.Indptr, len(s.Indices))
		labels = append(labels, y)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(labels) == 0 {
		return nil, nil, lr.fileErrorf("no samples")
	}
	s.Rows = len(labels)
	return s, labels, nil
}
