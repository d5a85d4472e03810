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
	// Kernel is the kernel normalised; Fit fits a clone of it.
	Kernel Kernel

	inner Kernel        // the fitted clone of Kernel
	diag  []float64     // k(G_j, G_j) of the training graphs
	gram  *mat.SymDense // the normalised Gram matrix of Fit, until Gram hands it out
}

var _ Kernel = (*Cosine)(nil)

// Validate checks that there is a Kernel, and its hyperparameters.
func (c *Cosine) Validate() error {
	if c.Kernel == nil {
		return fmt.Errorf("graphkernels: Cosine has no Kernel to normalise")
	}
	if cloneKernel(c.Kernel) == nil {
		return fmt.Errorf("graphkernels: Cosine Kernel %T is not one of this package's kernels", c.Kernel)
	}
	return c.Kernel.Validate()
}

// Fit fits a clone of the wrapped kernel and its Gram matrix, whose
// diagonal the normalisation of new graphs needs (Gram hands the
// normalised matrix out).
func (c *Cosine) Fit(ctx context.Context, graphs []Graph) error {
	if err := c.Validate(); err != nil {
		return err
	}
	inner := cloneKernel(c.Kernel)
	k, err := FitGram(ctx, inner, graphs)
	if err != nil {
		return err
	}
	n := k.SymmetricDim()
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = k.At(i, i)
	}
	NormalizeGram(k)
	c.inner, c.diag, c.gram = inner, diag, k
	return nil
}

// Gram returns the normalised Gram matrix of the training graphs.
func (c *Cosine) Gram(ctx context.Context) (*mat.SymDense, error) {
	if c.inner == nil {
		return nil, estimator.NotFitted("graphkernels: Cosine.Gram")
	}
	if k := c.gram; k != nil {
		c.gram = nil
		return k, nil
	}
	k, err := c.inner.Gram(ctx)
	if err != nil {
		return nil, err
	}
	NormalizeGram(k)
	return k, nil
}

// Cross returns the normalised k̃(new_i, train_j); the self-similarities
// are 1 (0 for a graph with k(G, G) = 0).
func (c *Cosine) Cross(ctx context.Context, graphs []Graph) (*mat.Dense, []float64, error) {
	if c.inner == nil {
		return nil, nil, estimator.NotFitted("graphkernels: Cosine.Transform")
	}
	cross, self, err := c.inner.Cross(ctx, graphs)
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

// Transform returns the normalised k̃(new_i, train_j).
func (c *Cosine) Transform(ctx context.Context, graphs []Graph) (*mat.Dense, error) {
	return dropSelf(c.Cross(ctx, graphs))
}

// Fitted returns the fitted clone of Kernel that c normalises (nil before
// Fit).
func (c *Cosine) Fitted() Kernel { return c.inner }

// Info is the zero Info.
func (c *Cosine) Info() estimator.Info { return estimator.Info{} }

// Clone returns an unfitted copy of c (sharing Kernel, which Fit never
// fits itself).
func (c *Cosine) Clone() *Cosine { return &Cosine{Kernel: c.Kernel} }

// cloneKernel returns an unfitted copy of one of this package's kernels,
// nil for another type.
func cloneKernel(k Kernel) Kernel {
	switch k := k.(type) {
	case *WeisfeilerLehman:
		return k.Clone()
	case *VertexHistogram:
		return k.Clone()
	case *ShortestPath:
		return k.Clone()
	case *RandomWalk:
		return k.Clone()
	case *Cosine:
		return k.Clone()
	}
	return nil
}

// dropSelf is Cross without the self-similarities.
func dropSelf(cross *mat.Dense, _ []float64, err error) (*mat.Dense, error) {
	return cross, err
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
