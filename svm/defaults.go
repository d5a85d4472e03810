package svm

// DefaultSigma is the Gaussian kernel's default bandwidth, for features
// of unit scale such as TwoMoons.
const DefaultSigma = 0.5

// DefaultSpec is the Spec of the defaults: the Gaussian kernel of width
// DefaultSigma, DefaultC and DefaultTol.
func DefaultSpec() Spec {
	return Spec{Kernel: "gaussian", Sigma: DefaultSigma, C: DefaultC, Tol: DefaultTol}
}
