package parallel

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestForCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 5, 100, 10007} {
		for _, grain := range []int{0, 1, 3, 64, 5000} {
			hits := make([]int32, n)
			For(n, grain, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				assert.Equal(t, int32(1), h, "n=%d grain=%d index %d", n, grain, i)
			}
		}
	}
}

func TestBalancedCoversEachIndexOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := rng.IntN(3000)
		prefix := make([]int, n+1)
		for i := 1; i <= n; i++ {
			prefix[i] = prefix[i-1] + rng.IntN(20)
			if rng.IntN(10) == 0 {
				prefix[i] += 1000 // a heavy row
			}
		}
		hits := make([]int32, n)
		Balanced(prefix, 1+rng.IntN(2000), func(lo, hi int) {
			assert.Less(t, lo, hi)
			for i := lo; i < hi; i++ {
				atomic.AddInt32(&hits[i], 1)
			}
		})
		for i, h := range hits {
			assert.Equal(t, int32(1), h, "trial %d index %d", trial, i)
		}
	}
}

func TestChunksCoverEachIndexOnceInFixedChunks(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 4097} {
		for _, size := range []int{0, 1, 64, 4096} {
			hits := make([]int32, n)
			seen := make([]int32, NumChunks(n, size))
			Chunks(n, size, func(k, lo, hi int) {
				s := max(size, 1)
				assert.Equal(t, k*s, lo)
				assert.Equal(t, min((k+1)*s, n), hi)
				atomic.AddInt32(&seen[k], 1)
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				assert.Equal(t, int32(1), h, "n=%d size=%d index %d", n, size, i)
			}
			for k, h := range seen {
				assert.Equal(t, int32(1), h, "chunk %d", k)
			}
		}
	}
}
