"""`Attempt`: how a job ended as its runner (pool, isolated or Dask) saw it, before the
verdict rules (`kakuro.records.verdict.judge`) turn it into a status."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from kakuro.compare.worker import Reply


@dataclass(frozen=True)
class Attempt:
    """How a job ended as its runner saw it: a `reply` from the worker, a `timeout` (killed at
    the wall-clock limit), a `memout` (killed past the memory limit), a worker that `died`
    (exit code), or `lost` (the harness failed; `message` says how). `memory_mb` is what the
    job used (MiB) at the last look, when measured."""

    kind: Literal["reply", "timeout", "memout", "died", "lost"]
    reply: Reply | None = None
    exitcode: int | None = None
    memory_mb: float | None = None
    message: str = ""
