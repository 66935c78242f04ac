"""What the process owning a job pool sees of its workers: their descendants, the memory their
jobs use, and the kills that follow.

`WorkerWatch.sample` runs every `SAMPLE_EVERY` seconds (the pool's own thread). It records each
worker's descendants while the worker lives, so that they can be killed when it dies: a solver
child that started its own session has left the worker's process group and would otherwise
outlive it. With a memory limit it also measures each running job: the resident memory its
worker holds beyond what it held when the job started, plus the worker's child processes' own
memory (their unique set size: pages shared with the worker are counted once). A job past the
limit has its worker killed; the pool then records MEMOUT. Resident memory is what is limited,
not address space: engines such as GraalVM (choco) reserve tens of GB they never touch.

The workers say when a job starts and ends with `report_job` (a pipe the watch reads). The
watch runs in the pool owner, so a worker that holds its interpreter (a compiled kernel, the
JVM) is still measured; between two samples a job may overshoot by what it allocates in
`SAMPLE_EVERY` seconds.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
from multiprocessing.connection import Connection
from typing import Any

SAMPLE_EVERY = 0.2
"""Seconds between two looks at the workers."""
REPORT_FORMAT = "qq"
"""A job report: (worker pid, its resident bytes when the job started, or -1 when it ended)."""
MAX_DEPTH = 64
"""Generations below a worker that are searched for it (a guard against a cycle in a racy scan)."""


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


def report_job(reports: Connection | None, started: bool) -> None:
    """In a worker: tell the watch that a job starts (with this process's resident memory) or
    ended. Never blocks: the pipe is non-blocking and a report that does not fit is dropped."""
    if reports is None:
        return
    with contextlib.suppress(OSError, ValueError):
        reports.send_bytes(struct.pack(REPORT_FORMAT, os.getpid(), resident_bytes() if started else -1))


class WorkerWatch:
    """The pool's workers (see the module docstring). Not thread-safe: the pool calls it under
    its lock. Memory is in MiB."""

    def __init__(self, memory_mb: int | None, reports: Connection | None) -> None:
        self.memory_mb = memory_mb
        self._reports = reports
        self._workers: dict[int, Any] = {}
        """pid -> psutil.Process of each worker seen alive (a child of this process leading its group)."""
        self._descendants: dict[int, dict[int, Any]] = {}
        """worker pid -> {pid: psutil.Process} of each descendant seen while the worker lived."""
        self._started: dict[int, int] = {}
        """worker pid -> its resident bytes when its running job started."""
        self.used_mb: dict[int, float] = {}
        """worker pid -> MiB its running (or last) job used at the last sample."""
        self.killed_mb: dict[int, float] = {}
        """worker pid -> MiB its job used when the watch killed it for memory."""

    def sample(self) -> None:
        """Look once: read the job reports, record the workers and their descendants, enforce
        the memory limit, and kill what dead workers left behind."""
        import psutil

        self._read_reports()
        try:
            owner = psutil.Process()
            below = owner.children(recursive=True)
        except psutil.Error:
            return
        parents: dict[int, int] = {}
        for proc in below:
            with contextlib.suppress(psutil.Error):
                parents[proc.pid] = proc.ppid()
        for proc in below:
            if parents.get(proc.pid) == owner.pid and _leads_group(proc.pid):
                self._workers.setdefault(proc.pid, proc)
        for proc in below:
            worker = _worker_above(proc.pid, parents, self._workers)
            if worker is not None and worker != proc.pid:
                self._descendants.setdefault(worker, {}).setdefault(proc.pid, proc)
        if self.memory_mb is not None:
            for pid in list(self._started):
                self._enforce(pid)
        self.kill_orphans()

    def forget_job(self, pid: int) -> None:
        """The job of worker `pid` has been answered: its last measure no longer applies."""
        self.used_mb.pop(pid, None)
        self.killed_mb.pop(pid, None)

    def kill_orphans(self) -> None:
        """Kill what is left of workers that no longer run: their process groups and their
        recorded descendants."""
        import psutil

        for pid, worker in list(self._workers.items()):
            try:
                alive = worker.status() != psutil.STATUS_ZOMBIE
            except psutil.Error:
                alive = False
            if alive:
                continue
            self._kill(pid)
            del self._workers[pid]
            self._descendants.pop(pid, None)
            self._started.pop(pid, None)

    def _read_reports(self) -> None:
        reports = self._reports
        if reports is None:
            return
        with contextlib.suppress(OSError, EOFError, struct.error):
            while reports.poll(0):
                pid, resident = struct.unpack(REPORT_FORMAT, reports.recv_bytes())
                if resident < 0:
                    self._started.pop(pid, None)
                else:
                    self._started[pid] = resident
                    self.used_mb.pop(pid, None)

    def _enforce(self, pid: int) -> None:
        """Measure the running job of worker `pid`; kill the worker past the memory limit."""
        import psutil

        worker = self._workers.get(pid)
        if worker is None or self.memory_mb is None:
            return
        try:
            used = worker.memory_info().rss - self._started[pid]
        except (psutil.Error, KeyError):
            return
        for child in list(self._descendants.get(pid, {}).values()):
            with contextlib.suppress(psutil.Error):
                used += child.memory_full_info().uss
        self.used_mb[pid] = max(0.0, used / 2**20)
        if self.used_mb[pid] > self.memory_mb:
            self.killed_mb[pid] = self.used_mb[pid]
            self._started.pop(pid, None)
            self._kill(pid)

    def _kill(self, pid: int) -> None:
        """SIGKILL worker `pid`, its process group and every descendant recorded for it."""
        import psutil

        worker = self._workers.get(pid)
        try:
            ours = worker is not None and (worker.is_running() or not psutil.pid_exists(pid))
        except psutil.Error:
            ours = False
        if ours:  # not a new process that reuses the number (a live group keeps it reserved)
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        for proc in [worker, *self._descendants.get(pid, {}).values()]:
            if proc is not None:
                with contextlib.suppress(psutil.Error):
                    proc.kill()  # psutil checks it is still the process recorded (no reused pid)


def _leads_group(pid: int) -> bool:
    try:
        return os.getpgid(pid) == pid
    except OSError:
        return False


def _worker_above(pid: int, parents: dict[int, int], workers: dict[int, Any]) -> int | None:
    """The worker `pid` descends from (itself if it is one), or None."""
    for _ in range(MAX_DEPTH):
        if pid in workers:
            return pid
        if pid not in parents:
            return None
        pid = parents[pid]
    return None
