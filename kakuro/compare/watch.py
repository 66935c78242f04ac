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

The workers say when a job starts and ends (a pipe the watch reads): `run_reported` wraps each
job with its token and start time, `report_job` marks the solve call for the memory measure.
So the watch also keeps the wall-clock limit itself: a job past its `kill_after` has its
worker frozen and killed with every descendant (`kill_tree`), which a plain SIGTERM to the
worker would leave running; and it notices a worker that is gone while its job runs, even one
that exited with status 0, which pebble does not report (`died_quietly`). The watch runs in
the pool owner, so a worker that holds its interpreter (a compiled kernel, the JVM) is still
measured; between two samples a job may overshoot by what it allocates in `SAMPLE_EVERY`
seconds.

A job leaves no process behind: `run_reported` kills whatever is still below the worker when
the job returns (the worker is a subreaper, so a child that started its own session or whose
parent exited is still below it), and a killed worker is killed with its whole tree.
"""

from __future__ import annotations

import contextlib
import os
import signal
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeVar

T = TypeVar("T")

SAMPLE_EVERY = 0.2
"""Seconds between two looks at the workers."""
REPORT_FORMAT = "qqqq"
"""A report: (worker pid, kind, job token, value); see the kinds below."""
SOLVE_START, SOLVE_END, JOB_START, JOB_END = range(4)
"""Report kinds: the solve call starts (value: the worker's resident bytes) or ends; a job
starts (value: the worker's `time.monotonic_ns()`, one clock for every process of the machine)
or ends."""
MAX_DEPTH = 64
"""Generations below a worker that are searched for it (a guard against a cycle in a racy scan)."""
MAX_ROUNDS = 100
"""Looks for processes that appear while a tree is being killed (each round freezes what it finds)."""

_worker_reports: Connection | None = None
"""In a worker: the pipe to the pool's watch (`set_worker_reports`)."""


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


def report_job(started: bool) -> None:
    """In a worker: tell the watch that a job's solve call starts (with this process's
    resident memory) or ended. Never blocks (see `_send`)."""
    _send(_worker_reports, SOLVE_START if started else SOLVE_END, 0, resident_bytes() if started else -1)


def set_worker_reports(reports: Connection | None) -> None:
    """In a worker, once: the pipe `run_reported` and `report_job` tell the pool's watch through."""
    global _worker_reports
    _worker_reports = reports


def run_reported(token: int, function: Callable[[Any], T], argument: Any) -> T:
    """In a worker: `function(argument)`, reported to the watch as job `token` (its start
    time, then its end), and followed by killing every process it left below this one."""
    _send(_worker_reports, JOB_START, token, time.monotonic_ns())
    try:
        return function(argument)
    finally:
        kill_descendants()
        _send(_worker_reports, JOB_END, token, 0)


def _send(reports: Connection | None, kind: int, token: int, value: int) -> None:
    """One report to the watch. Never blocks: the pipe is non-blocking and a report that
    does not fit is dropped (the pool's own timeout, later, still ends such a job)."""
    if reports is None:
        return
    with contextlib.suppress(OSError, ValueError):
        reports.send_bytes(struct.pack(REPORT_FORMAT, os.getpid(), kind, token, value))


def kill_descendants() -> None:
    """SIGKILL every process below this one (frozen first, so that none forks meanwhile), and
    reap those that were its children. Descendants that were orphaned are found too when this
    process is a subreaper (`kakuro.isolation.become_subreaper`)."""
    import psutil

    try:
        me = psutil.Process()
    except psutil.Error:
        return
    for _ in range(MAX_ROUNDS):
        _reap_children()
        try:
            below = [p for p in me.children(recursive=True) if _alive(p)]
        except psutil.Error:
            below = []
        if not below:
            return
        _freeze_and_kill(below)
        time.sleep(0.001)


def kill_tree(root: Any, known: Any = ()) -> None:
    """SIGKILL `root` (a psutil.Process), its process group, every descendant and the
    processes `known` to have descended from it. All are frozen (SIGSTOP) first, again and
    again until no new one appears, so that none forks or re-parents itself meanwhile."""
    import psutil

    frozen: dict[int, Any] = {}
    for _ in range(MAX_ROUNDS):
        try:
            found = [root, *root.children(recursive=True)]
        except psutil.Error:
            found = []
        for proc in list(known):
            with contextlib.suppress(psutil.Error):
                found += [proc, *proc.children(recursive=True)]
        new = [proc for proc in found if proc.pid not in frozen and _alive(proc)]
        if not new:
            break
        for proc in new:
            frozen[proc.pid] = proc
            with contextlib.suppress(psutil.Error):
                proc.suspend()  # psutil checks it is still the process recorded (no reused pid)
    try:  # the root itself, or gone: not a new process that reuses the number (a live group keeps it reserved)
        ours = root.is_running() or not psutil.pid_exists(root.pid)
    except psutil.Error:
        ours = False
    if ours:
        with contextlib.suppress(OSError):
            os.killpg(root.pid, signal.SIGKILL)
    _freeze_and_kill([root, *frozen.values()])


def _freeze_and_kill(procs: list[Any]) -> None:
    import psutil

    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.suspend()
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.kill()


def _alive(proc: Any) -> bool:
    """True for a process that runs (a zombie is dead), and is still the one recorded."""
    import psutil

    if proc is None:
        return False
    try:
        return bool(proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


def _reap_children() -> None:
    """Wait for every child of this process that has ended (no zombie stays)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


@dataclass
class WatchedJob:
    """A job the watch keeps the limit of: `kill_after` seconds, from its start on `pid`."""

    kill_after: float
    pid: int = 0
    process: Any = None
    started: float | None = None
    """`time.monotonic()` when its worker started it (None until reported)."""
    ended: bool = False
    timed_out: bool = False
    dead_since: float | None = None
    """`time.monotonic()` when its worker was first seen gone while the job ran."""


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
        self._jobs: dict[int, WatchedJob] = {}
        """token -> a job submitted to the pool and not forgotten yet."""

    def expect(self, token: int, kill_after: float) -> None:
        """Job `token` is submitted: once it starts, its worker is killed after `kill_after` s."""
        self._jobs[token] = WatchedJob(kill_after)

    def forget(self, token: int) -> None:
        """Job `token` has ended for the pool: nothing more to watch."""
        job = self._jobs.pop(token, None)
        if job is not None and job.pid:
            self.forget_job(job.pid)

    def job(self, token: int) -> WatchedJob | None:
        """What the watch knows of job `token` (None once forgotten)."""
        return self._jobs.get(token)

    def timed_out(self, token: int) -> bool:
        """True when the watch killed job `token`'s worker at the wall-clock limit."""
        job = self._jobs.get(token)
        return job is not None and job.timed_out

    def died_quietly(self, grace: float) -> list[int]:
        """Tokens of the jobs whose worker has been gone at least `grace` seconds while the job
        ran, not killed by the watch: a worker that exited by itself (pebble reports a worker
        that exits with status 0 as nothing, its job waiting for the timeout)."""
        now = time.monotonic()
        return [token for token, job in self._jobs.items()
                if job.dead_since is not None and now - job.dead_since >= grace and not job.timed_out
                and job.pid not in self.killed_mb]

    def pause(self) -> float:
        """Seconds until the next look: `SAMPLE_EVERY`, or less when a job's limit comes first."""
        now = time.monotonic()
        ends = [job.started + job.kill_after - now for job in self._jobs.values()
                if job.started is not None and not job.ended and not job.timed_out]
        return max(0.005, min([SAMPLE_EVERY, *ends]))

    def sample(self) -> None:
        """Look once: read the job reports, record the workers and their descendants, enforce
        the wall-clock and memory limits, note workers gone while their job ran, and kill what
        dead workers left behind."""
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
        self._enforce_time()
        if self.memory_mb is not None:
            for pid in list(self._started):
                self._enforce(pid)
        self.kill_orphans()

    def _enforce_time(self) -> None:
        """Kill the worker of every job past its limit; note the workers gone mid-job."""
        now = time.monotonic()
        for job in self._jobs.values():
            if job.started is None or job.ended or job.timed_out or job.pid in self.killed_mb:
                continue
            if not _alive(job.process):
                if job.dead_since is None:
                    job.dead_since = now
            elif now >= job.started + job.kill_after:
                job.timed_out = True
                self._started.pop(job.pid, None)
                self._kill(job.pid)

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
        import psutil

        with contextlib.suppress(OSError, EOFError, struct.error):
            while reports.poll(0):
                pid, kind, token, value = struct.unpack(REPORT_FORMAT, reports.recv_bytes())
                if kind == SOLVE_START:
                    self._started[pid] = value
                    self.used_mb.pop(pid, None)
                elif kind == SOLVE_END:
                    self._started.pop(pid, None)
                elif token in self._jobs:
                    job = self._jobs[token]
                    if kind == JOB_END:
                        job.ended = True
                        continue
                    job.pid, job.started = pid, value / 1e9
                    try:
                        job.process = self._workers.setdefault(pid, psutil.Process(pid))
                    except psutil.Error:
                        job.dead_since = time.monotonic()  # gone already

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
        """SIGKILL worker `pid` with its whole tree (`kill_tree`): its process group, its
        descendants and every descendant recorded for it."""
        import psutil

        worker = self._workers.get(pid)
        known = list(self._descendants.get(pid, {}).values())
        if worker is not None:
            kill_tree(worker, known)
            return
        for proc in known:
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
