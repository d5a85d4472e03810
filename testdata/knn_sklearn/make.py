"""Writes the fixtures of gssl's KNN label-spreading accuracy test and
scikit-learn's accuracy on them (sklearn_results.json).

Two data sets, each with a few labels drawn per class for several seeds:

* moons: sklearn.datasets.make_moons(n_samples=500, noise=0.1, random_state=0),
  5 labels per class;
  also its 7-nearest-neighbour graph by sklearn.neighbors.kneighbors_graph,
  or-symmetrised (moons_knn7_sklearn.npz);
* digits: sklearn.datasets.load_digits() (1797 images of 8x8 pixels, values
  0..16, stored as uint8), 5 labels per class.

For every seed, the labelled points are drawn per class with
numpy.random.default_rng(seed) and written as a label vector with -1 for
unlabelled points (<name>_labels_<seed>.npy). scikit-learn's
LabelSpreading(kernel='knn') is fitted on each, with its defaults
(n_neighbors=7, alpha=0.2, max_iter=30) and with n_neighbors=10 (gssl's
default K), and scored on the unlabelled points. The Go test
(cmd/gssl/knn_accuracy_test.go) runs gssl labelprop on the same files and
asserts that its mean accuracy is at least scikit-learn's.

Run in a throwaway venv:  python3 -m venv /tmp/v && /tmp/v/bin/pip install
scikit-learn==1.9.1 numpy==2.4.6 scipy==1.17.1 && /tmp/v/bin/python make.py
"""

import json
import os

import numpy as np
import scipy
import scipy.sparse
import sklearn
from sklearn.datasets import load_digits, make_moons
from sklearn.neighbors import kneighbors_graph
from sklearn.semi_supervised import LabelSpreading

SEEDS = [0, 1, 2, 3, 4]
PER_CLASS = 5
HERE = os.path.dirname(os.path.abspath(__file__))


def draw(y, seed):
    rng = np.random.default_rng(seed)
    lab = -np.ones(len(y), dtype=np.int64)
    for c in np.unique(y):
        idx = rng.choice(np.flatnonzero(y == c), PER_CLASS, replace=False)
        lab[idx] = c
    return lab


def run(name, X, y):
    np.save(os.path.join(HERE, f"{name}.npy"), X)
    np.save(os.path.join(HERE, f"{name}_y.npy"), y.astype(np.int64))
    out = {"n": int(len(y)), "features": int(X.shape[1]), "labels_per_class": PER_CLASS, "seeds": SEEDS}
    Xf = X.astype(np.float64)
    for k in (7, 10):
        accs = []
        for s in SEEDS:
            lab = draw(y, s)
            np.save(os.path.join(HERE, f"{name}_labels_{s}.npy"), lab)
            m = LabelSpreading(kernel="knn", n_neighbors=k).fit(Xf, lab)
            u = lab == -1
            accs.append(float(np.mean(m.transduction_[u] == y[u])))
        out[f"sklearn_knn{k}_accuracy"] = accs
        out[f"sklearn_knn{k}_mean"] = float(np.mean(accs))
    return out


def main():
    res = {"sklearn": sklearn.__version__, "numpy": np.__version__, "scipy": scipy.__version__,
           "estimator": "LabelSpreading(kernel='knn', n_neighbors=K) with its other defaults (alpha=0.2, max_iter=30)",
           "score": "accuracy on the unlabelled points"}
    X, y = make_moons(n_samples=500, noise=0.1, random_state=0)
    res["moons"] = run("moons", X, y)
    # scikit-learn's 7-nearest-neighbour graph of the moons (each point's 7
    # nearest other points, connectivity, symmetrised by max: the or-rule),
    # for the test that gssl knn builds the same graph.
    g = kneighbors_graph(X, 7, mode="connectivity", include_self=False)
    scipy.sparse.save_npz(os.path.join(HERE, "moons_knn7_sklearn.npz"), g.maximum(g.T).tocsr())
    d = load_digits()
    res["digits"] = run("digits", d.data.astype(np.uint8), d.target)
    with open(os.path.join(HERE, "sklearn_results.json"), "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
