"""A lighter numba start for a process that is the toolkit's own (the command line).

numba's first compilation (or first load from its cache) imports `numba.np.arraymath`, which
probes for BLAS by importing `scipy.linalg.cython_blas`: when SciPy is installed that imports
`scipy.linalg` and, through SciPy's array-API layer, `numpy.f2py`, `numpy.ma` and
`numpy.testing`, a quarter of a second of every `kakuro` command that solves (0.24-0.26 s of
`python -X importtime -m kakuro solve ...`, 2026-11-26). The engine's kernels use no BLAS
(no `np.dot`, no `np.linalg`), so `without_numba_blas` lets that probe fail: numba then
registers no BLAS-backed functions in this process. Anything else may still import SciPy:
only the probe made while numba's array functions load is refused. A library user's process
is left alone (it may compile its own numba code with `np.dot`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

PROBING = "numba.np.arraymath"
"""The numba module whose import probes for BLAS (`_HAVE_BLAS = _check_blas()`)."""
PROBED = "scipy.linalg"
"""The package that probe imports first (its `cython_blas` next)."""


class _RefuseBlasProbe(importlib.abc.MetaPathFinder):
    """Refuses PROBED while PROBING is being imported (its probe), finds nothing otherwise."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname == PROBED and _initializing(PROBING):
            raise ModuleNotFoundError(f"{PROBED} is not imported for numba's BLAS probe (kakuro.engine.startup)",
                                      name=fullname)
        return None


def _initializing(name: str) -> bool:
    module = sys.modules.get(name)
    return module is not None and bool(getattr(getattr(module, "__spec__", None), "_initializing", False))


def without_numba_blas() -> None:
    """Let numba's BLAS probe in this process fail instead of importing SciPy's linear algebra
    (see the module docstring). Call it before numba compiles or loads anything; it does
    nothing once numba's array functions are loaded, and nothing twice."""
    if PROBING in sys.modules or any(isinstance(finder, _RefuseBlasProbe) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, _RefuseBlasProbe())
