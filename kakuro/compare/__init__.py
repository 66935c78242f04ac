"""Head-to-head comparison of backends: `kakuro compare PATH... -b SPEC ...`.

Every (instance, backend, repeat) is one *job*. Jobs run in long-lived worker processes under
a wall-clock limit (plus a short grace, then the worker is killed and replaced) and an optional
memory limit; the parent checks every answer with `puzzle.check` and appends one typed record
per job to a JSON-lines results file the moment the job ends. `--dask` runs the same jobs on a
Dask cluster whose workers keep warm job processes of their own.

Modules, bottom up:

    jobs      Instance, Backend (name as asked + full spec), Limits, Job; collect, make_jobs
    worker    WorkerConfig, Reply; what a worker does: prepare (imports, warm-ups) and run_job
    watch     what the pool measures of its workers: a job's memory, a stopped worker
    spawner   the pool's processes: a spawner that warms up once and forks warm workers
    attempt   Attempt: how a job ended as its runner saw it
    runners   JobPool (per-job limits, workers watched, killed and replaced), run_local
    cluster   the Dask runner: a JobPool per Dask worker (imported only with --dask)
    progress  the progress bar and its ETA
    campaign  run_campaign: run, judge, record

Its command line is `kakuro.cli.compare` (`kakuro compare`, `python -m kakuro.compare`).

The results record, results files and the verdict rules (`judge`, `overrule`: the one home of
every status, WRONG included) live below this package in `kakuro.records`, which the report
reads too (import them from there); this package never imports `kakuro.report`.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "kakuro.compare.attempt": ("Attempt",),
    "kakuro.compare.jobs": ("DEFAULT_BACKENDS", "DEFAULT_GRACE", "DEFAULT_TIME_LIMIT", "Backend", "Instance", "Job",
                            "Limits", "collect", "make_jobs", "resolve_backends"),
    "kakuro.compare.worker": ("Reply", "WorkerConfig"),
    "kakuro.compare.runners": ("JobPool",),
    "kakuro.compare.campaign": ("Campaign", "run_campaign"),
}
_HOME = {name: module for module, names in _EXPORTS.items() for name in names}
__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    """The public names, each loaded from its module on first use: importing one module of
    this package loads no other."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
