"""What the owner of a job pool measures of its workers (`kakuro.compare.runners.JobPool`,
every `SAMPLE_EVERY` seconds): the memory a job uses, and whether a worker is stopped.

A job's memory is the resident memory its worker holds beyond what it held when the job
started, plus the worker's descendants' own memory (their unique set size: pages shared with
the worker are counted once). Resident memory is what is limited, not address space: engines
such as GraalVM (choco) reserve tens of GB they never touch. The owner measures from its own
process, so a worker that holds its interpreter (a compiled kernel, the JVM) is still measured;
between two looks a job may overshoot by what it allocates in `SAMPLE_EVERY` seconds.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

SAMPLE_EVERY = 0.2
"""Seconds between two looks at the workers."""


def resident_bytes() -> int:
    """This process's resident memory in bytes (0 when it cannot be read)."""
    try:
        with open("/proc/self/statm", "rb") as stream:
            return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        try:
            import psutil

            return int(psutil.Process().memory_info().rss)
        except Exception:
            return 0


def used_mb(worker: Any, baseline: int) -> float | None:
    """MiB the job running on `worker` (a psutil.Process) uses: its resident memory beyond
    `baseline` bytes, plus its descendants' unique memory. None when the worker is gone."""
    import psutil

    try:
        used = int(worker.memory_info().rss) - baseline
        below = worker.children(recursive=True)
    except psutil.Error:
        return None
    for child in below:
        with contextlib.suppress(psutil.Error):
            used += int(child.memory_full_info().uss)
    return max(0.0, used / 2**20)


def stopped(process: Any) -> bool:
    """True when `process` (a psutil.Process) is stopped by a signal (SIGSTOP, SIGTSTP) or a
    tracer."""
    import psutil

    try:
        return process.status() in (psutil.STATUS_STOPPED, psutil.STATUS_TRACING_STOP)
    except psutil.Error:
        return False
