"""Deprecated: the results record and results files moved to `kakuro.records`
(`kakuro.records.record` and `kakuro.records.files`). This module re-exports them, with a
DeprecationWarning, for one release."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_MOVED = {
    **dict.fromkeys(("ANSWERED", "FINAL", "KEY_FIELDS", "MAX_MESSAGE", "SCHEMA", "JobStatus", "Record", "clipped",
                     "is_non_negative", "latest"), "kakuro.records.record"),
    **dict.fromkeys(("SHOWN_BAD_LINES", "ResultsFile", "default_results_path", "read_results"), "kakuro.records.files"),
}


def __getattr__(name: str) -> Any:
    """A moved name from its new home, with a DeprecationWarning naming that home."""
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"{__name__}.{name} moved to {home}; import it from there", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MOVED))
