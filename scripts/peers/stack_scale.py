"""The graph stack in plain scipy on a node folder (edges.txt, labels.txt, split_planetoid.txt):
the scale peer of `gssl info`, `gssl eigs`, `gssl cluster` and `gssl stkr`.

Usage: stack_scale.py DIR TASK [--k K] [--tol T] [--eta E] [--beta B] [--restarts R] [--out FILE] [--cache DIR]
  TASK   info | eigs | cluster | stkr
  prints one JSON line {"load": s, "seconds": s, ...}: load = the graph (and labels, split) to a 0/1 CSR,
  seconds = the task alone, from the CSR in memory.

Load as ../shared/bench/peers/lp_scale.py: np.fromstring of the edge list, COO -> CSR, W = W + Wᵀ with every
stored weight 1. With --cache DIR the CSR arrays (indptr, indices) are kept as .npy files in DIR after the
first load and read from there (np.load) on later runs: scipy's binary form of the graph, next to gssl's .gsg.
Self loops are dropped, as gssl's folder loader drops them (the generator writes a few).

Tasks (what is timed):
  info     degrees (min, mean, max, isolated), self loops, scipy.sparse.csgraph.connected_components.
  eigs     S = D^-1/2 W D^-1/2, then scipy.sparse.linalg.eigsh(S, k=K, which='LA', v0, tol=T) as eigs.py
           calls it (ARPACK; v0 ~ N(0, 1) from numpy default_rng(0)); lambda(L_sym) = 1 - mu(S).
           Outside the timing: max_j ||L u_j - lambda_j u_j||_2 (unit u_j). --maxiter R stops ARPACK
           after R restarts ("converged": false and the pairs it had converged).
  cluster  Ng-Jordan-Weiss as `gssl cluster`: eigsh as above with K = the number of clusters (default:
           classes), rows of U scaled to unit length, sklearn KMeans(n_clusters=K, init='k-means++',
           n_init=R (gssl's --restarts default 10), max_iter=300, random_state=0). --out FILE saves
           the clusters (np.save) for the adjusted Rand index against gssl's.
  stkr     STKR with the inverse-Laplacian transform s(l) = l/(1 - eta l), transductive, on the
           split's train nodes (n of them, one-hot targets), N = all nodes, as stkr.py's
           sp_lap_minres and gssl's default solver: MINRES per class (tol T, default 1e-9) on the
           symmetrised system (I - eta S - c E) theta = -Y~ / (N/eta - n beta), c = N/(N - eta n beta),
           applied as a LinearOperator (no second matrix), f = N S theta, test accuracy of argmax f.
           scipy's MINRES stops on its own residual estimates (relative to ||A|| ||x|| + ||b||), so
           each solve is restarted from its iterate until ||b - K theta|| <= tol ||b||, gssl's rule.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla
from scipy.sparse.csgraph import connected_components


def load(d, cache):
    """The 0/1 symmetric CSR of DIR/edges.txt and the labels, as lp_scale.py reads them."""
    lab = np.fromstring(open(d + "/labels.txt").read(), dtype=np.int64, sep="\n")
    n = len(lab)
    ip = ix = None
    if cache:
        key = os.path.join(cache, os.path.basename(os.path.normpath(d)))
        if os.path.exists(key + ".indices.npy"):
            ip, ix = np.load(key + ".indptr.npy"), np.load(key + ".indices.npy")
    if ip is None:
        e = np.fromstring(open(d + "/edges.txt").read(), dtype=np.int64, sep=" ").reshape(-1, 2)
        e = e[e[:, 0] != e[:, 1]]  # gssl's folder loader drops self loops (PyG's remove_self_loops)
        W = sp.coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n)).tocsr()
        del e
        W = W + W.T
        W.sort_indices()
        ip, ix = W.indptr, W.indices
        if cache:
            os.makedirs(cache, exist_ok=True)
            np.save(key + ".indptr.npy", ip)
            np.save(key + ".indices.npy", ix)
    W = sp.csr_matrix((np.ones(len(ix)), ix, ip), shape=(n, n))
    return W, lab


def read_split(d):
    tr, va, te = [], [], []
    for line in open(d + "/split_planetoid.txt"):
        k, i = line.split()
        {"train": tr, "val": va, "test": te}[k].append(int(i))
    return np.array(tr), np.array(va), np.array(te)


def normalised(W):
    deg = np.diff(W.indptr).astype(np.float64)  # 0/1 weights: degree = stored entries
    dm = np.zeros_like(deg)
    dm[deg > 0] = 1 / np.sqrt(deg[deg > 0])
    S = W.copy()
    S.data = dm[np.repeat(np.arange(W.shape[0]), deg.astype(np.int64))] * dm[W.indices]
    return S


def eig(S, k, tol, maxiter):
    """The k smallest eigenpairs of L_sym = I - S, and whether ARPACK converged within maxiter
    restarts (0: ARPACK's default, n*10); unconverged, the pairs that did converge."""
    v0 = np.random.default_rng(0).standard_normal(S.shape[0])
    try:
        mu, U = sla.eigsh(S, k=k, which="LA", v0=v0, tol=tol, maxiter=maxiter or None)
        ok = True
    except sla.ArpackNoConvergence as e:
        mu, U, ok = e.eigenvalues, e.eigenvectors, False
    order = np.argsort(-mu)
    return 1 - mu[order], U[:, order], ok


def residual(S, lam, U):
    U = U / np.linalg.norm(U, axis=0)
    R = (U - S @ U) - U * lam  # L_sym u - lambda u
    return float(np.max(np.linalg.norm(R, axis=0)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("task", choices=["info", "eigs", "cluster", "stkr"])
    ap.add_argument("--k", type=int, default=0, help="eigs: pairs (default 10); cluster: clusters (default: classes)")
    ap.add_argument("--tol", type=float, default=0, help="eigsh tol (default 1e-10) or MINRES tol (default 1e-9)")
    ap.add_argument("--eta", type=float, default=0.9)
    ap.add_argument("--beta", type=float, default=10.0)
    ap.add_argument("--restarts", type=int, default=10)
    ap.add_argument("--maxiter", type=int, default=0, help="eigs: ARPACK restarts before giving up (0: its default)")
    ap.add_argument("--out", default="")
    ap.add_argument("--cache", default="")
    a = ap.parse_args()

    t0 = time.perf_counter()
    W, lab = load(a.dir, a.cache)
    if a.task == "stkr":
        tr, va, te = read_split(a.dir)
    n = W.shape[0]
    t1 = time.perf_counter()
    out = {"task": a.task, "nodes": n}
    if a.task == "info":
        deg = np.diff(W.indptr)
        loops = int(W.diagonal().astype(bool).sum())
        ncomp, comp = connected_components(W, directed=False)
        sizes = np.bincount(comp)
        t2 = time.perf_counter()
        out.update(edges=int((W.nnz - loops) // 2 + loops), self_loops=loops, degree_min=int(deg.min()),
                   degree_mean=float(deg.mean()), degree_max=int(deg.max()), isolated=int(np.sum(deg == 0)),
                   components=int(ncomp), largest_component=int(sizes.max()))
    elif a.task == "eigs":
        k, tol = a.k or 10, a.tol or 1e-10
        S = normalised(W)
        lam, U, ok = eig(S, k, tol, a.maxiter)
        t2 = time.perf_counter()
        out.update(eigenpairs=k, tol=tol, converged=ok, converged_pairs=len(lam), eigenvalues=lam.tolist(),
                   max_residual=residual(S, lam, U) if len(lam) else None)
    elif a.task == "cluster":
        from sklearn.cluster import KMeans
        k, tol = a.k or int(lab.max()) + 1, a.tol or 1e-10
        S = normalised(W)
        lam, U, ok = eig(S, k, tol, 0)
        nr = np.linalg.norm(U, axis=1)
        nr[nr == 0] = 1
        U /= nr[:, None]
        km = KMeans(n_clusters=k, init="k-means++", n_init=a.restarts, max_iter=300, random_state=0).fit(U)
        t2 = time.perf_counter()
        from sklearn.metrics import adjusted_rand_score
        out.update(clusters=k, eigenvalues=lam.tolist(), inertia=float(km.inertia_),
                   ari=float(adjusted_rand_score(lab, km.labels_)), kmeans_iterations=int(km.n_iter_))
        if a.out:
            np.save(a.out, km.labels_.astype(np.int32))
    else:
        tol = a.tol or 1e-9
        eta, beta = a.eta, a.beta
        C = int(lab.max()) + 1
        S = normalised(W)
        N, m = n, len(tr)
        c = N / (N - eta * m * beta)
        E = np.zeros(N)
        E[tr] = c
        K = sla.LinearOperator((N, N), matvec=lambda x: x - eta * (S @ x) - E * x, dtype=np.float64)
        theta = np.zeros((N, C))
        its, rhss = [], []
        for j in range(C):
            rhs = np.zeros(N)
            rhs[tr[lab[tr] == j]] = -1 / (N / eta - m * beta)
            cnt = [0]
            nb, x, t = np.linalg.norm(rhs), None, tol
            # scipy's MINRES stops on ||r|| / (||A|| ||x|| + ||b||) (among other tests), looser than
            # gssl's ||b - K theta|| / ||b|| <= tol: continue from the iterate with scipy's tol
            # lowered by the factor still missing, until gssl's rule holds
            for _ in range(5):
                x, info = sla.minres(K, rhs, x0=x, rtol=t, maxiter=100000,
                                     callback=lambda _x, cnt=cnt: cnt.__setitem__(0, cnt[0] + 1))
                rr = np.linalg.norm(rhs - K.matvec(x))
                if rr <= tol * nb:
                    break
                t *= 0.5 * tol * nb / rr
            theta[:, j] = x
            its.append(cnt[0])
            rhss.append(rhs)
        F = N * (S @ theta)
        acc = float(np.mean(F[te].argmax(1) == lab[te]))
        t2 = time.perf_counter()
        relres = max(float(np.linalg.norm(b - K.matvec(theta[:, j])) / np.linalg.norm(b)) for j, b in enumerate(rhss))
        out.update(eta=eta, beta=beta, tol=tol, iterations=its, max_relative_residual=relres, test_accuracy=acc,
                   val_accuracy=float(np.mean(F[va].argmax(1) == lab[va])))
    out.update(load=t1 - t0, seconds=t2 - t1)
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
