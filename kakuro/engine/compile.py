"""Compiling the engine: the kernel decorators, a disk cache keyed by the engine's own sources,
and compilation paid before any clock starts.

Every kernel is `compiled` (called by other kernels only), an `entry_point` (called from Python
too) or `inlined`: numba nopython mode, no reference-counting runtime (`_nrt=False`: passing
the state to a function then costs 37 ns instead of 395 ns, measured on a smallest-domain scan
of a 64-cell state; so no kernel allocates: buffers are numpy arrays made in Python and copies
are explicit loops), cached on disk.

**Caches that cannot go stale.** numba stamps a cached function with its own file only, so a
kernel that inlines `assign` from another file would keep running the old propagation after
that file changed. Here every kernel's stamp is `SOURCE_HASH`, the hash of every engine
module's source (and the numba version): editing any engine file recompiles every kernel. The
cache lives in the engine's `__pycache__`, or in numba's user-wide cache folder when that is
not writable.

**Compilation outside the clock.** `ensure(*kernels)` compiles (or loads from the disk cache)
the named kernels, once per process, by running each on a tiny puzzle; a native backend names
the kernels it runs (`kakuro.native_solver.NativeSolver.engine_kernels`) and `Solver.solve`
has them ensured before it arms the deadline, so `Result.time` and every limit count solving
only. A kernel compiled in the middle of a solve is taken off the solving clock:
`seconds_spent` is registered with `kakuro.clock.exclude`, and the driver's
`kakuro.native.kernels.compile_off_clock` moves the deadlines. A backend compiles only what it
runs (`gac` never compiles UCT). `is_cold(*kernels)` says whether `ensure` will compile
(nothing on disk yet for these sources), so a command line can say what it is doing.
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
from numba import njit, types
from numba.core import caching

from kakuro import clock

ENGINE = Path(__file__).resolve().parent
STRENGTHS = ("check", "projected", "fc", "gac")
"""The propagation strengths (`state.MODES`): a kernel is compiled for each on its own. The
learning search is compiled for "learn" too: a gac LearningState, made after the root."""
KERNELS: dict[str, tuple[str, tuple[str, ...]]] = {
    "state": ("interrupt", ()),
    "shave:gac": ("propagate", ("shave", "gac")),
    "harmony": ("harmony", ()),
    "local": ("local_search", ()),
    "refute:gac": ("reasons", ("gac",)),
    "family": ("family", ()),
    "verify": ("verify", ()),
    **{f"root:{s}": ("propagate", ("root", s)) for s in STRENGTHS},
    **{f"depth_first:{s}": ("tree", ("depth_first", s)) for s in STRENGTHS},
    **{f"learning:{s}": ("tree", ("learning", s)) for s in ("gac", "learn")},
    **{f"{game}:{s}": ("montecarlo", (game, s)) for game in ("sampling", "nested", "flat", "uct") for s in ("fc", "gac")},
}
"""The kernels `ensure` compiles, "name:strength": name -> (engine module, arguments of its
`warm_up`)."""

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


INTERNAL = {"_nrt": False, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
"""numba options of a kernel that only kernels call (`compiled`, `@overload` implementations)."""


def _cached(dispatcher: Any) -> Any:
    # numba has no public hook to choose a function's cache class; `enable_caching` sets this
    # attribute in the same way (tests/test_engine_cache.py proves the keying works).
    dispatcher._cache = _EngineCache(dispatcher.py_func)
    return dispatcher


_Dispatcher = type(njit(lambda: None))


class _KernelOnly(_Dispatcher):  # type: ignore[misc, valid-type]
    """A kernel compiled without a CPython wrapper: a call from Python would crash the process,
    so it is refused."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{self.py_func.__qualname__} runs only inside compiled kernels (it is `compiled`, "
                        "not an `entry_point`)")


def compiled(fn: F) -> F:
    """The decorator of a kernel that only other kernels call: nopython, no reference counting
    (the function must not allocate arrays or assign to slices; it fails to compile if it
    does), no CPython wrapper (unboxing the state's arrays for a call from Python is code that
    would be compiled for nothing: about an eighth of the engine's compile time), cached on
    disk under the engine's source hash."""
    dispatcher = _cached(njit(**INTERNAL)(fn))
    dispatcher.__class__ = _KernelOnly
    return dispatcher  # type: ignore[no-any-return]


def entry_point(fn: F) -> F:
    """`compiled`, for a kernel that Python calls too (a search, root propagation, and the
    pieces the tests drive one by one)."""
    return _cached(njit(_nrt=False)(fn))  # type: ignore[no-any-return]


_twins: dict[Any, Any] = {}


def callable_from_python(kernel: Any) -> Any:
    """A twin of the `compiled` kernel that Python can call (with a CPython wrapper; compiled
    on its first call and never cached, so it cannot be mistaken for the kernel on disk): for
    tests and tools that drive kernels one by one. A kernel called from Python anyway is an
    `entry_point` instead."""
    if kernel not in _twins:
        _twins[kernel] = njit(_nrt=False)(kernel.py_func)
    return _twins[kernel]


def inlined(fn: F) -> F:
    """`entry_point`, and inlined by numba into every kernel that calls it. Only for `assign`,
    the call of every search step: inlining it made nested Monte-Carlo 26-30 % faster (LLVM
    does not inline it by itself; inlining `undo` or `select_variable` as well gained
    nothing)."""
    return _cached(njit(_nrt=False, inline="always")(fn))  # type: ignore[no-any-return]


def cached_function(fn: F) -> F:
    """For kernels that need numba's runtime (they allocate or use `np.random`): nopython,
    callable from Python, cached under the engine's source hash like the others."""
    return _cached(njit(fn))  # type: ignore[no-any-return]


def instance_of(numba_type: Any, cls: type) -> bool:
    """True when `numba_type` (met while typing an `@overload`) is the type of a `cls`
    instance: `cls` a named tuple class such as a `State` subclass. The engine chooses code by
    such types, so each backend compiles only the code it runs."""
    return isinstance(numba_type, types.BaseNamedTuple) and issubclass(numba_type.instance_class, cls)


# --------------------------------------------------------------------- compile before the clock
_warm: set[str] = set()
_spent = [0.0]


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


def _marker(kernel: str) -> Path:
    return _marker_folder() / f"warm-{kernel}-{SOURCE_HASH[:16]}"


def is_cold(*kernels: str) -> bool:
    """True when `ensure(*kernels)` would compile: some kernel has not been warmed up in this
    process and has not been compiled to disk for the current sources."""
    return any(k not in _warm and not _marker(k).exists() for k in _check(kernels))


def ensure(*kernels: str) -> float:
    """Compile (or load from the disk cache) `kernels` (names of KERNELS), once per process.
    Returns the seconds it took (0 when everything was already warm)."""
    start = time.perf_counter()
    for kernel in _check(kernels):
        if kernel in _warm:
            continue
        module, arguments = KERNELS[kernel]
        importlib.import_module(f"{__package__}.{module}").warm_up(*arguments)
        _warm.add(kernel)
        try:
            _marker(kernel).touch()
        except OSError:
            pass  # a read-only install still works; it only cannot say "warm" next time
    spent = time.perf_counter() - start
    _spent[0] += spent
    return spent


def seconds_spent() -> float:
    """Seconds `ensure` has spent in this process (compiling or loading kernels): a solve that
    compiles a kernel when it first needs it subtracts what this grew by from its time."""
    return _spent[0]


clock.exclude(seconds_spent)


def _check(kernels: tuple[str, ...]) -> tuple[str, ...]:
    """`kernels`, known ones only, after "state" (whose kernels every backend calls)."""
    unknown = [k for k in kernels if k not in KERNELS]
    if unknown:
        raise ValueError(f"unknown engine kernels {unknown}; known: {', '.join(KERNELS)}")
    return ("state",) + tuple(k for k in kernels if k != "state")
