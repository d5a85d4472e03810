"""Shared by the benchmarks: the new nodes that capi's BenchmarkPredictNew
builds too (node i joins fitted nodes (7919·i + 104729·j) mod n, j < 5,
weight 1)."""

import numpy as np
import scipy.sparse as sp


def new_nodes(count, n, per=5):
    i = np.repeat(np.arange(count), per)
    j = np.tile(np.arange(per), count)
    cols = (7919 * i + 104729 * j) % n
    return sp.csr_array((np.ones(count * per), (i, cols)), shape=(count, n))
