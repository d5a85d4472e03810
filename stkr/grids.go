package stkr

// EtaGrid returns the η values searched when η is chosen on the validation
// set (stkr.py's grid; the paper's was lost in the text extraction).
func EtaGrid() []float64 { return []float64{0.5, 0.9, 0.99} }

// BetaGrid returns the β values searched when β is chosen on the
// validation set (stkr.py's grid).
func BetaGrid() []float64 { return []float64{0.01, 0.1, 1, 10, 100} }
