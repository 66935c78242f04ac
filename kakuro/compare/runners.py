"""Runners: where jobs run, each ending as an `Attempt`.

`JobPool` is the one piece that runs jobs: a pebble `ProcessPool` of long-lived worker
processes, set up once (`worker.start_worker`), that run jobs one at a time. A job still
running `time_limit + grace` seconds after it started has its worker killed (SIGTERM, whose
default action is immediate, then SIGKILL; the worker leads a process group, and the group and
every descendant the watch saw are killed too) and a fresh worker takes its place; so has a
job past the memory limit (MEMOUT; `kakuro.compare.watch` measures it). With `isolate`, every job gets a fresh worker.
Where `fork` exists the pool forks its workers from a process that has warmed the backends up,
so a worker, or the replacement of a killed one, starts with the engines loaded and compiled.

`run_local` drives a `JobPool` on this machine; `kakuro.compare.cluster` gives each Dask
worker a `JobPool` of its own.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from typing import Any

from kakuro.compare.jobs import Job
from kakuro.compare.verdict import Attempt
from kakuro.compare.watch import SAMPLE_EVERY, WorkerWatch
from kakuro.compare.worker import WorkerConfig, run_job, run_pickled_job, start_worker, warm_up

def pool_context(config: WorkerConfig) -> Any:
    """`fork` where there is one, after warming the backends up in this process; `spawn`
    elsewhere."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    warm_up(config)
    return multiprocessing.get_context("fork")


class JobPool:
    """`processes` long-lived workers running jobs one at a time under the jobs' limits (see
    the module docstring), watched by a thread (`kakuro.compare.watch`). Thread-safe: several
    threads may submit jobs and wait for them at once."""

    def __init__(self, config: WorkerConfig, processes: int, *, isolate: bool = False) -> None:
        import pebble

        self._pebble = pebble
        context = pool_context(config)
        reports, sender = context.Pipe(duplex=False) if config.memory_mb is not None else (None, None)
        if sender is not None:
            os.set_blocking(sender.fileno(), False)  # a worker never waits for the watch
        self._watch = WorkerWatch(config.memory_mb, reports)
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._pool = pebble.ProcessPool(
            max_workers=processes, max_tasks=1 if isolate else 0, initializer=start_worker,
            initargs=(config, sender), context=context,
        )
        self._watcher = threading.Thread(target=self._keep_watching, name="kakuro-worker-watch", daemon=True)
        self._watcher.start()

    def _keep_watching(self) -> None:
        while not self._closed.wait(SAMPLE_EVERY):
            with self._lock:
                self._watch.sample()

    def submit(self, job: Job) -> Future[Any]:
        """Start `job` as soon as a worker is free; its future ends with a Reply or an error."""
        return self._pool.schedule(run_job, (job,), timeout=job.limits.kill_after)

    def submit_pickled(self, payload: bytes, kill_after: float) -> Future[Any]:
        """`submit` for a pickled Job whose worker is killed after `kill_after` seconds."""
        return self._pool.schedule(run_pickled_job, (payload,), timeout=kill_after)

    def result(self, future: Future[Any]) -> Attempt:
        """Wait for a submitted job and say how it ended. Whatever the future holds, even an
        exception that is not an Exception, ends as an Attempt: nothing is raised here."""
        try:
            error = future.exception()
        except CancelledError:
            return Attempt("lost", message="cancelled")
        with self._lock:
            if error is None:
                reply = future.result()
                self._watch.forget_job(getattr(reply, "pid", 0))
                return Attempt("reply", reply)
            if isinstance(error, TimeoutError):
                self._watch.kill_orphans()
                return Attempt("timeout")
            if isinstance(error, self._pebble.ProcessExpired):
                self._watch.kill_orphans()
                killed = self._watch.killed_mb.pop(error.pid, None)
                if killed is not None:
                    return Attempt("memout", memory_mb=killed)
                return Attempt("died", exitcode=error.exitcode, memory_mb=self._watch.used_mb.pop(error.pid, None))
            return Attempt("lost", message=f"{type(error).__name__}: {error}")  # a broken pool, an unpicklable reply

    def close(self, *, wait_for_jobs: bool = True) -> None:
        """Let running jobs finish (or, with `wait_for_jobs=False`, kill them), then stop the
        workers and whatever they left behind. Closing twice does nothing."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._watcher.join()
        if wait_for_jobs:
            self._pool.close()
        else:
            self._pool.stop()
        self._pool.join()
        with self._lock:
            self._watch.kill_orphans()


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
            for future in done:
                yield futures.pop(future), pool.result(future)
        finished = True
    finally:
        pool.close(wait_for_jobs=finished)
