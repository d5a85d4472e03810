package graphkernels

import (
	"errors"
	"fmt"

	"github.com/gssl/gssl/estimator"
)

// ErrNotSaved is the error of the binary (and so gob) encoding of a graph
// kernel on its own. A fitted kernel's state — the WL or shortest-path label
// dictionary, the training graphs' feature vectors, the random walk's
// training graphs, the cosine normalisation — is what comparing new graphs
// needs, and the encoders would otherwise drop it silently (its fields are
// unexported) and decode a kernel that says it was never fitted. The saved
// form of a graph classifier is WLClassifier (the WL dictionary, the
// training graphs' features and the SVM); the other kernels have none yet,
// and every encoding of a kernel fails by name.
var ErrNotSaved = errors.New("graphkernels: a graph kernel is not saved on its own: refit it, or save a WLClassifier")

func notSaved(what string) error { return fmt.Errorf("%s: %w", what, ErrNotSaved) }

func notJSON(what string) error { return fmt.Errorf("graphkernels: %s: %w", what, estimator.ErrJSON) }

// MarshalBinary refuses (ErrNotSaved), so gob fails instead of dropping the
// fitted dictionary.
func (w WeisfeilerLehman) MarshalBinary() ([]byte, error) {
	return nil, notSaved("WeisfeilerLehman")
}

// UnmarshalBinary refuses (ErrNotSaved).
func (w *WeisfeilerLehman) UnmarshalBinary([]byte) error { return notSaved("WeisfeilerLehman") }

// MarshalJSON refuses (estimator.ErrJSON).
func (w WeisfeilerLehman) MarshalJSON() ([]byte, error) { return nil, notJSON("WeisfeilerLehman") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (w *WeisfeilerLehman) UnmarshalJSON([]byte) error { return notJSON("WeisfeilerLehman") }

// MarshalBinary refuses (ErrNotSaved).
func (v VertexHistogram) MarshalBinary() ([]byte, error) { return nil, notSaved("VertexHistogram") }

// UnmarshalBinary refuses (ErrNotSaved).
func (v *VertexHistogram) UnmarshalBinary([]byte) error { return notSaved("VertexHistogram") }

// MarshalJSON refuses (estimator.ErrJSON).
func (v VertexHistogram) MarshalJSON() ([]byte, error) { return nil, notJSON("VertexHistogram") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (v *VertexHistogram) UnmarshalJSON([]byte) error { return notJSON("VertexHistogram") }

// MarshalBinary refuses (ErrNotSaved).
func (s ShortestPath) MarshalBinary() ([]byte, error) { return nil, notSaved("ShortestPath") }

// UnmarshalBinary refuses (ErrNotSaved).
func (s *ShortestPath) UnmarshalBinary([]byte) error { return notSaved("ShortestPath") }

// MarshalJSON refuses (estimator.ErrJSON).
func (s ShortestPath) MarshalJSON() ([]byte, error) { return nil, notJSON("ShortestPath") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (s *ShortestPath) UnmarshalJSON([]byte) error { return notJSON("ShortestPath") }

// MarshalBinary refuses (ErrNotSaved).
func (r RandomWalk) MarshalBinary() ([]byte, error) { return nil, notSaved("RandomWalk") }

// UnmarshalBinary refuses (ErrNotSaved).
func (r *RandomWalk) UnmarshalBinary([]byte) error { return notSaved("RandomWalk") }

// MarshalJSON refuses (estimator.ErrJSON).
func (r RandomWalk) MarshalJSON() ([]byte, error) { return nil, notJSON("RandomWalk") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (r *RandomWalk) UnmarshalJSON([]byte) error { return notJSON("RandomWalk") }

// MarshalBinary refuses (ErrNotSaved).
func (c Cosine) MarshalBinary() ([]byte, error) { return nil, notSaved("Cosine") }

// UnmarshalBinary refuses (ErrNotSaved).
func (c *Cosine) UnmarshalBinary([]byte) error { return notSaved("Cosine") }

// MarshalJSON refuses (estimator.ErrJSON).
func (c Cosine) MarshalJSON() ([]byte, error) { return nil, notJSON("Cosine") }

// UnmarshalJSON refuses (estimator.ErrJSON).
func (c *Cosine) UnmarshalJSON([]byte) error { return notJSON("Cosine") }
