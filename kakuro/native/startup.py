"""A lighter numba start for the command line's process (`kakuro.engine.startup`: numba's
SciPy BLAS probe refused), reached through the driver."""

from __future__ import annotations

from kakuro.engine.startup import without_numba_blas

__all__ = ["without_numba_blas"]
