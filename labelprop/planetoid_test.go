package labelprop

// TEMPORARY reader until loaders lands on main.

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gssl/gssl/graph"
)

type planetoid struct {
	g                *graph.CSR
	labels           []int
	train, val, test []int
}

// sharedData finds shared/data/name in a parent directory: ../../shared from
// a package of a checkout next to shared/ (as in CI), one more level up from
// a worktree under wt/.
func sharedData(t testing.TB, name string) string {
	for _, up := range []string{"../..", "../../.."} {
		p := filepath.Join(up, "shared", "data", name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatalf("shared/data/%s not found above the package directory", name)
	return ""
}

func readPlanetoid(t testing.TB, dir string) planetoid {
	var p planetoid
	lines := func(name string) [][]string {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		var out [][]string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			out = append(out, strings.Fields(sc.Text()))
		}
		return out
	}
	for _, l := range lines("labels.txt") {
		v, _ := strconv.Atoi(l[0])
		p.labels = append(p.labels, v)
	}
	var e []graph.Edge
	for _, l := range lines("edges.txt") {
		u, _ := strconv.Atoi(l[0])
		v, _ := strconv.Atoi(l[1])
		e = append(e, graph.Edge{U: u, V: v, W: 1})
	}
	g, err := graph.FromEdges(len(p.labels), e, graph.Options{Duplicates: graph.DuplicateMax, SelfLoops: graph.SelfLoopDrop})
	require.NoError(t, err)
	p.g = g
	for _, l := range lines("split_planetoid.txt") {
		v, _ := strconv.Atoi(l[1])
		switch l[0] {
		case "train":
			p.train = append(p.train, v)
		case "val":
			p.val = append(p.val, v)
		case "test":
			p.test = append(p.test, v)
		}
	}
	return p
}
