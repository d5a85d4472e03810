"""Label spreading with PyTorch Geometric's LabelPropagation on a node folder (edges.txt, labels.txt,
split_planetoid.txt): the PyG scale peer, beside lp_scale.py (SciPy) on the same graphs.

Usage: lp_scale_pyg.py DIR ALPHA [--layers N|auto] [--tol T] [--max-layers M] [--adj edge_index|csr]
                       [--threads K] [--calibrate] [--scores FILE]
  prints one JSON line {"load": s, "solve": s, "acc": test accuracy, "layers": L, "residual": r, "peak_mb": MB, ...}

The graph is lp_scale.py's: np.fromstring of the edge list, COO -> CSR, W = W + Wᵀ with every stored weight 1
(self loops kept, as there); edge_index is that CSR's pattern (both directions), int64, as bench/peers.py passes
`np.vstack(W.nonzero())`. Load = that, the labels and the split, to torch tensors.

Solve = `LabelPropagation(num_layers=L, alpha=ALPHA)(y, edge_index, mask=train)` as bench/peers.py calls it:
gcn_norm's D^-1/2 W D^-1/2 (no self loops added), then L layers of F <- clamp(a S F + (1 - a) Y, 0, 1) in float32,
from F = Y (the one-hot train labels). Without the clamp this is the Jacobi iteration of (I - a S) F = (1 - a) Y,
whose fixed point is the one lp_scale.py's CG and gssl solve for; the clamp does not bind while every entry of
the unclamped iterate is in [0, 1] (so with equal degrees; "clamped" in the output counts its entries > 1).
With --adj csr the graph is passed as a torch.sparse CSR adjacency instead of edge_index: PyG then aggregates
by one sparse-dense product (message_and_aggregate) rather than gathering an E x c message block; same iteration.

--layers auto (the default) chooses L by the residual, as SciPy's CG and gssl stop: the smallest L whose iterate
F_L has every class's relative residual ||(1 - a) y_j - (I - a S) f_j||_2 / ||(1 - a) y_j||_2 <= T (default
1e-6, lp_scale.py's rtol; --max-layers bounds the search, default 1000). The residual of F_k is F_k - F_{k+1}
before the clamp, so one untimed calibration run of M layers, with a post_step hook that records it (and
stops the iteration by an exception once it is met), finds L; the timed run is then a fresh call with L layers
and PyG's own post_step (after a call on a 3-node graph that pays a first call's one-off costs). The
calibration's time and per-layer accuracy are reported ("calibration"). With --calibrate the script stops
after the calibration (the benchmark calibrates once per graph, then times --layers L, so that the timed
process's peak memory is its own). "residual" is the timed output's largest
class residual, computed after the timing by one more propagation (skipped at --layers 0).
"peak_mb" is the process's peak resident set (VmHWM) at the end of the solve, before that check.
"""
import argparse
import json
import sys
import time

import numpy as np
import scipy.sparse as sp


def peak_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


T0 = time.perf_counter()


def phase(what):
    """Announces a phase of the load on stderr, so that a run stopped from outside says where it was."""
    print(f"lp_scale_pyg.py: {time.perf_counter() - T0:.1f} s: {what}", file=sys.stderr, flush=True)


def load(d, adj):
    import torch
    phase("reading the edge list into a string")
    s = open(d + "/edges.txt").read()
    phase("parsing it into int64 pairs")
    e = np.fromstring(s, dtype=np.int64, sep=" ").reshape(-1, 2)
    del s
    phase(f"{len(e)} edges read; COO -> CSR, W + W^T")
    lab = np.fromstring(open(d + "/labels.txt").read(), dtype=np.int64, sep="\n")
    n = len(lab)
    if len(e) and (e.min() < 0 or e.max() >= n):
        raise SystemExit(f"lp_scale_pyg.py: {d}/edges.txt names a node outside 0..{n - 1}")
    W = sp.coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n)).tocsr()
    del e
    W = (W + W.T).tocsr()
    W.sort_indices()
    phase(f"CSR with {W.nnz} stored entries; the adjacency as torch tensors ({adj})")
    col = torch.from_numpy(W.indices.astype(np.int64))
    if adj == "csr":
        g = torch.sparse_csr_tensor(torch.from_numpy(W.indptr.astype(np.int64)), col,
                                    torch.ones(W.nnz, dtype=torch.float32), size=(n, n))
    else:
        row = torch.from_numpy(np.repeat(np.arange(n, dtype=np.int64), np.diff(W.indptr)))
        g = torch.stack([row, col])
        del row
    del W, col
    tr, te = [], []
    for line in open(d + "/split_planetoid.txt"):
        k, i = line.split()
        (tr if k == "train" else te if k == "test" else []).append(int(i))
    mask = torch.zeros(n, dtype=torch.bool)
    mask[torch.tensor(tr, dtype=torch.long)] = True
    return g, torch.from_numpy(lab), mask, torch.tensor(te, dtype=torch.long)


class Converged(Exception):
    pass


def residual_norms(prev, nxt, b):
    """Every class's ||F_k - F_{k+1}|| / ||b_j||: the relative residual of F_k (k = prev)."""
    return ((nxt - prev).norm(dim=0) / b).max().item()


def calibrate(lp, y, g, mask, te, a, tol, max_layers):
    """Runs lp for up to max_layers layers, recording each iterate's residual; returns L and the trace."""
    import torch
    from torch_geometric.utils import one_hot
    y0 = one_hot(y)
    y0[~mask] = 0
    b = ((1 - a) * y0).norm(dim=0).clamp_min(1e-300)
    trace = []
    state = {"prev": y0.clone(), "k": 0}

    def hook(out):
        # out is F_{k+1} = a S F_k + (1 - a) Y before the clamp; F_k's residual is F_k - F_{k+1}.
        k = state["k"]
        r = residual_norms(state["prev"], out, b)
        trace.append({"layer": k, "residual": r, "acc": float((state["prev"][te].argmax(1) == y[te]).double().mean())})
        if r <= tol:
            raise Converged(k)
        out.clamp_(0.0, 1.0)
        state["prev"] = out.clone()
        state["k"] = k + 1
        return out

    lp.num_layers = max_layers
    t = time.perf_counter()
    layers = None
    try:
        lp(y, g, mask=mask, post_step=hook)
    except Converged as c:
        layers = c.args[0]
    return layers, time.perf_counter() - t, trace


def final_residual(lp, out, y, g, mask, a):
    """The largest class residual of out, by one more propagation (PyG's own normalised graph)."""
    import torch
    from torch_geometric.utils import one_hot
    y0 = one_hot(y)
    y0[~mask] = 0
    b = ((1 - a) * y0).norm(dim=0).clamp_min(1e-300)
    lp.num_layers = 1
    # LabelPropagation's res term is (1 - a) times its own input: given out (no mask) it returns
    # a S out + (1 - a) out, so a S out = nxt - (1 - a) out and the residual is out - a S out - (1 - a) Y.
    nxt = lp(out, g, post_step=lambda z: z)
    r = out - (nxt - (1 - a) * out) - (1 - a) * y0
    return (r.norm(dim=0) / b).max().item(), int((nxt - (1 - a) * out + (1 - a) * y0 > 1).sum())


def warm_up(lp, adj):
    """One call on a 3-node path, untimed: the one-off costs of a first call (bench/peers.py makes a whole
    untimed first call; at 100 M edges that would double the run, so only these costs are paid here)."""
    import torch
    ei = torch.tensor([[0, 1, 1, 2], [1, 0, 2, 1]])
    if adj == "csr":
        ei = torch.sparse_coo_tensor(ei, torch.ones(4), (3, 3)).to_sparse_csr()
    lp.num_layers = 2
    lp(torch.tensor([0, 1, 1]), ei, mask=torch.tensor([True, False, True]))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir")
    p.add_argument("alpha", type=float)
    p.add_argument("--layers", default="auto")
    p.add_argument("--tol", type=float, default=1e-6)
    p.add_argument("--max-layers", type=int, default=1000)
    p.add_argument("--adj", choices=["edge_index", "csr"], default="edge_index")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--calibrate", action="store_true")
    p.add_argument("--scores", help="write the timed output's score block (float32, n x c) to this .npy file")
    o = p.parse_args(argv)
    if not 0 < o.alpha < 1:
        raise SystemExit(f"lp_scale_pyg.py: ALPHA must be in (0, 1), got {o.alpha}")
    if o.layers != "auto" and not (o.layers.isdigit()):
        raise SystemExit(f"lp_scale_pyg.py: --layers must be a count or auto, got {o.layers!r}")
    import torch
    import torch_geometric
    from torch_geometric.nn.models import LabelPropagation
    torch.set_num_threads(o.threads)
    t0 = time.perf_counter()
    try:
        g, y, mask, te = load(o.dir, o.adj)
    except (OSError, ValueError) as err:
        raise SystemExit(f"lp_scale_pyg.py: {o.dir}: {err}")
    t1 = time.perf_counter()
    res = {"peer": f"PyG {torch_geometric.__version__} LabelPropagation (torch {torch.__version__})",
           "adj": o.adj, "threads": o.threads, "load": t1 - t0}
    lp = LabelPropagation(num_layers=1, alpha=o.alpha)
    if o.layers == "auto":
        layers, secs, trace = calibrate(lp, y, g, mask, te, o.alpha, o.tol, o.max_layers)
        res["calibration"] = {"tol": o.tol, "max_layers": o.max_layers, "seconds": secs, "layers": layers,
                              "trace": trace}
        if layers is None:
            res["error"] = f"residual above {o.tol} after {o.max_layers} layers"
            print(json.dumps(res))
            return 1
    else:
        layers = int(o.layers)
    res["layers"] = layers
    if o.calibrate:
        res["peak_mb"] = peak_mb()
        print(json.dumps(res))
        return 0
    warm_up(lp, o.adj)
    lp.num_layers = layers
    t2 = time.perf_counter()
    out = lp(y, g, mask=mask)
    pred = out.argmax(1)
    t3 = time.perf_counter()
    res.update(solve=t3 - t2, peak_mb=peak_mb(), acc=float((pred[te] == y[te]).double().mean()))
    if layers > 0:
        res["residual"], res["clamped"] = final_residual(lp, out, y, g, mask, o.alpha)
    if o.scores:
        np.save(o.scores, out.numpy())
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
