package nodeclass

import "github.com/gssl/gssl/estimator"

// Detached returns an unfitted copy of m that does not share the warm-
// started penalty path of the other models of its grid (SGCGrid's):
// fitted, it is bitwise the model a user fits alone with the same
// hyperparameters. It still reuses the grid's propagated designs and the
// fits from zero made on them, which are bitwise what a lone fit computes,
// so that the refit costs no propagation. eval's selection refits its
// chosen candidate this way.
func (m *SGC) Detached() estimator.NodeClassifier {
	c := m.Clone()
	c.cache = m.cache.cold()
	return c
}

// Detached is SGC.Detached for APPNPGrid's models.
func (m *APPNP) Detached() estimator.NodeClassifier {
	c := m.Clone()
	c.cache = m.cache.cold()
	return c
}

// Detached returns an unfitted copy of m whose base is detached from the
// other models of its grid (CorrectSmoothGrid's base fitted once, on a
// grid's path): fitted, it is bitwise the model fitted alone.
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
