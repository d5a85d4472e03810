package savedmodel

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"

	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/serve"
)

// readCalibration reads the file's calibration, which only a classifier of
// nodes or points may carry.
func (s *Saved) readCalibration() error {
	cal, err := confidence.Read(s.file)
	if err != nil {
		return fmt.Errorf("savedmodel: %w", err)
	}
	if cal == nil {
		return nil
	}
	if _, graphs := s.b.(graphModel); graphs || s.b.classes() == 0 {
		return fmt.Errorf("savedmodel: a %s model holds a calibration, which only node and point classifiers have", s.file.Kind)
	}
	s.cal = cal
	return nil
}

// calibrate replaces p's probabilities (or its scores) by the calibrated
// probabilities and adds its prediction set (class numbers, which name
// turns into names); key is the item's key (a fitted node's index,
// idKey of a new node's id).
func (s *Saved) calibrate(p *serve.Prediction, key uint64) error {
	if s.cal == nil {
		return nil
	}
	raw := p.Probabilities
	if raw == nil {
		raw = p.Scores
	}
	if len(raw) != s.b.classes() {
		return fmt.Errorf("savedmodel: %d scores for %d classes", len(raw), s.b.classes())
	}
	probs, set, err := s.cal.Row(raw, key)
	if err != nil {
		return fmt.Errorf("savedmodel: %w", err)
	}
	p.Probabilities, p.Scores = probs, nil
	p.Set = make([]string, len(set))
	for i, c := range set {
		p.Set[i] = s.classes[c]
	}
	return nil
}

// NewNodeKey is the key of a new node's randomised conformal score
// (confidence.Uniform), as gssl predict and serve draw it: a hash of its id
// with the top bit set, apart from the fitted nodes' indices.
func NewNodeKey(id string) uint64 { return idKey(id) }

// idKey is NewNodeKey.
func idKey(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64() | 1<<63
}

// pointKey is the key of a new point: a hash of its coordinates.
func pointKey(x []float64) uint64 {
	h := fnv.New64a()
	var b []byte
	for _, v := range x {
		b = strconv.AppendUint(b[:0], math.Float64bits(v), 16)
		h.Write(b)
	}
	return h.Sum64() | 1<<63
}
