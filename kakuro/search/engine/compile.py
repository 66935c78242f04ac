"""Compiling the engine: the kernel decorators, a disk cache keyed by the engine's own sources,
and compilation paid before any clock starts.

Every kernel is `compiled` (or `inlined`): numba nopython mode, no reference-counting runtime
(`_nrt=False`: passing the state to a function then costs 37 ns instead of 395 ns, measured on
a smallest-domain scan of a 64-cell state; so no kernel allocates: buffers are numpy arrays
made in Python and copies are explicit loops), cached on disk.

**Caches that cannot go stale.** numba stamps a cached function with its own file only, so a
kernel that inlines `assign` from another file would keep running the old propagation after
that file changed. Here every kernel's stamp is `SOURCE_HASH`, the hash of every engine
module's source (and the numba version): editing any engine file recompiles every kernel. The
cache lives in the engine's `__pycache__`, or in numba's user-wide cache folder when that is
not writable.

**Compilation outside the clock.** `ensure(*modules)` runs each engine module's `warm_up()`
(which calls its kernels once on a tiny puzzle) once per process; a backend calls it before its
deadline is armed, so `Result.time` and every limit count solving only. `is_cold(*modules)`
says whether that will compile (nothing on disk yet for these sources), so a command line can
say what it is doing. Modules are named by their file: "propagate", "tree", "montecarlo",
"harmony", "local".
"""

from __future__ import annotations

import hashlib
import importlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numba
from numba import njit
from numba.core import caching

ENGINE = Path(__file__).resolve().parent
MODULES = ("state", "propagate", "tree", "playout", "montecarlo", "harmony", "local")
"""Every engine module with kernels; `ensure` takes any of them."""

F = TypeVar("F", bound=Callable[..., Any])


def source_hash(folder: Path = ENGINE) -> str:
    """Hex digest of every `*.py` file of `folder` (names and contents) and numba's version."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


SOURCE_HASH = source_hash()


class _EngineStamp:
    """The stamp of every engine kernel's cache entry: the hash of all engine sources."""

    def get_source_stamp(self) -> str:
        return SOURCE_HASH


class _InTreeLocator(_EngineStamp, caching.InTreeCacheLocator):
    """The engine's `__pycache__`."""


class _UserWideLocator(_EngineStamp, caching.UserWideCacheLocator):
    """numba's user-wide cache folder, when the engine's `__pycache__` is not writable."""


class _EngineCacheImpl(caching.CompileResultCacheImpl):
    _locator_classes = [_InTreeLocator, _UserWideLocator]


class _EngineCache(caching.FunctionCache):
    _impl_class = _EngineCacheImpl


def _cached(dispatcher: Any) -> Any:
    # numba has no public hook to choose a function's cache class; `enable_caching` sets this
    # attribute in the same way (tests/test_engine_cache.py proves the keying works).
    dispatcher._cache = _EngineCache(dispatcher.py_func)
    return dispatcher


def compiled(fn: F) -> F:
    """The decorator of every kernel: nopython, no reference counting (the function must not
    allocate arrays or assign to slices; it fails to compile if it does), cached on disk under
    the engine's source hash."""
    return _cached(njit(_nrt=False)(fn))  # type: ignore[no-any-return]


def inlined(fn: F) -> F:
    """`compiled`, and inlined by numba into every caller. Only for `assign`, the call of every
    search step: inlining it made nested Monte-Carlo 26-30 % faster (LLVM does not inline it by
    itself; inlining `undo` or `select_variable` as well gained nothing)."""
    return _cached(njit(_nrt=False, inline="always")(fn))  # type: ignore[no-any-return]


def cached_function(fn: F) -> F:
    """For kernels that need numba's runtime (they allocate or use `np.random`): nopython,
    cached under the engine's source hash like the others."""
    return _cached(njit(fn))  # type: ignore[no-any-return]


# --------------------------------------------------------------------- compile before the clock
_warm: set[str] = set()


def _marker_folder() -> Path:
    folder = ENGINE / "__pycache__"
    try:
        folder.mkdir(exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return folder
    except OSError:
        return Path(caching.UserWideCacheLocator.from_function(source_hash, __file__).get_cache_path())


def _marker(module: str) -> Path:
    return _marker_folder() / f"warm-{module}-{SOURCE_HASH[:16]}"


def is_cold(*modules: str) -> bool:
    """True when `ensure(*modules)` would compile: some module has not been warmed up in this
    process and has not been compiled to disk for the current sources."""
    return any(m not in _warm and not _marker(m).exists() for m in _check(modules))


def ensure(*modules: str) -> float:
    """Compile (or load from the disk cache) the kernels of `modules`, once per process.
    Returns the seconds it took (0 when everything was already warm)."""
    start = time.perf_counter()
    for module in _check(modules):
        if module in _warm:
            continue
        importlib.import_module(f"{__package__}.{module}").warm_up()
        _warm.add(module)
        try:
            _marker(module).touch()
        except OSError:
            pass  # a read-only install still works; it only cannot say "warm" next time
    return time.perf_counter() - start


def _check(modules: tuple[str, ...]) -> tuple[str, ...]:
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        raise ValueError(f"unknown engine modules {unknown}; known: {', '.join(MODULES)}")
    return modules
