"""ctypes binding of libgssl, the C ABI of the Go library (capi/)."""

import ctypes
import json
import os
import sys
import threading
from pathlib import Path

import numpy as np

from .exceptions import CancelledError, ConvergenceWarning, NotFittedError  # noqa: F401

#: The C ABI version this package speaks (capi's abiVersion).
ABI_VERSION = 2

i32, i64, vp, cp = ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p, ctypes.c_char_p
P_i32, P_i64, P_u = ctypes.POINTER(i32), ctypes.POINTER(i64), ctypes.POINTER(ctypes.c_size_t)
#: gssl_progress: void (*)(int64_t iteration, double value).
PROGRESS = ctypes.CFUNCTYPE(None, i64, ctypes.c_double)

_SIGNATURES = {
    "gssl_abi_version": (i32, []),
    "gssl_call_new": (i64, []),
    "gssl_call_cancel": (None, [i64]),
    "gssl_call_error": (i64, [i64, vp, i64]),
    "gssl_free": (i32, [i64]),
    "gssl_live_handles": (i64, []),
    "gssl_result_info": (i32, [i64, i64, P_i32, P_i64, P_i64, P_i64]),
    "gssl_result_copy": (i32, [i64, i64, vp, i64]),
    "gssl_graph_from_csr": (i32, [i64, i64, i64, vp, i32, vp, i32, vp, i32, P_i64]),
    "gssl_graph_from_edges": (i32, [i64, i64, i64, vp, vp, i32, vp, i32, i32, i32, P_i64]),
    "gssl_graph_from_knn": (i32, [i64, vp, i32, i64, i64, i64, i32, ctypes.c_double, P_i64]),
    "gssl_graph_set_ids": (i32, [i64, i64, vp, vp, vp, i64]),
    "gssl_graph_ids": (i32, [i64, i64, P_i64]),
    "gssl_graph_load": (i32, [i64, cp, P_i64]),
    "gssl_graph_shape": (i32, [i64, i64, P_i64, P_i64]),
    "gssl_graph_to_csr": (i32, [i64, i64, vp, vp, vp]),
    "gssl_graph_copied": (i32, [i64, i64, P_i64]),
    "gssl_graph_data_address": (i32, [i64, i64, P_u]),
    "gssl_dataset_cora": (i32, [i64, P_i64, P_i64, P_i64]),
    "gssl_dataset_cora_features": (i32, [i64, P_i64, P_i64, P_i64, P_i64]),
    "gssl_kinds": (i32, [i64, P_i64]),
    "gssl_eval_roc_auc": (i32, [i64, vp, i64, i64, vp, ctypes.POINTER(ctypes.c_double)]),
    "gssl_eval_fit_temperature": (i32, [i64, vp, i64, i64, vp, ctypes.POINTER(ctypes.c_double)]),
    "gssl_eval_reliability": (i32, [i64, vp, i64, i64, vp, i64, P_i64, ctypes.POINTER(ctypes.c_double)]),
    "gssl_eval_conformal_calibrate": (i32, [i64, vp, i64, i64, vp, ctypes.c_double, ctypes.c_uint64,
                                            ctypes.POINTER(ctypes.c_double), P_i64]),
    "gssl_eval_conformal_sets": (i32, [i64, vp, i64, i64, ctypes.c_double, ctypes.c_uint64, P_i64]),
    "gssl_model_new": (i32, [i64, cp, cp, P_i64]),
    "gssl_model_role": (i32, [i64]),
    "gssl_model_info": (i32, [i64, i64, P_i64]),
    "gssl_model_set_context": (i32, [i64, i64, cp]),
    "gssl_model_fit": (i32, [i64, i64, i64, vp, i32, i64, i64, vp, vp, i64, PROGRESS]),
    "gssl_model_predict": (i32, [i64, i64, i64, vp, vp, i32, vp, vp, i32, i64, i64, P_i64]),
    "gssl_matrix_from_dense": (i32, [i64, vp, i32, i64, i64, P_i64]),
    "gssl_matrix_from_csr": (i32, [i64, i64, i64, i64, vp, i32, vp, i32, vp, i32, P_i64]),
    "gssl_matrix_copied": (i32, [i64, i64, P_i64]),
    "gssl_model_fit_matrix": (i32, [i64, i64, i64, i64, vp, vp, i64, PROGRESS]),
    "gssl_model_fit_held_out": (i32, [i64, i64, i64, i64, vp, vp, i64, vp, i64, PROGRESS]),
    "gssl_model_predict_sets": (i32, [i64, i64, i64, vp, vp, i32, vp, i64, vp, vp, P_i64]),
    "gssl_model_predict_matrix": (i32, [i64, i64, i64, vp, vp, i32, vp, i64, P_i64]),
    "gssl_model_predict_into": (i32, [i64, i64, i64, vp, vp, i32, vp, i64, vp, i64, P_i32, P_i64, P_i64, P_i64]),
    "gssl_model_fit_graphs": (i32, [i64, i64, vp, i64, vp, vp, PROGRESS]),
    "gssl_model_predict_graphs": (i32, [i64, i64, vp, i64, vp, P_i64]),
    "gssl_wl_kernel": (i32, [i64, i64, i32, vp, i64, vp, vp, i64, vp, P_i64]),
    "gssl_model_save": (i32, [i64, i64, cp]),
    "gssl_model_load": (i32, [i64, cp, P_i64]),
    "gssl_model_to_bytes": (i32, [i64, i64, P_i64]),
    "gssl_model_from_bytes": (i32, [i64, vp, i64, P_i64]),
}

# Status codes (capi/errors.go).
OK, EINVAL, ENOMEM, ENOTFITTED, ECANCELLED, ENOTCONVERGED, EIO, EHANDLE, EINTERNAL, EFORMAT = range(10)


def _libpath():
    env = os.environ.get("GSSL_LIBRARY")
    if env:
        return env
    name = {"darwin": "libgssl.dylib", "win32": "gssl.dll"}.get(sys.platform, "libgssl.so")
    return str(Path(__file__).resolve().parent / name)


def _load():
    lib = ctypes.CDLL(_libpath())
    for name, (res, args) in _SIGNATURES.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    v = lib.gssl_abi_version()
    if v != ABI_VERSION:
        raise ImportError(f"gssl: {_libpath()} speaks C ABI version {v}, and this package version {ABI_VERSION}: reinstall the package")
    return lib


lib = _load()

# The Go runtime's threads do not survive fork(): a child process forked
# after the library was loaded would hang in its first call. Calls in such a
# child raise instead.
_forked = False


def _after_fork_in_child():
    global _forked
    _forked = True


os.register_at_fork(after_in_child=_after_fork_in_child)

FORK_MESSAGE = (
    "gssl cannot be used in a process forked after gssl was imported: the Go runtime does not "
    "survive fork(). Use multiprocessing's 'spawn' or 'forkserver' start method "
    "(multiprocessing.get_context('spawn')), or import gssl only in the child processes."
)


def _error(h, code):
    n = lib.gssl_call_error(h, None, 0)
    buf = ctypes.create_string_buffer(max(n, 1))
    lib.gssl_call_error(h, buf, n)
    msg = buf.raw[:n].decode("utf-8", "replace")
    exc = {
        EINVAL: ValueError,
        ENOMEM: MemoryError,
        ENOTFITTED: NotFittedError,
        ECANCELLED: CancelledError,
        EIO: OSError,
        EHANDLE: ValueError,
        EINTERNAL: RuntimeError,
        EFORMAT: ValueError,
    }.get(code, RuntimeError)
    return exc(msg)


class NotConverged(Exception):
    """Internal: a fit stopped at its iteration cap (the model is kept)."""


class _ThreadCall:
    """The call handle of a thread's calls that cannot be cancelled, made
    at its first call and freed when the thread ends."""

    def __init__(self):
        self.h = lib.gssl_call_new()

    def __del__(self):
        try:
            if not _forked:
                lib.gssl_free(self.h)
        except Exception:  # interpreter shutdown: the library may be gone
            pass


_local = threading.local()


def _thread_call():
    c = getattr(_local, "call", None)
    if c is None:
        c = _local.call = _ThreadCall()
    return c.h


def call(fn, *args, cancellable=False):
    """Runs one C function under a call handle and raises its error.

    A call that cannot be cancelled runs under its thread's call handle
    (its context is never cancelled, and its error message is read before
    the thread's next call). With cancellable, the call gets a fresh call
    handle, and a call from the main thread runs in a helper thread while
    the main thread waits, so that Ctrl-C (KeyboardInterrupt) cancels the
    Go context at once and the call returns within one iteration; the
    KeyboardInterrupt is then raised. ctypes releases the GIL during the
    call either way.
    """
    if _forked:
        raise RuntimeError(FORK_MESSAGE)
    if not cancellable:
        h = _thread_call()
        code = fn(h, *args)
        if code != OK:
            _raise(h, code)
        return
    h = lib.gssl_call_new()
    try:
        if threading.current_thread() is threading.main_thread():
            code = _run_cancellable(h, fn, args)
        else:
            code = fn(h, *args)
        if code != OK:
            _raise(h, code)
    finally:
        lib.gssl_free(h)


def _raise(h, code):
    if code == ENOTCONVERGED:
        raise NotConverged(_error(h, code).args[0])
    raise _error(h, code)


def _run_cancellable(h, fn, args):
    # The wait is on an Event the worker sets when the C call has returned,
    # not on Thread.join: a KeyboardInterrupt inside join can leave the
    # thread marked as stopped while it still runs (CPython releases the
    # thread's state lock when the interrupted acquire finds it held), and
    # the caller would then free arrays the Go call still reads.
    out = []
    done = threading.Event()

    def work():
        try:
            out.append(fn(h, *args))
        finally:
            done.set()

    t = threading.Thread(target=work, name="gssl-call", daemon=True)
    t.start()
    try:
        while not done.wait(0.01):
            pass
    except KeyboardInterrupt:
        lib.gssl_call_cancel(h)
        # The Go call returns within one iteration of its model; a second
        # Ctrl-C meanwhile must not let the caller go on before it has.
        while True:
            try:
                if done.wait(0.01):
                    break
            except KeyboardInterrupt:
                pass
        raise
    return out[0]


def take_result(r):
    """Copies result handle r out (an ndarray, or bytes) and frees it."""
    try:
        dtype, rows, cols, nbytes = i32(), i64(), i64(), i64()
        call(lib.gssl_result_info, r, ctypes.byref(dtype), ctypes.byref(rows), ctypes.byref(cols), ctypes.byref(nbytes))
        if dtype.value == 3:
            buf = ctypes.create_string_buffer(max(nbytes.value, 1))
            call(lib.gssl_result_copy, r, buf, nbytes.value)
            return buf.raw[: nbytes.value]
        out = np.empty((rows.value, cols.value), dtype=np.float64 if dtype.value == 1 else np.int64)
        call(lib.gssl_result_copy, r, out.ctypes.data, nbytes.value)
        return out
    finally:
        lib.gssl_free(r)


def predict_into(m, nnew, offsets, nodes, id_size, weights, x, guess):
    """Runs gssl_model_predict_into on model handle m and returns the
    result as an ndarray: written straight into a buffer of ``guess``
    elements (the expected rows × columns) when it fits, else copied out of
    the result handle the call returns."""
    buf = np.empty(max(guess, 1), dtype=np.float64)
    dtype, rows, cols, r = i32(), i64(), i64(), i64()
    call(lib.gssl_model_predict_into, m, nnew, offsets, nodes, id_size, weights, x, buf.ctypes.data, buf.nbytes,
         ctypes.byref(dtype), ctypes.byref(rows), ctypes.byref(cols), ctypes.byref(r))
    if r.value:
        return take_result(r.value)
    n = rows.value * cols.value
    if dtype.value == 2:
        buf = buf.view(np.int64)
    return buf[:n].reshape(rows.value, cols.value)


def take_json(r):
    return json.loads(take_result(r).decode("utf-8"))


def new_handle():
    return i64(0)


def ptr(a):
    """The address of an array's data, or None."""
    return None if a is None else a.ctypes.data


def progress_function(progress):
    """A PROGRESS callback for fit's progress argument: None for none, a
    callable(iteration, value), or True for a tqdm bar (when tqdm is
    installed; otherwise nothing is shown)."""
    if progress is None or progress is False:
        return PROGRESS()
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return PROGRESS()
        bar = tqdm(desc="gssl fit", unit="it")

        def progress(iteration, value):
            bar.n = iteration
            bar.set_postfix(value=f"{value:.3g}", refresh=False)
            bar.refresh()

    if not callable(progress):
        raise TypeError(f"progress must be None, True or a callable(iteration, value), got {type(progress).__name__}")
    return PROGRESS(lambda i, v: progress(int(i), float(v)))
