package nodeclass

import "github.com/gssl/gssl/estimator"

// Detached returns an unfitted copy of m that shares nothing with the
// other models of its grid (SGCGrid's propagated designs and warm-started
// penalty path): fitted, it is bitwise the model a user fits alone with the
// same hyperparameters. eval's selection refits its chosen candidate this
// way.
func (m *SGC) Detached() estimator.NodeClassifier {
	c := m.Clone()
	c.cache = nil
	return c
}

// Detached is SGC.Detached for APPNPGrid's models.
func (m *APPNP) Detached() estimator.NodeClassifier {
	c := m.Clone()
	c.cache = nil
	return c
}

// Detached returns an unfitted copy of m whose base shares nothing with
// the other models of its grid (CorrectSmoothGrid's base fitted once, on a
// grid's path).
func (m *CorrectSmooth) Detached() estimator.NodeClassifier {
	c := m.Clone()
	c.Base = detach(c.Base)
	return c
}

// detach is b without the state it shares with a grid: FitOnce's memo is
// unwrapped, and a model with Detached is detached.
func detach(b Base) Base {
	switch v := b.(type) {
	case *memo:
		return detach(v.base)
	case interface {
		Detached() estimator.NodeClassifier
	}:
		if d, ok := v.Detached().(Base); ok {
			return d
		}
	}
	return b
}
