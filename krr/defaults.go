package krr

// The defaults of a Spec: what gssl falkon, and any front end that starts
// from DefaultSpec, fits when no option is given.
const (
	DefaultSolver  = "falkon"
	DefaultKernel  = "gaussian"
	DefaultSigma   = 15.0 // for pixels scaled to [0, 1]: MNIST's usual Gaussian width
	DefaultLambda  = 1e-8
	DefaultCentres = "uniform"
	// DefaultPrecision is the precision of a Spec that names none: float32
	// inner products (kernel.Float32), several times faster than float64
	// at relative errors of order 1e-7, which FALKON's preconditioned CG
	// does not see in its test error. (Falkon and Nystrom structs built by
	// hand take kernel.Precision's zero value, Float64.)
	DefaultPrecision = "float32"
)

// DefaultSpec is the Spec of the defaults: M = 0 (min(n, DefaultM)
// centres), DefaultIterations and seed 0.
func DefaultSpec() Spec {
	return Spec{Solver: DefaultSolver, Kernel: DefaultKernel, Sigma: DefaultSigma, Lambda: DefaultLambda, MaxIter: DefaultIterations,
		Centres: DefaultCentres, Precision: DefaultPrecision}
}
