//go:build !amd64

package knngraph

const hasAVX2 = false

func sgemm6x16(k int, a, b, c []float32) { sgemm6x16Go(k, a, b, c) }

func sqdist16(a, b []float32) float32 { return sqdistGo(a, b) }
