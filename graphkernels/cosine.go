package graphkernels

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
)

// Cosine normalises another kernel:
//
//	k̃(G, G') = k(G, G') / √(k(G, G)·k(G', G'))
//
// so that every graph has self-similarity 1 (a graph with k(G, G) = 0 keeps
// its zero row, as in the Python peer). It is a Kernel itself.
type Cosine struct {
	Kernel Kernel

	diag []float64 // k(G_j, G_j) of the training graphs
}

var _ Kernel = (*Cosine)(nil)

// Fit fits the wrapped kernel and returns its normalised Gram matrix.
func (c *Cosine) Fit(ctx context.Context, graphs []Graph) (*mat.SymDense, error) {
	if c.Kernel == nil {
		return nil, fmt.Errorf("graphkernels: Cosine has no Kernel to normalise")
	}
	k, err := c.Kernel.Fit(ctx, graphs)
	if err != nil {
		return nil, err
	}
	n := k.SymmetricDim()
	c.diag = make([]float64, n)
	for i := range c.diag {
		c.diag[i] = k.At(i, i)
	}
	NormalizeGram(k)
	return k, nil
}

// Transform returns the normalised k̃(new_i, train_j); the self-similarities
// are 1 (0 for a graph with k(G, G) = 0).
func (c *Cosine) Transform(ctx context.Context, graphs []Graph) (*mat.Dense, []float64, error) {
	if c.Kernel == nil || c.diag == nil {
		return nil, nil, estimator.NotFitted("graphkernels: Cosine.Transform")
	}
	cross, self, err := c.Kernel.Transform(ctx, graphs)
	if err != nil {
		return nil, nil, err
	}
	NormalizeCross(cross, self, c.diag)
	for i, s := range self {
		if s != 0 {
			self[i] = 1
		}
	}
	return cross, self, nil
}

// invSqrt returns 1/√d, or 1 when d is zero (a zero row stays zero).
func invSqrt(d float64) float64 {
	if d == 0 {
		return 1
	}
	return 1 / math.Sqrt(d)
}

// NormalizeGram scales K in place to K_ij/√(K_ii K_jj).
func NormalizeGram(k *mat.SymDense) {
	n := k.SymmetricDim()
	s := make([]float64, n)
	for i := range s {
		s[i] = invSqrt(k.At(i, i))
	}
	raw := k.RawSymmetric()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride:]
		for j := i; j < n; j++ {
			row[j] *= s[i] * s[j]
		}
	}
}

// NormalizeCross scales a cross matrix in place to
// C_ij/√(self_i·diag_j), where self holds k(new_i, new_i) and diag
// k(train_j, train_j).
func NormalizeCross(cross *mat.Dense, self, diag []float64) {
	m, n := cross.Dims()
	if m == 0 {
		return
	}
	if len(self) != m || len(diag) != n {
		panic(fmt.Sprintf("graphkernels: NormalizeCross: cross is %d×%d, self has %d entries, diag %d", m, n, len(self), len(diag)))
	}
	sd := make([]float64, n)
	for j, d := range diag {
		sd[j] = invSqrt(d)
	}
	raw := cross.RawMatrix()
	for i := 0; i < m; i++ {
		si := invSqrt(self[i])
		row := raw.Data[i*raw.Stride : i*raw.Stride+n]
		for j := range row {
			row[j] *= si * sd[j]
		}
	}
}
