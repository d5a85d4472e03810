// Package memlimit is the memory budget of gssl's dense paths: an exact
// Gaussian process, a dense kernel matrix, a decoded NumPy array. Such a
// path computes the bytes it needs before allocating and refuses with
// Check when they pass the limit, naming the sparse or low-rank
// alternative; the limit defaults to half the machine's memory (or of the
// process's address-space limit, ulimit -v, when smaller).
//
// Sizes are written as a number with an optional unit, powers of 1024:
// B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB (Parse, Format).
package memlimit
