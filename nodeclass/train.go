package nodeclass

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/gssl/gssl/estimator"
	"github.com/gssl/gssl/mlp"
)

// net is a network trained full-batch over all nodes (SepGNN, LINKX): its
// parameters and their gradient as flat vectors, and one pass's
// activations, which forward fills and backward reads.
type net interface {
	params() []float64
	grads() []float64
	// drawMasks draws inverted-dropout masks with drop probability q
	// (mlp.DropoutMask); clearMasks turns dropout off.
	drawMasks(src *rand.PCG, q float64)
	clearMasks()
	// forward computes the class probabilities (prob) of the nodes idx,
	// of every node when idx is nil; the other rows of prob, and of the
	// activations backward reads, are left as they were.
	forward(idx []int)
	// backward writes into grads the gradient of the mean cross-entropy
	// of the nodes idx with classes y plus λ/2 times the squared weights,
	// after a forward pass over (at least) the nodes idx.
	backward(idx, y []int, lambda float64)
	prob() *mat.Dense
}

// training holds the training hyperparameters SepGNN and LINKX share, as
// the user set them or as their defaults.
type training struct {
	dropout, decay, rate float64
	epochs, patience     int
	stop                 StopRule
	holdOut              float64
}

// checkTraining checks the shared training hyperparameters t of model,
// whose zero values mean those of def.
func checkTraining(model string, t, def training) error {
	switch {
	case t.dropout != mlp.Off && !(t.dropout >= 0 && t.dropout < 1):
		return fmt.Errorf("nodeclass: %s Dropout=%v is invalid: it must be in [0, 1) (0 for %v, mlp.Off for none)", model, t.dropout, def.dropout)
	case t.decay != mlp.Off && !(t.decay >= 0 && !math.IsInf(t.decay, 1)):
		return fmt.Errorf("nodeclass: %s WeightDecay=%v is invalid: it must be finite and ≥ 0 (0 for %v, mlp.Off for none)", model, t.decay, def.decay)
	case !(t.rate >= 0 && !math.IsInf(t.rate, 1)):
		return fmt.Errorf("nodeclass: %s LearningRate=%v is invalid: it must be finite and > 0 (0 for %v)", model, t.rate, def.rate)
	case t.epochs < 0:
		return fmt.Errorf("nodeclass: %s Epochs=%d is invalid: it must be ≥ 1 (0 for %d)", model, t.epochs, def.epochs)
	case t.patience < 0:
		return fmt.Errorf("nodeclass: %s Patience=%d is invalid: it must be ≥ 1 (0 for %d)", model, t.patience, def.patience)
	case t.stop != StopLoss && t.stop != StopAccuracy:
		return fmt.Errorf("nodeclass: %s Stop=%d is invalid: it must be StopLoss (%d) or StopAccuracy (%d)", model, t.stop, StopLoss, StopAccuracy)
	case !(t.holdOut >= 0 && t.holdOut < 1):
		return fmt.Errorf("nodeclass: %s HoldOut=%v is invalid: it must be in the open interval (0, 1) (0 for %v)", model, t.holdOut, def.holdOut)
	}
	return nil
}

// trainSettings are the settings of trainNet that the models share.
type trainSettings struct {
	model            string // the model's name in errors
	epochs, patience int
	dropout, decay   float64
	rate             float64
	stop             StopRule
}

// trainNet fits nt by Adam on the nodes train with classes ytr, stopping
// early on the nodes val with classes valLabels, and leaves nt with the
// parameters of the best epoch and its evaluation pass (no dropout). It
// returns the epochs run and the kept epoch's validation cross-entropy.
func trainNet(ctx context.Context, nt net, set trainSettings, src *rand.PCG, train, ytr, val, valLabels []int) (int, float64, error) {
	p := nt.params()
	best := append([]float64(nil), p...)
	opt := &mlp.Adam{LearningRate: set.rate}
	bestLoss, bestAcc, since, epoch := math.Inf(1), -1.0, 0, 0
	for epoch = 1; epoch <= set.epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return epoch, bestLoss, fmt.Errorf("nodeclass: %s fit cancelled at epoch %d: %w", set.model, epoch, err)
		}
		// The training pass computes the training nodes' rows, the
		// evaluation pass the validation nodes'.
		nt.drawMasks(src, set.dropout)
		nt.forward(train)
		nt.backward(train, ytr, set.decay)
		opt.Step([][]float64{p}, [][]float64{nt.grads()})
		nt.clearMasks()
		nt.forward(val)
		lv := crossEntropy(nt.prob(), val, valLabels)
		if math.IsNaN(lv) || math.IsInf(lv, 0) {
			return epoch, bestLoss, &estimator.NotConvergedError{Model: "nodeclass", Method: set.model + " adam", Iterations: epoch, Residual: lv, Tol: bestLoss, Hint: "lower LearningRate"}
		}
		better := lv < bestLoss
		if set.stop == StopAccuracy {
			acc := sepAccuracy(nt.prob(), val, valLabels)
			better = acc > bestAcc || acc == bestAcc && lv < bestLoss
			if better {
				bestAcc = acc
			}
		}
		if better {
			bestLoss, since = lv, 0
			copy(best, p)
		} else if since++; since >= set.patience {
			break
		}
	}
	copy(p, best)
	nt.clearMasks()
	nt.forward(nil)
	return min(epoch, set.epochs), bestLoss, nil
}

// crossEntropy is the mean of −log prob[i, y_i] over the nodes idx.
func crossEntropy(prob *mat.Dense, idx, y []int) float64 {
	loss := 0.0
	for k, i := range idx {
		loss -= math.Log(max(prob.At(i, y[k]), math.SmallestNonzeroFloat64))
	}
	return loss / float64(len(idx))
}

// fitHeldOut is the Fit of the networks: fitValidated on the labels
// without a seeded random fraction q of the labelled nodes (holdOut),
// stopping early on those.
func fitHeldOut(ctx context.Context, model string, fitValidated func(ctx context.Context, x estimator.Nodes, labels, val, valLabels []int) error,
	x estimator.Nodes, labels []int, q float64, seed uint64) error {
	fitLabels, val, valLabels, err := holdOut(model, labels, q, seed)
	if err != nil {
		return err
	}
	return fitValidated(ctx, x, fitLabels, val, valLabels)
}
