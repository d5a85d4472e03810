package knngraph

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gssl/gssl/internal/sharedtest"
)

// groundTruth is one line of a knn.py ground-truth file.
type groundTruth struct {
	query int
	index []int32
	dist2 []float64
}

// readGroundTruth parses shared/bench/groundtruth/NAME (written by
// shared/bench/peers/knn.py): "query nbr_1..nbr_k | d2_1..d2_k" per line.
func readGroundTruth(t testing.TB, name string) []groundTruth {
	t.Helper()
	path := sharedtest.Path(t, filepath.Join("bench", "groundtruth", name))
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []groundTruth
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if strings.HasPrefix(s, "#") || strings.TrimSpace(s) == "" {
			continue
		}
		left, right, ok := strings.Cut(s, "|")
		if !ok {
			t.Fatalf("%s:%d: no '|' separator", path, line)
		}
		l, r := strings.Fields(left), strings.Fields(right)
		if len(l) != len(r)+1 {
			t.Fatalf("%s:%d: %d indices for %d distances", path, line, len(l)-1, len(r))
		}
		var g groundTruth
		for i, f := range l {
			v, err := strconv.Atoi(f)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			if i == 0 {
				g.query = v
			} else {
				g.index = append(g.index, int32(v))
			}
		}
		for _, f := range r {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			g.dist2 = append(g.dist2, v)
		}
		out = append(out, g)
	}
	return out
}
