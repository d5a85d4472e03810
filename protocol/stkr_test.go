package protocol

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/eval"
	"github.com/gssl/gssl/krylov"
	"github.com/gssl/gssl/loaders"
	"github.com/gssl/gssl/stkr"
)

const coraDir = "../testdata/cora"

func loadCora(t testing.TB) (*loaders.NodeDataset, Task) {
	t.Helper()
	ds, err := loaders.LoadNodeDataset(coraDir)
	require.NoError(t, err)
	return ds, Task{Graph: ds.Graph, Labels: ds.Labels, Classes: ds.Classes}
}

// coraPlanetoid returns Cora's kernel, Planetoid train nodes and one-hot
// targets.
func coraPlanetoid(t testing.TB, ds *loaders.NodeDataset, task Task) (*stkr.GraphKernel, []int, *mat.Dense) {
	t.Helper()
	k, err := stkr.NewGraphKernel(task.Graph)
	require.NoError(t, err)
	train := ds.Split.Train
	y := mat.NewDense(len(train), task.Classes, nil)
	for p, i := range train {
		y.Set(p, task.Labels[i], 1)
	}
	return k, train, y
}

// krylovAdvantage is the requirement: a Krylov solver needs at
// most 1/5 of the products with M that Richardson needs for the same
// tolerance.
const krylovAdvantage = 5

// TestKrylovNeedsFewerProducts compares products with M on Cora's Planetoid
// split at the same tolerance, and checks that both reach the same
// predictions (to the accuracy their tolerances allow).
func TestKrylovNeedsFewerProducts(t *testing.T) {
	ds, task := loadCora(t)
	k, train, y := coraPlanetoid(t, ds, task)
	ctx := context.Background()
	cases := []struct {
		name            string
		tr              stkr.Transform
		beta            float64
		krylov, richard stkr.Solver
		agreement       float64 // relative difference of the predictions allowed
	}{
		// Algorithm 1 vs CG at 1e-6: both errors are ~κ·1e-6 relative.
		{"poly8", stkr.Power(8), 1, stkr.SolverCG, stkr.SolverRichardson, 1e-4},
		// Algorithm 2 vs MINRES at 1e-9, β large enough for Algorithm 2.
		{"inverse-laplacian", stkr.InverseLaplacian{Eta: 0.9}, 10, stkr.SolverMINRES, stkr.SolverRichardson, 1e-4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			kr := cls(&stkr.Regressor{Transform: c.tr, Beta: c.beta, Solver: c.krylov})
			require.NoError(t, kr.FitIndexed(ctx, k, train, y))
			ri := cls(&stkr.Regressor{Transform: c.tr, Beta: c.beta, Solver: c.richard})
			require.NoError(t, ri.FitIndexed(ctx, k, train, y))
			ks, rs := kr.Stats(), ri.Stats()
			t.Logf("%s: %s %d products (%d iterations), %s %d products (%d iterations)", c.name,
				ks.Solver, ks.MatVecs, ks.TotalIterations(), rs.Solver, rs.MatVecs, rs.TotalIterations())
			assert.LessOrEqual(t, krylovAdvantage*ks.MatVecs, rs.MatVecs)
			assert.Less(t, relDiff(mustPredict(t, ri), mustPredict(t, kr)), c.agreement)
		})
	}
}

// TestAlgorithm2DivergesForSmallBeta: on Cora with η = 0.9, β = 0.01 the
// paper's Algorithm 2 diverges (as stkr.py found); the error must say so,
// and the default solver must converge on the same problem.
func TestAlgorithm2DivergesForSmallBeta(t *testing.T) {
	ds, task := loadCora(t)
	k, train, y := coraPlanetoid(t, ds, task)
	r := cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.01, Solver: stkr.SolverRichardson, MaxIter: 5000})
	err := r.FitIndexed(context.Background(), k, train, y)
	var bd *krylov.BreakdownError
	require.ErrorAs(t, err, &bd)
	assert.Contains(t, err.Error(), "diverged")

	r = cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 0.01})
	require.NoError(t, r.FitIndexed(context.Background(), k, train, y))
	for _, res := range r.Stats().Residual {
		assert.LessOrEqual(t, res, stkr.DefaultLapTol)
	}
}

func TestPartition(t *testing.T) {
	split := eval.Split{Train: []int{5, 1}, Val: []int{2, 3}, Test: []int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}}
	p, err := NewPartition(40, split, 0.1, 7)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 5}, p.Train)
	assert.Len(t, p.Test, 4) // round(0.1·40)
	seen := map[int]int{}
	for _, part := range [][]int{p.Train, p.Val, p.Test, p.Other} {
		for _, i := range part {
			seen[i]++
		}
	}
	assert.Len(t, seen, 40)
	for i, c := range seen {
		assert.Equal(t, 1, c, "node %d", i)
	}
	for _, i := range p.Test {
		assert.Contains(t, split.Test, i)
	}
	again, err := NewPartition(40, split, 0.1, 7)
	require.NoError(t, err)
	assert.Equal(t, p, again, "same seed, same partition")
	all, err := NewPartition(40, split, 0, 7)
	require.NoError(t, err)
	assert.Equal(t, split.Test, all.Test)
	assert.Len(t, all.Other, 40-14)
	// Other is allocated at its size (no appends' garbage, no spare room),
	// with and without p_test.
	assert.Equal(t, len(all.Other), cap(all.Other))
	assert.Equal(t, len(p.Other), cap(p.Other))
	assert.Len(t, p.Other, 40-2-2-4)

	_, err = NewPartition(40, split, 0.5, 7)
	assert.ErrorContains(t, err, "asks for 20 test nodes but the split has only 10")
	_, err = NewPartition(40, split, 1.5, 7)
	assert.ErrorContains(t, err, "p_test=1.5 is invalid")
	_, err = NewPartition(40, eval.Split{Train: []int{1}, Test: []int{1}}, 0, 7)
	assert.ErrorContains(t, err, "node 1 is in two parts")
	_, err = NewPartition(40, eval.Split{Train: []int{1}, Test: []int{40}}, 0, 7)
	assert.ErrorContains(t, err, "split node 40 out of range [0, 40)")
}

// TestInductiveHidesValAndTest: in the inductive setting the fit sees
// train ∪ other only, and a hidden node's prediction equals the model's
// prediction from its edges to visible nodes computed by hand.
func TestInductiveHidesValAndTest(t *testing.T) {
	ds, task := loadCora(t)
	part, err := NewPartition(task.Graph.Nodes(), *ds.Split, 0.01, 1)
	require.NoError(t, err)
	prep, err := PrepareSTKR(task, part, Inductive)
	require.NoError(t, err)
	assert.Equal(t, len(part.Train)+len(part.Other), prep.Visible)
	tr, err := PrepareSTKR(task, part, Transductive)
	require.NoError(t, err)
	assert.Equal(t, task.Graph.Nodes(), tr.Visible)

	r := cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 10})
	out, err := prep.Evaluate(context.Background(), r)
	require.NoError(t, err)
	require.NoError(t, out.Err)
	// 27 test nodes: accuracy is a multiple of 1/27.
	assert.InDelta(t, 0, out.TestAccuracy*27-float64(int(out.TestAccuracy*27+0.5)), 1e-9)
	assert.Greater(t, out.ValAccuracy, 0.4, "propagation works on hidden val nodes")

	_, err = PrepareSTKR(Task{Graph: task.Graph, Labels: task.Labels[:5], Classes: 7}, part, Inductive)
	assert.ErrorContains(t, err, "5 labels for a graph of 2708 nodes")
}

// TestInductiveTestOnlyKeepsValVisible: the looser setting hides only the
// test nodes; val nodes are in the fitted graph and their scores are the
// transductive predictions on it.
func TestInductiveTestOnlyKeepsValVisible(t *testing.T) {
	ds, task := loadCora(t)
	part, err := NewPartition(task.Graph.Nodes(), *ds.Split, 0.01, 2)
	require.NoError(t, err)
	prep, err := PrepareSTKR(task, part, InductiveTestOnly)
	require.NoError(t, err)
	assert.Equal(t, task.Graph.Nodes()-len(part.Test), prep.Visible)
	r := cls(&stkr.Regressor{Transform: stkr.InverseLaplacian{Eta: 0.9}, Beta: 10})
	out, err := prep.Evaluate(context.Background(), r)
	require.NoError(t, err)
	f := mustPredict(t, r)
	right := 0
	for _, i := range part.Val {
		local := -1
		for l, id := range prep.valAt {
			if part.Val[l] == i {
				local = id
			}
		}
		row := f.RawRowView(local)
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		if best == task.Labels[i] {
			right++
		}
	}
	assert.InDelta(t, float64(right)/float64(len(part.Val)), out.ValAccuracy, 0.01, "val scored transductively (zero-score nodes aside)")
	s, err := ParseSetting("inductive-test-only")
	require.NoError(t, err)
	assert.Equal(t, InductiveTestOnly, s)
}

// TestChooseInductiveRefits: in the Inductive setting ChooseSTKR picks the
// candidate with the best val accuracy on the view with val and test hidden
// (the same choice as InductiveStrict, first on ties), then predicts test
// from a refit with val visible, which is exactly InductiveTestOnly's fit
// of the chosen candidate (checked against dense algebra in
// TestInductiveSettingsMatchDense); InductiveStrict predicts test from the
// selection fit itself.
func TestChooseInductiveRefits(t *testing.T) {
	ds, task := loadCora(t)
	n := task.Graph.Nodes()
	part, err := NewPartition(n, *ds.Split, 0.01, 3)
	require.NoError(t, err)
	ctx := context.Background()
	cands := func() []*stkr.Classifier {
		var out []*stkr.Classifier
		for _, beta := range []float64{0.01, 1, 100} {
			out = append(out, cls(&stkr.Regressor{Transform: stkr.Polynomial{Coeffs: []float64{0, 1}}, Beta: beta}))
		}
		return out
	}

	view, err := PrepareSTKR(task, part, InductiveStrict)
	require.NoError(t, err)
	var vals []float64
	want := 0
	for i, r := range cands() {
		o, err := view.Evaluate(ctx, r)
		require.NoError(t, err)
		require.NoError(t, o.Err)
		vals = append(vals, o.ValAccuracy)
		if o.ValAccuracy > vals[want] {
			want = i
		}
	}
	testOnly, err := PrepareSTKR(task, part, InductiveTestOnly)
	require.NoError(t, err)
	refit, err := testOnly.Evaluate(ctx, cands()[want])
	require.NoError(t, err)

	c, err := ChooseSTKR(ctx, task, part, Inductive, cands())
	require.NoError(t, err)
	assert.Equal(t, want, c.Best)
	assert.True(t, c.Refitted)
	assert.Equal(t, n-len(part.Test), c.Visible)
	for i, o := range c.Candidates {
		assert.Equal(t, vals[i], o.ValAccuracy, "candidate %d scored with val hidden", i)
	}
	assert.Equal(t, vals[want], c.Final.ValAccuracy, "the val accuracy reported is the selection's")
	assert.Equal(t, refit.TestAccuracy, c.Final.TestAccuracy)
	assert.Equal(t, refit.TestCorrect, c.Final.TestCorrect)
	assert.Equal(t, len(part.Test), c.Final.TestScored)

	strict, err := ChooseSTKR(ctx, task, part, InductiveStrict, cands())
	require.NoError(t, err)
	assert.Equal(t, want, strict.Best)
	assert.False(t, strict.Refitted)
	assert.Equal(t, n-len(part.Test)-len(part.Val), strict.Visible)
	assert.Equal(t, strict.Candidates[want], strict.Final)

	for _, s := range []Setting{Transductive, Inductive, InductiveStrict, InductiveTestOnly} {
		got, err := ParseSetting(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
	_, err = ParseSetting("online")
	assert.ErrorContains(t, err, `unknown setting "online": want transductive, inductive, inductive-strict, inductive-test-only`)
}

// TestTestChunks: the chunks partition the split's test nodes, each chunk's
// partition covers every node once, the first chunk is NewPartition's test
// set, and bad p_test values are refused.
func TestTestChunks(t *testing.T) {
	split := eval.Split{Train: []int{5, 1}, Val: []int{2, 3}, Test: []int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}}
	parts, err := TestChunks(40, split, 0.1, 7)
	require.NoError(t, err)
	require.Len(t, parts, 3) // 10 test nodes in chunks of round(0.1·40) = 4: 4, 4, 2
	first, err := NewPartition(40, split, 0.1, 7)
	require.NoError(t, err)
	assert.Equal(t, first, parts[0])
	scored := map[int]int{}
	for k, p := range parts {
		assert.Len(t, p.Test, []int{4, 4, 2}[k])
		seen := map[int]int{}
		for _, set := range [][]int{p.Train, p.Val, p.Test, p.Other} {
			for _, i := range set {
				seen[i]++
			}
		}
		assert.Len(t, seen, 40, "chunk %d covers every node", k)
		for i, c := range seen {
			assert.Equal(t, 1, c, "chunk %d node %d", k, i)
		}
		for _, i := range p.Test {
			scored[i]++
		}
	}
	assert.Len(t, scored, len(split.Test))
	for _, i := range split.Test {
		assert.Equal(t, 1, scored[i], "test node %d is in exactly one chunk", i)
	}
	_, err = TestChunks(40, split, 0, 7)
	assert.ErrorContains(t, err, "p_test=0 is invalid: it must be in (0, 1)")
	_, err = TestChunks(40, split, 0.5, 7)
	assert.ErrorContains(t, err, "asks for 20 test nodes but the split has only 10")
}

// TestTestChunksTransductiveEqualsWholeTestSet: in the transductive setting
// test and other nodes are both visible and unlabelled, so the chunks' fits
// are the same fit and their test counts add up to the accuracy on the whole
// test set (p_test 0).
func TestTestChunksTransductiveEqualsWholeTestSet(t *testing.T) {
	ds, task := loadCora(t)
	n := task.Graph.Nodes()
	whole, err := NewPartition(n, *ds.Split, 0, 3)
	require.NoError(t, err)
	prep, err := PrepareSTKR(task, whole, Transductive)
	require.NoError(t, err)
	want, err := prep.Evaluate(context.Background(), cls(&stkr.Regressor{Transform: stkr.Polynomial{Coeffs: []float64{0, 0, 0, 1}}, Beta: 1}))
	require.NoError(t, err)
	parts, err := TestChunks(n, *ds.Split, 0.05, 3) // chunks of 135 of the 1000 test nodes
	require.NoError(t, err)
	require.Len(t, parts, 8)
	right, scored := 0, 0
	for _, p := range parts {
		prep, err := PrepareSTKR(task, p, Transductive)
		require.NoError(t, err)
		o, err := prep.Evaluate(context.Background(), cls(&stkr.Regressor{Transform: stkr.Polynomial{Coeffs: []float64{0, 0, 0, 1}}, Beta: 1}))
		require.NoError(t, err)
		right += o.TestCorrect
		scored += o.TestScored
	}
	assert.Equal(t, want.TestScored, scored)
	assert.Equal(t, want.TestCorrect, right)
	assert.Equal(t, 1000, scored)
}

// TestInductiveSettingsMatchDense checks the whole inductive pipeline
// (visible subgraph, its degrees, the hidden nodes' kernel rows, the fit,
// the prediction f(x) = Σ_i α_i K_s(x_i, x)) against an independent dense
// computation from the raw weight matrix: S on the visible nodes with
// degrees summed over visible nodes only (the paper's eq. 23 in the
// inductive setting), α from the dense eq. 7, and for a hidden node x
// K_s(x, x_i) = Σ_p π_p k(x)ᵀ S^{p−1} e_i (the Monte-Carlo kernel of §3),
// i.e. k(x)ᵀ(I − ηS)^{-1}e_i for the inverse Laplacian.
func TestInductiveSettingsMatchDense(t *testing.T) {
	const n = 36
	g := randomGraph(t, n, 40, false, 11)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = (i * 7) % 3
	}
	task := Task{Graph: g, Labels: labels, Classes: 3}
	split := eval.Split{Train: []int{0, 4, 9, 13, 20, 27}, Val: []int{2, 7, 15, 22, 30}, Test: []int{1, 5, 11, 17, 24, 33, 35}}
	part, err := NewPartition(n, split, 0, 1)
	require.NoError(t, err)
	eta, beta := 0.9, 0.1
	transforms := []struct {
		tr stkr.Spectral
		// h returns Σ_p π_p S^{p−1} (so that K_s(x, x_i) = k(x)ᵀ h e_i).
		h func(s *mat.SymDense) *mat.Dense
	}{
		{stkr.InverseLaplacian{Eta: eta}, func(s *mat.SymDense) *mat.Dense {
			N := s.SymmetricDim()
			a := mat.NewDense(N, N, nil)
			a.Scale(-eta, s)
			for i := 0; i < N; i++ {
				a.Set(i, i, 1+a.At(i, i))
			}
			var inv mat.Dense
			require.NoError(t, inv.Inverse(a))
			return &inv
		}},
		{stkr.Polynomial{Coeffs: []float64{0.5, 0, 1}}, func(s *mat.SymDense) *mat.Dense {
			N := s.SymmetricDim()
			h := mat.NewDense(N, N, nil)
			h.Mul(s, s) // π_3 S²
			for i := 0; i < N; i++ {
				h.Set(i, i, h.At(i, i)+0.5) // π_1 I
			}
			return h
		}},
	}
	for _, setting := range []Setting{InductiveStrict, InductiveTestOnly} {
		for _, c := range transforms {
			t.Run(setting.String()+"/"+c.tr.String(), func(t *testing.T) {
				// Dense reference on the visible nodes (original ids).
				visible := append(append([]int(nil), part.Train...), part.Other...)
				if setting == InductiveTestOnly {
					visible = append(visible, part.Val...)
				}
				visible = sorted(visible)
				N := len(visible)
				pos := map[int]int{}
				for l, i := range visible {
					pos[i] = l
				}
				deg := make([]float64, N)
				for a, i := range visible {
					for _, j := range visible {
						deg[a] += g.Weight(i, j)
					}
				}
				s := mat.NewSymDense(N, nil)
				for a, i := range visible {
					for b, j := range visible {
						if w := g.Weight(i, j); w != 0 && b >= a {
							s.SetSym(a, b, w/math.Sqrt(deg[a]*deg[b]))
						}
					}
				}
				train := make([]int, len(part.Train))
				y := mat.NewDense(len(part.Train), 3, nil)
				for p, i := range part.Train {
					train[p] = pos[i]
					y.Set(p, labels[i], 1)
				}
				alpha, fVis := denseSTKR(t, denseGs(t, s, c.tr.Eval), train, y, beta)
				h := c.h(s)
				score := func(x int) []float64 { // f(x) for a hidden node x
					var dx float64
					for _, j := range visible {
						dx += g.Weight(x, j)
					}
					kx := mat.NewDense(1, N, nil)
					for b, j := range visible {
						if w := g.Weight(x, j); w != 0 && deg[b] > 0 {
							kx.Set(0, b, float64(N)*w/math.Sqrt(dx*deg[b]))
						}
					}
					var kh mat.Dense
					kh.Mul(kx, h)
					out := make([]float64, 3)
					for p, i := range train {
						for c := range out {
							out[c] += alpha.At(p, c) * kh.At(0, i)
						}
					}
					return out
				}

				prep, err := PrepareSTKR(task, part, setting)
				require.NoError(t, err)
				assert.Equal(t, N, prep.Visible)
				r := cls(&stkr.Regressor{Transform: c.tr, Beta: beta, Tol: testTol, MaxIter: 100000})
				_, err = prep.Evaluate(context.Background(), r)
				require.NoError(t, err)
				got := make([]float64, 3)
				for q, x := range part.Test {
					require.NoError(t, r.PredictRow(got, prep.testRow[q]))
					want := score(x)
					for c := range got {
						assert.InDelta(t, want[c], got[c], closedFormTol*math.Max(1, math.Abs(want[c])), "test node %d class %d", x, c)
					}
				}
				f := mustPredict(t, r)
				for q, x := range part.Val {
					var want []float64
					if setting == InductiveStrict {
						require.NoError(t, r.PredictRow(got, prep.valRow[q]))
						want = score(x)
					} else {
						copy(got, f.RawRowView(prep.valAt[q]))
						want = fVis.RawRowView(pos[x])
					}
					for c := range got {
						assert.InDelta(t, want[c], got[c], closedFormTol*math.Max(1, math.Abs(want[c])), "val node %d class %d", x, c)
					}
				}
			})
		}
	}
}
