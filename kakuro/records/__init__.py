"""The results of comparison campaigns, below both the harness (`kakuro.compare`) and the
report (`kakuro.report`): each imports this package, and it imports neither.

Modules:

    record    Record (the typed, versioned results line), JobStatus, ANSWERED, FINAL, latest
    files     results files: read_results, ResultsFile (append-only, locked, fsynced)
    verdict   Witnesses, judge, overrule: the one home of every status, WRONG included
"""

from __future__ import annotations

from kakuro.records.files import ResultsFile, default_results_path, read_results
from kakuro.records.record import (
    ANSWERED,
    FINAL,
    KEY_FIELDS,
    SCHEMA,
    JobStatus,
    Record,
    latest,
)
from kakuro.records.verdict import Witnesses, judge, overrule

__all__ = [
    "ANSWERED", "FINAL", "KEY_FIELDS", "SCHEMA", "JobStatus", "Record", "ResultsFile", "Witnesses", "default_results_path",
    "judge", "latest", "overrule", "read_results",
]
