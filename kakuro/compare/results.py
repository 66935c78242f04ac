"""Deprecated: the results record and results files moved to `kakuro.records`
(`kakuro.records.record` and `kakuro.records.files`). This module re-exports them, with a
DeprecationWarning, for one release."""

from __future__ import annotations

from kakuro.moved import moved_names

_MOVED = {
    **dict.fromkeys(("ANSWERED", "FINAL", "KEY_FIELDS", "MAX_MESSAGE", "SCHEMA", "JobStatus", "Record", "clipped",
                     "is_non_negative", "latest"), "kakuro.records.record"),
    **dict.fromkeys(("SHOWN_BAD_LINES", "ResultsFile", "default_results_path", "read_results"), "kakuro.records.files"),
}

__getattr__, __dir__ = moved_names(__name__, _MOVED)
