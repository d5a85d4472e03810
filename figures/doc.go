// Package figures draws the pictures of gssl's results with gonum/plot: the
// panels (confusion matrix, per-class accuracy, 2-D embeddings, spectra,
// parameter-grid heat maps, curves, histograms, Gram matrices, predictions
// with ±2σ bands, bar charts) and a Figure that tiles several panels into one
// image written as PNG, SVG or PDF.
//
// Every panel is a function from plain slices to a *plot.Plot, so that
// callers own their data structures and this package depends on no model.
// A Figure with several panels is one image: the panels are laid out in
// rows of Figure.Cols (DefaultCols: up to three in one row, four as 2 × 2),
// each PanelWidth × PanelHeight, in the order given; the panels of a short
// last row share its width, so an image never has a blank cell.
//
// Colours. Classes and clusters take Kelly's 20 colours of maximum
// contrast on white (the same colour for the same index in every panel); heat maps use a
// sequential white-to-blue palette whose lightness falls monotonically with
// the value, so a heat map stays readable in grey scale (Moreland, "Why we
// use bad color maps and what you can do about it", Electronic Imaging
// 2016). Counts are written in each cell of a confusion matrix, since a
// colour alone does not tell 12 from 14.
//
// Format. FormatOf maps a file name's extension to a Format and refuses any
// other with the list of valid ones, so that a command can check its --plot
// flag before computing anything. Save writes atomically
// (internal/atomicfile): an interrupted run never leaves half an image.
package figures
