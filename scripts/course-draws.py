"""Save the random draws of the kernel-methods course's chapter 9 experiment
("How many features are enough?", shared/papers/003, ch. 9; the same stream
as shared/bench/peers/krr.py course), so that krr's TestCourseChapter9 can
rerun it on identical inputs: numpy's default_rng(0) cannot be reproduced in Go.

Writes to krr/testdata/course/ (gzipped CSV, 17 significant digits):
  x.csv.gz (3000x5), xt.csv.gz (1000x5), y.csv.gz (3000x1)
  rff_w.csv.gz (5x800), rff_b.csv.gz (800x1)  -- W, b of random features D=800
  landmarks.txt                               -- Nystrom m=800 landmark rows (file order of rng.choice)
  expected.txt                                -- numpy's test MSEs against f*(Xt)

Run: /usr/bin/python3 scripts/course-draws.py [OUT_DIR]
     /usr/bin/python3 scripts/course-draws.py --seeds 8   exact-KRR test MSE of the same code
                                                          with default_rng(0..7): the spread of one draw
"""
import gzip
import os
import sys

import numpy as np

if len(sys.argv) == 3 and sys.argv[1] == "--seeds":
    for seed in range(int(sys.argv[2])):
        rng = np.random.default_rng(seed)
        d, n, s, lam = 5, 3000, 1.5, 1e-4
        f_star = lambda X: np.sin(X[:, 0]) + np.cos(X[:, 1] * X[:, 2]) + 0.5 * X[:, 3]
        X, Xt = rng.normal(size=(n, d)), rng.normal(size=(1000, d))
        y = f_star(X) + 0.2 * rng.normal(size=n)
        g = lambda A, B: np.exp(-((A ** 2).sum(1)[:, None] + (B ** 2).sum(1)[None, :] - 2 * A @ B.T) / (2 * s ** 2))
        alpha = np.linalg.solve(g(X, X) + n * lam * np.eye(n), y)
        print("seed %d: exact KRR test MSE %.4f" % (seed, np.mean((g(Xt, X) @ alpha - f_star(Xt)) ** 2)))
    sys.exit(0)

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "krr", "testdata", "course")
os.makedirs(out, exist_ok=True)

# --- the course's code, drawing in its order ---------------------------------
rng = np.random.default_rng(0)
d, n, s, lam = 5, 3000, 1.5, 1e-4
f_star = lambda X: np.sin(X[:, 0]) + np.cos(X[:, 1] * X[:, 2]) + 0.5 * X[:, 3]
X, Xt = rng.normal(size=(n, d)), rng.normal(size=(1000, d))
y = f_star(X) + 0.2 * rng.normal(size=n)


def gauss(A, B):
    d2 = (A ** 2).sum(1)[:, None] + (B ** 2).sum(1)[None, :] - 2 * A @ B.T
    return np.exp(-d2 / (2 * s ** 2))


mse = {}
alpha = np.linalg.solve(gauss(X, X) + n * lam * np.eye(n), y)
mse["exact"] = np.mean((gauss(Xt, X) @ alpha - f_star(Xt)) ** 2)
for D in [50, 200, 800]:
    W, b = rng.normal(scale=1 / s, size=(d, D)), rng.uniform(0, 2 * np.pi, D)
    z = lambda A: np.sqrt(2 / D) * np.cos(A @ W + b)
    Z = z(X)
    w = np.linalg.solve(Z.T @ Z + n * lam * np.eye(D), Z.T @ y)
    mse[f"rff{D}"] = np.mean((z(Xt) @ w - f_star(Xt)) ** 2)
    idx = rng.choice(n, D, replace=False)
    land = X[idx]
    Knm, Kmm = gauss(X, land), gauss(land, land)
    beta = np.linalg.solve(Knm.T @ Knm + n * lam * Kmm + 1e-8 * np.eye(D), Knm.T @ y)
    mse[f"nystrom{D}"] = np.mean((gauss(Xt, land) @ beta - f_star(Xt)) ** 2)
# ------------------------------------------------------------------------------


def save(name, a):
    a = np.atleast_2d(a.T).T if a.ndim == 1 else a
    with gzip.GzipFile(os.path.join(out, name), "wb", mtime=0) as f:
        for row in a:
            f.write((",".join("%.17g" % v for v in row) + "\n").encode())


save("x.csv.gz", X)
save("xt.csv.gz", Xt)
save("y.csv.gz", y)
save("rff_w.csv.gz", W)
save("rff_b.csv.gz", b)
with open(os.path.join(out, "landmarks.txt"), "w") as f:
    f.write("# Nystrom m=800 landmarks of the course's chapter 9 draw (scripts/course-draws.py)\n")
    f.writelines("%d\n" % i for i in idx)
with open(os.path.join(out, "expected.txt"), "w") as f:
    f.write("# numpy test MSEs against f*(Xt), course chapter 9, default_rng(0) (scripts/course-draws.py)\n")
    for k in ["exact", "nystrom800", "rff800"]:
        f.write("%s %.17g\n" % (k, mse[k]))
print({k: round(v, 4) for k, v in mse.items()})
