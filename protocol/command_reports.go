package protocol

import (
	"github.com/gssl/gssl/confidence"
	"github.com/gssl/gssl/knngraph"
)

// NodeClassRunReport is a node-classification run's report as gssl
// classify gives it: the data set, the classifier asked for and, for
// auto, the advice that chose its family, the split and seeds, the
// protocol's report, the calibration of the first seed's run, the times
// and the outputs.
type NodeClassRunReport struct {
	NodeData
	Features  int    `json:"features"`
	ModelFlag string `json:"model_flag"` // the classifier asked for
	// Advice is, for the classifier auto, what the homophily of the
	// training labels calls for (homophily.Advise) and so which models were
	// searched.
	Advice string `json:"advice,omitempty"`
	Split  string `json:"split"`
	Seeds  int    `json:"seeds"`
	NodeClassReport
	Confidence  *confidence.Report `json:"confidence,omitempty"` // the first seed's run, calibrated
	LoadSeconds float64            `json:"load_seconds"`
	KNN         *knngraph.Summary  `json:"knn,omitempty"` // the graph built from the features
	Seconds     float64            `json:"seconds"`
	Out         string             `json:"out,omitempty"`
	Saved       string             `json:"saved,omitempty"`
}

// LabelPropRunReport is a label-propagation run's report as gssl
// labelprop gives it: the data set, the protocol's report, the
// calibration of the first run, the times and the outputs.
type LabelPropRunReport struct {
	NodeData
	LabelPropReport
	Confidence  *confidence.Report `json:"confidence,omitempty"` // the first run, calibrated
	LoadSeconds float64            `json:"load_seconds"`
	KNN         *knngraph.Summary  `json:"knn,omitempty"` // the graph built from the features
	Seconds     float64            `json:"seconds"`
	Out         string             `json:"out,omitempty"`
	Saved       string             `json:"saved,omitempty"`
}

// GraphKernelRunReport is a graph-kernel study's report as gssl
// graphkernel gives it: the data set, the fold file, the outputs and the
// study's report.
type GraphKernelRunReport struct {
	Dataset     string  `json:"dataset"`
	Graphs      int     `json:"graphs"`
	Nodes       int     `json:"nodes"`
	Classes     int     `json:"classes"`
	LoadSeconds float64 `json:"load_seconds"`
	FoldsFile   string  `json:"folds_file,omitempty"`
	Out         string  `json:"out,omitempty"`
	Saved       string  `json:"saved,omitempty"`
	GraphKernelReport
}
