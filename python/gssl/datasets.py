"""Data sets shipped inside the package (embedded in the library, as the
CLI embeds them)."""

import ctypes
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from . import _lib
from ._graph import Graph
from ._lib import call, lib


@dataclass
class NodeDataset:
    """A graph with a label per node and a benchmark split."""

    graph: Graph
    labels: np.ndarray  # class 0..C−1 per node, −1 unknown
    train: np.ndarray  # node numbers of the split's parts
    val: np.ndarray
    test: np.ndarray
    #: one row of features per node (a SciPy CSR array), or None
    features: sp.csr_array = None

    def train_labels(self):
        """The labels with every node outside the training part set to −1:
        the ``y`` of a transductive fit."""
        y = np.full_like(self.labels, -1)
        y[self.train] = self.labels[self.train]
        return y


def cora():
    """Cora (2708 papers, 5278 citations, 7 classes, 1433 binary
    bag-of-words features as a SciPy CSR array) with the Planetoid split
    (140 training, 500 validation, 1000 test nodes): the copy ``gssl
    labelprop`` and ``gssl classify`` run on without --data."""
    g, lab, split = _lib.new_handle(), _lib.new_handle(), _lib.new_handle()
    call(lib.gssl_dataset_cora, ctypes.byref(g), ctypes.byref(lab), ctypes.byref(split))
    graph = Graph(g.value)
    labels = _lib.take_result(lab.value)[:, 0]
    part = _lib.take_result(split.value)[:, 0]
    ip, ix, d, cols = _lib.new_handle(), _lib.new_handle(), _lib.new_handle(), _lib.new_handle()
    call(lib.gssl_dataset_cora_features, ctypes.byref(ip), ctypes.byref(ix), ctypes.byref(d), ctypes.byref(cols))
    indptr = _lib.take_result(ip.value)[:, 0]
    indices = _lib.take_result(ix.value)[:, 0].astype(np.int32)
    data = _lib.take_result(d.value)[:, 0]
    features = sp.csr_array((data, indices, indptr), shape=(labels.size, cols.value))
    return NodeDataset(graph, labels, *(np.flatnonzero(part == k) for k in (1, 2, 3)), features=features)
