"""Writes the NumPy fixtures of the point-level commands' tests (gssl gp,
imgp, falkon, svm with --features/--targets/--labels as .npy files).

Run with Debian's python3: /usr/bin/python3 make.py
"""
import numpy as np

rng = np.random.default_rng(7)
n = 60
t = rng.uniform(0, 2 * np.pi, n)
x = np.stack([np.cos(t), np.sin(t), 0.05 * rng.standard_normal(n)], axis=1)
y = np.sin(2 * t)
y_missing = y.copy()
y_missing[::4] = np.nan  # the points to predict
labels = (x[:, 0] > 0).astype(np.int64)
labels_missing = labels.copy()
labels_missing[::4] = -1

np.save("features.npy", x)  # float64, C order, shape (60, 3)
np.save("features_f32.npy", x.astype(np.float32))
np.save("targets.npy", y_missing)
np.save("labels.npy", labels_missing)
np.savetxt("features.csv", x, delimiter=",", header="a,b,c", comments="")
np.savetxt("targets.csv", y_missing, header="target", comments="")
