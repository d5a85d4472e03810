"""scikit-learn's Euclidean GP (the gp.py peer) on given labelled subsets of srmnist.

Exactly shared/bench/peers/gp.py's model and metrics — GaussianProcessRegressor(
ConstantKernel(1.0) * Matern(length_scale=1.0, nu=2.5) + WhiteKernel(1e-2),
n_restarts_optimizer=0, normalize_y=False, random_state=0), pixels / 255, targets
standardised with the training mean and std (ddof 0), test RMSE and mean Gaussian NLL with
the predictive std from predict(return_std=True) — on each subset file given (from
scripts/imgp_subsets.py), printing one JSON line per file (peer "sklearn-GPR-Matern52").
Run:  OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 .venv-peers/bin/python scripts/imgp_sklearn_gp.py DATA_DIR SUBSET...
"""
import gzip
import json
import os
import re
import sys
import time

import numpy as np


def load_split(d, name):
    with gzip.open(os.path.join(d, f"{name}_images_u8.bin.gz"), "rb") as f:
        x = np.frombuffer(f.read(), dtype=np.uint8).reshape(-1, 784)
    return x.astype(np.float64) / 255.0, np.loadtxt(os.path.join(d, f"{name}_angles.txt"))


def main():
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import ConstantKernel, Matern, WhiteKernel
    d = sys.argv[1]
    xtr, atr = load_split(d, "train")
    xte, ate = load_split(d, "test")
    mu, sd = atr.mean(), atr.std()
    ytr, yte = (atr - mu) / sd, (ate - mu) / sd
    for path in sys.argv[2:]:
        sub = np.loadtxt(path, dtype=np.int64).reshape(-1)
        m = re.search(r"subset([0-9.]+)_seed(\d+)", os.path.basename(path))
        kern = ConstantKernel(1.0) * Matern(length_scale=1.0, nu=2.5) + WhiteKernel(1e-2)
        t0 = time.perf_counter()
        gpr = GaussianProcessRegressor(kernel=kern, n_restarts_optimizer=0, normalize_y=False,
                                       random_state=0).fit(xtr[sub], ytr[sub])
        mean, std = gpr.predict(xte, return_std=True)
        secs = time.perf_counter() - t0
        rmse = float(np.sqrt(np.mean((mean - yte) ** 2)))
        nll = float(np.mean(0.5 * np.log(2 * np.pi * std ** 2) + (yte - mean) ** 2 / (2 * std ** 2)))
        print(json.dumps({"task": "gp", "dataset": "srmnist", "peer": "sklearn-GPR-Matern52",
                          "params": {"n_fit": int(len(sub)), "frac": float(m.group(1)) / 100 if m else None,
                                     "seed": int(m.group(2)) if m else None, "subset": os.path.basename(path),
                                     "kernel_fitted": str(gpr.kernel_)},
                          "rmse": rmse, "nll": nll, "seconds": secs}), flush=True)


if __name__ == "__main__":
    main()
