// Package confidence turns a node classifier's scores into calibrated
// class probabilities and prediction sets with a coverage guarantee.
//
// # Temperature scaling
//
// A model's scores s_i (propagated label mass, class probabilities, or
// logits) become log-scores z_i: when every score is non-negative,
// z_ik = log((1−ε) p_ik + ε/C) of the row-normalised scores p_i (a row of
// zeros, a node nothing reached, is uniform), with ε chosen among a few
// values from 0 to 0.5 by the same likelihood as T (propagation leaves
// classes it never reached at probability 0, which no temperature can
// raise); otherwise the scores themselves. One temperature
// T > 0 is fitted on held-out labelled nodes by the negative log-likelihood
// of p_i = softmax(z_i / T) (Guo, Pleiss, Sun and Weinberger, "On
// calibration of modern neural networks", ICML 2017); eval.FitTemperature
// gives the convex objective and its Newton iteration. T leaves every
// node's most probable class unchanged, so accuracy is unchanged too.
// The expected calibration error of the calibrated probabilities on test
// nodes is eval.Reliability's.
//
// # Prediction sets
//
// Split-conformal prediction (Vovk, Gammerman and Shafer, "Algorithmic
// Learning in a Random World", 2005) with the adaptive prediction sets
// score of Romano, Sesia and Candès ("Classification with valid and
// adaptive coverage", NeurIPS 2020), in its non-randomised form:
//
//	s(p_i, y) = Σ_{k: p_ik > p_iy} p_ik + p_iy,
//
// the probability mass of the classes more probable than y, and y's own. On the n
// held-out nodes with scores s_j = s(p_j, y_j), q̂ is the
// ⌈(n+1)(1−α)⌉-th smallest; a node's set holds every class y with
// s(p, y) ≤ q̂. When the held-out and the test nodes are exchangeable —
// in the transductive setting, when both are a uniformly random split of
// the nodes that are not training nodes, and the model is fitted without
// their labels — the set holds the true class with probability at least
// 1 − α (Zargarbashi, Antonelli and Bojchevski, "Conformal prediction sets
// for graph neural networks", ICML 2023; Huang, Jin, Candès and Leskovec,
// "Uncertainty quantification over graph with conformalized graph neural
// networks", NeurIPS 2023). The guarantee is marginal, over the draw of the
// held-out and test nodes, not per node.
//
// # Files
//
// A Calibration is stored beside the model it calibrates, in the model's
// own file (sections calibration.*), so that any classifier's file can
// carry one; Read validates what it finds like user input.
package confidence
