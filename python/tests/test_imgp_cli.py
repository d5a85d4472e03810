"""IMGP from Python against gssl imgp on srmnist (shared data)."""

import csv
import gzip

import numpy as np

import gssl
from conftest import run_cli, shared_path


def read_images(path):
    return np.frombuffer(gzip.open(path).read(), dtype=np.uint8).reshape(-1, 784) / 255.0


def test_imgp_equals_the_cli_on_srmnist(gssl_cli, tmp_path):
    d = shared_path("data", "srmnist")
    # Every 10th training image (1001 points, every 10th of them labelled,
    # the rest NaN) and every 10th test image: the CLI's --features
    # --targets (NaN: a point to predict) --test-features path.
    X = read_images(d / "train_images_u8.bin.gz")[::10]
    angles = np.loadtxt(d / "train_angles.txt")[::10]
    Xt = read_images(d / "test_images_u8.bin.gz")[::10]
    y = np.full(angles.size, np.nan)
    y[::10] = angles[::10]
    for name, a in (("X", X), ("y", y), ("Xt", Xt)):
        np.save(tmp_path / f"{name}.npy", a)
    out = tmp_path / "pred.csv"
    run_cli(gssl_cli, "imgp", "--features", str(tmp_path / "X.npy"), "--targets", str(tmp_path / "y.npy"),
            "--test-features", str(tmp_path / "Xt.npy"), "--out", str(out))
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    model = gssl.ImplicitManifoldGPRegressor().fit(X, y)
    for part, query in (("features", None), ("test-features", Xt)):
        got = [r for r in rows if r["set"] == part]
        ids = np.array([int(r["id"]) for r in got])  # row numbers from 0
        mean, std = model.predict(query, return_std=True)
        assert ids.size == (np.isnan(y).sum() if query is None else Xt.shape[0])
        want_mean = np.array([float(r["prediction"]) for r in got])
        want_var = np.array([float(r["variance"]) for r in got])
        np.testing.assert_allclose(mean[ids], want_mean, rtol=1e-12, atol=0)
        np.testing.assert_allclose(std[ids] ** 2, want_var, rtol=1e-12, atol=0)
