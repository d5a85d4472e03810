//go:build !linux

package graphfile

// advise does nothing where madvise's huge-page hint does not exist.
func advise(data []byte) {}

// mapOnes allocates count ones where memory files cannot be mapped
// repeatedly.
func mapOnes(count int) ([]float64, func() error, error) {
	ones := make([]float64, count)
	for k := range ones {
		ones[k] = 1
	}
	return ones, func() error { return nil }, nil
}
