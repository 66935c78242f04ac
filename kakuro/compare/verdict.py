"""Deprecated: the verdict rules moved to `kakuro.records.verdict`, and `Attempt` to
`kakuro.compare.attempt`. This module re-exports them, with a DeprecationWarning, for one
release."""

from __future__ import annotations

from kakuro.moved import moved_names

_MOVED = {
    **dict.fromkeys(("MEMOUT_FRACTION", "Witnesses", "judge", "overrule", "refuted"), "kakuro.records.verdict"),
    "Attempt": "kakuro.compare.attempt",
}

__getattr__, __dir__ = moved_names(__name__, _MOVED)
