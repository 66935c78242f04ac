"""Standard output kept for what a command prints: `output_to_stderr` sends whatever else is
written there (a backend's own output, from Python or from C) to standard error instead, so that
`--format json` prints only the JSON."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def output_to_stderr(active: bool = True) -> Iterator[None]:
    """Within the block (when `active`), whatever is written to standard output goes to standard
    error instead: by Python (`sys.stdout`, and the stream of start-up, which a backend may
    keep) and below it (file descriptor 1: a C library's `printf`, a child process). Standard
    output is as before after. The command line solves in one under `--format json`, so that its
    standard output holds only the JSON, whatever a backend prints. Without a file descriptor
    1 or 2 it does nothing."""
    kept = _stdout_to_stderr() if active else None
    if kept is None:
        yield
        return
    stdout, sys.stdout = sys.stdout, sys.stderr
    try:
        yield
    finally:
        sys.stdout = stdout
        _flush()  # while fd 1 is still stderr's
        os.dup2(kept, 1)
        os.close(kept)


def _stdout_to_stderr() -> int | None:
    """Point file descriptor 1 where 2 points, after flushing what was written before; returns
    a descriptor of what 1 was, or None when either is missing."""
    _flush()
    try:
        kept = os.dup(1)
    except OSError:
        return None
    try:
        os.dup2(2, 1)
    except OSError:
        os.close(kept)
        return None
    return kept


def _flush() -> None:
    """Flush Python's standard streams and the C library's (`fflush(NULL)`)."""
    for stream in (sys.stdout, sys.__stdout__, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()  # type: ignore[union-attr]
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).fflush(None)
