"""Exceptions and warnings of gssl."""

try:  # scikit-learn's, when it is installed, so that its checks see ours
    from sklearn.exceptions import ConvergenceWarning as _ConvergenceWarningBase
    from sklearn.exceptions import NotFittedError as _NotFittedBase
except ImportError:  # pragma: no cover - exercised without scikit-learn

    class _NotFittedBase(ValueError, AttributeError):
        pass

    class _ConvergenceWarningBase(UserWarning):
        pass


class NotFittedError(_NotFittedBase):
    """A model was asked to predict before it was fitted (or loaded).

    Derives from scikit-learn's NotFittedError when scikit-learn is
    installed, else from ValueError and AttributeError as scikit-learn's
    does.
    """


class ConvergenceWarning(_ConvergenceWarningBase):
    """A fit stopped at its iteration cap; the model holds the last iterate."""


class CancelledError(RuntimeError):
    """A call was cancelled through its context."""
