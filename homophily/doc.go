// Package homophily measures how a graph's edges relate to its node
// classes, to tell which family of model a graph calls for before any is
// fitted.
//
// Only edges between two labelled nodes (label ≥ 0) count, each undirected
// edge once with its weight as multiplicity (1 on an unweighted graph);
// self loops are left out. With E that weight in all, E_kl the weight of
// the edges joining classes k and l (each edge counted in both directions,
// so Σ_kl E_kl = 2E) and D_k = Σ_l E_kl the degree mass of class k:
//
// Edge homophily (Zhu et al., "Beyond homophily in graph neural networks",
// NeurIPS 2020) is the fraction of edges that join two nodes of one class:
//
//	h_edge = Σ_k E_kk / 2E
//
// Adjusted homophily (Platonov et al., "Characterizing graph datasets for
// node classification: homophily–heterophily dichotomy and beyond",
// NeurIPS 2023) corrects h_edge for the number and balance of the classes,
// so that 0 means "as random edges with these degrees" and 1 perfect
// homophily, whatever the classes:
//
//	p̄_k = D_k / 2E,     h_adj = (h_edge − Σ_k p̄_k²) / (1 − Σ_k p̄_k²)
//
// Label informativeness (the same paper) is how much the class of one end
// of a random edge says about the class of the other, as a fraction of the
// class's entropy; it is 0 when neighbours' classes are independent and 1
// when one determines the other, which heterophilous graphs can have too:
//
//	p_kl = E_kl / 2E,   LI = 2 − (Σ_kl p_kl log p_kl) / (Σ_k p̄_k log p̄_k)
//
// The compatibility matrix H (Gatterbauer et al., "Linearized and
// single-pass belief propagation", VLDB 2015) is row k of E divided by
// D_k: the distribution of a class-k node's neighbours over the classes.
// Estimated from the labelled nodes of a sparsely labelled graph it is
// what compatibility-aware propagation needs.
//
// Advise turns the measures into a one-line choice: a graph with h_adj at
// least HomophilousAdjusted calls for the models that smooth labels along
// edges (label spreading, SGC, APPNP, C&S); a heterophilous graph whose
// labels are informative (LI at least InformativeLI) for propagation with a
// compatibility matrix; a graph whose neighbours say little of a node's
// class for models of the node's own features with the neighbours' kept
// apart.
package homophily
