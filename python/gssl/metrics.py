"""Confidence tools of the Go package eval: ROC AUC, temperature scaling
and calibration error, and split-conformal prediction sets (the adaptive
prediction sets of Romano, Sesia and Candès 2020).

Scores and probabilities are (n, C) arrays (read in place when float64 and
C-contiguous), labels n integers in 0..C−1 with −1 for unknown (those rows
are skipped, as gssl's fits skip them).

    >>> import numpy as np, gssl
    >>> gssl.metrics.roc_auc_score([0, 1, 1, 0], [0.1, 0.8, 0.4, 0.3])
    1.0
"""

import ctypes
from dataclasses import dataclass

import numpy as np

from . import _lib
from ._lib import call, lib

__all__ = ["roc_auc_score", "fit_temperature", "softmax", "reliability", "expected_calibration_error",
           "SplitConformal"]


def _scores(S, what):
    S = np.asarray(S, dtype=np.float64)
    if S.ndim == 1:
        S = S[:, None]
    if S.ndim != 2 or S.shape[0] == 0 or S.shape[1] == 0:
        raise ValueError(f"{what} must be a non-empty (n, C) array, got shape {S.shape}")
    return np.ascontiguousarray(S)


def _labels(y, n):
    y = np.asarray(y)
    if y.shape != (n,) or y.dtype.kind not in "iu":
        raise ValueError(f"y must be {n} integer labels (−1 for unknown), got dtype {y.dtype} and shape {y.shape}")
    return np.ascontiguousarray(y, dtype=np.int64)


def roc_auc_score(y, scores):
    """The ROC AUC (ties count one half): for 1-D scores (or one column),
    of the scores for class 1 against class 0; for (n, C) scores with C ≥ 2,
    the macro mean of the one-vs-rest AUCs of the columns (scikit-learn's
    ``roc_auc_score(y, scores, multi_class="ovr")``; with C = 2 the AUC of
    column 1)."""
    S = _scores(scores, "scores")
    y = _labels(y, S.shape[0])
    out = ctypes.c_double()
    call(lib.gssl_eval_roc_auc, _lib.ptr(S), S.shape[0], S.shape[1], _lib.ptr(y), ctypes.byref(out))
    return out.value


def fit_temperature(log_scores, y):
    """The temperature T > 0 minimising the negative log-likelihood of
    softmax(z/T) on the labelled rows of the log-scores z (logits, or
    ``np.log(proba)``); ``softmax(z, T)`` gives the calibrated
    probabilities."""
    Z = _scores(log_scores, "log_scores")
    y = _labels(y, Z.shape[0])
    out = ctypes.c_double()
    call(lib.gssl_eval_fit_temperature, _lib.ptr(Z), Z.shape[0], Z.shape[1], _lib.ptr(y), ctypes.byref(out))
    return out.value


def softmax(log_scores, temperature=1.0):
    """Row-wise softmax of z/T (−inf entries get probability 0)."""
    Z = np.asarray(log_scores, dtype=np.float64) / temperature
    E = np.exp(Z - Z.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


@dataclass
class Reliability:
    """A reliability diagram: per equal-width bin of top probability (lo,
    hi], the number of rows, their mean top probability and the fraction
    predicted right; and the expected calibration error."""

    lo: np.ndarray
    hi: np.ndarray
    count: np.ndarray
    confidence: np.ndarray
    accuracy: np.ndarray
    ece: float


def reliability(proba, y, n_bins=15):
    """The reliability diagram and expected calibration error (Guo et al.
    2017) of probabilities ``proba`` on the labelled rows, over ``n_bins``
    equal-width bins of the top probability."""
    P = _scores(proba, "proba")
    y = _labels(y, P.shape[0])
    if not (isinstance(n_bins, (int, np.integer)) and n_bins >= 1):
        raise ValueError(f"n_bins={n_bins!r} is invalid: it must be an integer ≥ 1")
    r, ece = _lib.new_handle(), ctypes.c_double()
    call(lib.gssl_eval_reliability, _lib.ptr(P), P.shape[0], P.shape[1], _lib.ptr(y), int(n_bins), ctypes.byref(r),
         ctypes.byref(ece))
    b = _lib.take_result(r.value)
    return Reliability(b[:, 0], b[:, 1], b[:, 2].astype(np.int64), b[:, 3], b[:, 4], ece.value)


def expected_calibration_error(proba, y, n_bins=15):
    """The expected calibration error Σ_b |B_b|/n · |accuracy(B_b) −
    confidence(B_b)| over ``n_bins`` equal-width bins of top probability."""
    return reliability(proba, y, n_bins).ece


class SplitConformal:
    """Split-conformal prediction sets with the randomised adaptive
    prediction sets (APS) score: ``calibrate(proba, y)`` on held-out
    labelled rows, then ``predict_sets(proba)`` gives sets that hold the
    true class with probability ≥ 1 − ``alpha`` on rows exchangeable with
    the calibration rows. ``seed`` draws the score's uniforms (the sets of
    one call are deterministic under it).

    Attributes after calibrate: ``threshold_`` (q̂, +inf when there are
    fewer than 1/alpha − 1 calibration rows) and ``n_calibration_``."""

    def __init__(self, alpha=0.1, seed=0):
        self.alpha = alpha
        self.seed = seed

    def calibrate(self, proba, y):
        P = _scores(proba, "proba")
        y = _labels(y, P.shape[0])
        q, n = ctypes.c_double(), ctypes.c_int64()
        call(lib.gssl_eval_conformal_calibrate, _lib.ptr(P), P.shape[0], P.shape[1], _lib.ptr(y), float(self.alpha),
             int(self.seed), ctypes.byref(q), ctypes.byref(n))
        self.threshold_, self.n_calibration_ = q.value, n.value
        return self

    def predict_sets(self, proba, seed=None):
        """The prediction set of each row: an array of classes in decreasing
        probability. ``seed`` (default: the calibration seed + 1) draws the
        uniforms of the rows' scores."""
        if not hasattr(self, "threshold_"):
            from .exceptions import NotFittedError
            raise NotFittedError("this SplitConformal is not calibrated yet: call calibrate first")
        P = _scores(proba, "proba")
        r = _lib.new_handle()
        s = int(self.seed) + 1 if seed is None else int(seed)
        call(lib.gssl_eval_conformal_sets, _lib.ptr(P), P.shape[0], P.shape[1], self.threshold_, s, ctypes.byref(r))
        M = _lib.take_result(r.value)
        return [row[row >= 0] for row in M]
