"""gssl: graph-based semi-supervised learning on a compiled Go core.

    >>> import gssl
    >>> cora = gssl.datasets.cora()
    >>> model = gssl.LabelSpreading(alpha=0.9).fit(cora.graph, cora.train_labels())
    >>> acc = (model.predict()[cora.test] == cora.labels[cora.test]).mean()
    >>> print(f"test accuracy {acc:.4f}")
    test accuracy 0.7130

See python/README.md for the API.
"""

from . import datasets, metrics
from ._graph import Graph
from ._lib import ABI_VERSION, FORK_MESSAGE
from ._models import CLASSES, NAMES, FeatureMatrix, Model, load
from .exceptions import CancelledError, ConvergenceWarning, NotFittedError

for _cls in CLASSES.values():
    globals()[_cls.__name__] = _cls

__all__ = ["Graph", "FeatureMatrix", "datasets", "metrics", "load", "Model", "NotFittedError", "ConvergenceWarning", "CancelledError",
           "ABI_VERSION", "FORK_MESSAGE"] + [c.__name__ for c in CLASSES.values()]
__version__ = "0.1.0"
