// Package procstat reads the peak resident memory of the running process,
// which the measured runs of the library (knngraph.Run,
// spectral.EigsSpec.Solve) record beside their wall and CPU time (package
// cputime).
package procstat
