// Package mlp is a small multilayer perceptron classifier: one hidden layer
// of rectified linear units, dropout, weight decay, Adam and early stopping
// on validation rows. It is the nonlinear base under the channel features of
// heterophilous graphs (package nodeclass), beside logistic regression.
//
// With X the n×d rows, W₁ (d×h), b₁, W₂ (h×c), b₂ the parameters and M an
// n×h dropout mask whose entries are 0 with probability p and 1/(1−p)
// otherwise (inverted dropout; M = 1 when predicting):
//
//	A = X W₁ + 1 b₁ᵀ,   H = max(A, 0) ∘ M,   Z = H W₂ + 1 b₂ᵀ,
//	P_ik = exp Z_ik / Σ_l exp Z_il
//
// Training minimises the mean cross-entropy plus the weight decay λ on the
// weights (not the biases), as PyTorch's Adam(weight_decay=λ) does:
//
//	L = −(1/n) Σ_i log P_{i,y_i} + (λ/2)(‖W₁‖² + ‖W₂‖²)
//
// whose gradient, with Y the one-hot labels and G = (P − Y)/n, is
//
//	∂L/∂W₂ = Hᵀ G + λ W₂,                  ∂L/∂b₂ = Gᵀ 1,
//	D = (G W₂ᵀ) ∘ M ∘ [A > 0],
//	∂L/∂W₁ = Xᵀ D + λ W₁,                  ∂L/∂b₁ = Dᵀ 1.
//
// Adam (Kingma & Ba, "Adam: a method for stochastic optimization", ICLR
// 2015) takes full-batch steps with β₁ = 0.9, β₂ = 0.999, ε = 10⁻⁸ and bias
// correction. After every epoch the validation loss (without dropout) is
// computed; the parameters of the best epoch are kept, and training stops
// after Patience epochs without improvement (early stopping, Prechelt,
// "Early stopping — but when?", 1998). Weights start Glorot-uniform (Glorot
// & Bengio, AISTATS 2010), biases at 0; the initial weights and the masks
// come from one PCG stream seeded by Seed, so a fit is deterministic. The
// masks (DropoutMask, which nodeclass's networks share) take p rounded to a
// multiple of 2⁻¹⁶ and four entries from each 64-bit draw.
//
// Channel models for heterophily feed it [X, mean of neighbours without
// self, 2-hop mean, propagated training labels] (Zhu et al., "Beyond
// homophily in graph neural networks", NeurIPS 2020; Lim et al., "Large
// scale learning on non-homophilous graphs", NeurIPS 2021).
package mlp
