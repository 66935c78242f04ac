"""Runners: where jobs run, each ending as an `Attempt`.

`JobPool` is the one piece that runs jobs: a pebble `ProcessPool` of long-lived worker
processes, set up once (`worker.start_worker`), that run jobs one at a time. A job still
running `time_limit + grace` seconds after it started has its worker killed (SIGTERM, whose
default action is immediate, then SIGKILL; the worker leads a process group and the group is
killed too) and a fresh worker takes its place. With `isolate`, every job gets a fresh worker.
Where `fork` exists the pool forks its workers from a process that has warmed the backends up,
so a worker, or the replacement of a killed one, starts with the engines loaded and compiled.

`run_local` drives a `JobPool` on this machine; `kakuro.compare.cluster` gives each Dask
worker a `JobPool` of its own.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from typing import Any

from kakuro.compare.jobs import Job
from kakuro.compare.verdict import Attempt
from kakuro.compare.worker import WorkerConfig, run_job, run_pickled_job, start_worker, warm_up

SAMPLE_EVERY = 0.25
"""Seconds between two samples of the workers' memory."""


class _WorkerWatch:
    """The pool's workers as this process sees them: their last sampled address space (for
    MEMOUT after a death) and their process groups (killed once their leader is gone)."""

    def __init__(self) -> None:
        self.vms: dict[int, float] = {}
        self.groups: set[int] = set()
        self._last = 0.0

    def sample(self) -> None:
        """Record the workers and their address space (at most every `SAMPLE_EVERY` s)."""
        now = time.monotonic()
        if now - self._last < SAMPLE_EVERY:
            return
        self._last = now
        import psutil

        try:
            children = psutil.Process().children()  # pool workers are direct children (fork or spawn)
        except psutil.Error:
            return
        for proc in children:
            try:
                if os.getpgid(proc.pid) != proc.pid:
                    continue  # not a worker (workers lead their own group)
                self.groups.add(proc.pid)
                self.vms[proc.pid] = proc.memory_info().vms / 2**20
            except (psutil.Error, OSError):
                continue

    def job_done(self, pid: int) -> None:
        """Forget `pid`'s sample: it was taken during a finished job, so a later death of the
        same worker must not be judged by another job's memory use."""
        self.vms.pop(pid, None)

    def kill_orphaned_groups(self) -> None:
        """SIGKILL what is left of the groups of workers that no longer exist."""
        import psutil

        for pgid in list(self.groups):
            try:
                alive = psutil.Process(pgid).status() != psutil.STATUS_ZOMBIE
            except psutil.Error:
                alive = False
            if not alive:
                with contextlib.suppress(OSError):
                    os.killpg(pgid, signal.SIGKILL)
                self.groups.discard(pgid)


def pool_context(config: WorkerConfig) -> Any:
    """`fork` where there is one, after warming the backends up in this process; `spawn`
    elsewhere."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    warm_up(config)
    return multiprocessing.get_context("fork")


class JobPool:
    """`processes` long-lived workers running jobs one at a time under the jobs' limits (see
    the module docstring). Thread-safe: several threads may submit jobs and wait for them at once."""

    def __init__(self, config: WorkerConfig, processes: int, *, isolate: bool = False) -> None:
        import pebble

        self._pebble = pebble
        self._watch = _WorkerWatch()
        self._lock = threading.Lock()
        self._closed = False
        self._pool = pebble.ProcessPool(
            max_workers=processes, max_tasks=1 if isolate else 0, initializer=start_worker, initargs=(config,),
            context=pool_context(config),
        )

    def submit(self, job: Job) -> Future[Any]:
        """Start `job` as soon as a worker is free; its future ends with a Reply or an error."""
        return self._pool.schedule(run_job, (job,), timeout=job.limits.kill_after)

    def submit_pickled(self, payload: bytes, kill_after: float) -> Future[Any]:
        """`submit` for a pickled Job whose worker is killed after `kill_after` seconds."""
        return self._pool.schedule(run_pickled_job, (payload,), timeout=kill_after)

    def sample(self) -> None:
        """Sample the workers' memory (call this while waiting)."""
        with self._lock:
            self._watch.sample()

    def result(self, future: Future[Any]) -> Attempt:
        """Wait for a submitted job (sampling memory meanwhile) and say how it ended."""
        while not wait([future], timeout=SAMPLE_EVERY).done:
            self.sample()
        pebble = self._pebble
        with self._lock:
            try:
                reply = future.result()
                self._watch.job_done(reply.pid)
                return Attempt("reply", reply)
            except TimeoutError:
                self._watch.kill_orphaned_groups()
                return Attempt("timeout")
            except pebble.ProcessExpired as exc:
                self._watch.kill_orphaned_groups()
                return Attempt("died", exitcode=exc.exitcode, vms_mb=self._watch.vms.get(exc.pid))
            except CancelledError:
                return Attempt("lost", message="cancelled")
            except Exception as exc:  # a broken pool or an unpicklable reply
                return Attempt("lost", message=f"{type(exc).__name__}: {exc}")

    def close(self, *, wait_for_jobs: bool = True) -> None:
        """Let running jobs finish (or, with `wait_for_jobs=False`, kill them), then stop the
        workers and whatever their process groups left behind. Closing twice does nothing."""
        if self._closed:
            return
        self._closed = True
        if wait_for_jobs:
            self._pool.close()
        else:
            self._pool.stop()
        self._pool.join()
        with self._lock:
            self._watch.kill_orphaned_groups()


def run_local(jobs: Sequence[Job], pool: JobPool, check_stop: Callable[[], None]) -> Iterator[tuple[Job, Attempt]]:
    """Run jobs on `pool`; yield each with its attempt as it ends. `check_stop` raises to stop
    early; the pool is closed either way (running jobs killed when stopped early)."""
    finished = False
    try:
        futures = {pool.submit(job): job for job in jobs}
        pending = set(futures)
        while pending:
            check_stop()
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            pool.sample()
            for future in done:
                yield futures.pop(future), pool.result(future)
        finished = True
    finally:
        pool.close(wait_for_jobs=finished)
