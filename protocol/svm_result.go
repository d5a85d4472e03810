package protocol

import "github.com/gssl/gssl/svm"

// SVMReport is a support vector machine fitted and scored on a PointTask
// (FitClassify): the JSON object of gssl svm.
type SVMReport struct {
	ClassifierReport
	Kernel         string  `json:"kernel"`
	Sigma          float64 `json:"sigma,omitempty"` // the Gaussian kernel's
	C              float64 `json:"C"`
	SupportVectors int     `json:"support_vectors"`
	Iterations     int     `json:"iterations"`
	Out            string  `json:"out,omitempty"`
	Saved          string  `json:"saved,omitempty"`
}

// NewSVMReport is the report of the machine m that spec describes, run on t.
func NewSVMReport(spec svm.Spec, m *svm.PointSVC, t *PointTask, run *ClassifierRun) SVMReport {
	r := SVMReport{ClassifierReport: NewClassifierReport(t, run), Kernel: spec.Kernel, C: spec.C, SupportVectors: m.SupportVectors(), Iterations: m.Iterations()}
	if spec.Kernel == "gaussian" {
		r.Sigma = spec.Sigma
	}
	return r
}
