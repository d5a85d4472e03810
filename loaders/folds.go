package loaders

import (
	"fmt"
	"strconv"
	"strings"
)

// ReadFolds reads fixed fold assignments, as shared/bench/peers/wl.py
// writes them: line s holds the fold id of every one of n items for
// repetition s, separated by white space or commas; '#' lines are comments.
// At least count lines are needed (only the first count are read). A fold
// id is an integer in [0, n): there cannot be more non-empty folds than
// items, so a larger id is an error, never an allocation.
func ReadFolds(path string, n, count int) ([][]int, error) {
	if n < 1 || count < 1 {
		return nil, fmt.Errorf("loaders: ReadFolds: n=%d, count=%d: both must be ≥ 1", n, count)
	}
	return readFile(path, func(lr *lineReader) ([][]int, error) { return decodeFolds(lr, n, count) })
}

func decodeFolds(lr *lineReader, n, count int) ([][]int, error) {
	var out [][]int
	for len(out) < count && lr.next() {
		s := strings.TrimSpace(lr.text)
		if s == "" || s[0] == '#' {
			continue
		}
		fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
		if len(fields) != n {
			return nil, lr.errorf("%d fold ids, want %d (one per item)", len(fields), n)
		}
		row := make([]int, n)
		for i, x := range fields {
			v, err := strconv.Atoi(x)
			if err != nil || v < 0 || v >= n {
				return nil, lr.errorf("fold id %q of item %d is invalid: it must be an integer in [0, %d)", x, i, n)
			}
			row[i] = v
		}
		out = append(out, row)
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if len(out) < count {
		return nil, lr.fileErrorf("%d fold assignments, fewer than the %d needed", len(out), count)
	}
	return out, nil
}
