"""Runners: where jobs run, each ending as an `Attempt`.

`JobPool` is the one piece that runs jobs: a pebble `ProcessPool` of long-lived worker
processes, set up once (`worker.start_worker`), that run jobs one at a time. A job still
running `time_limit + grace` seconds after it started has its worker killed with every process
below it (`kakuro.compare.watch` keeps that limit; pebble's own timeout, `BACKSTOP` seconds
later, is only a fallback) and a fresh worker takes its place; so has a job past the memory
limit (MEMOUT). A worker that ends by itself while its job runs makes that job CRASH at once,
whatever its exit status (0 included, which pebble would let wait for the timeout). When a job
ends, whatever it started is killed (`watch.run_reported`); workers die with the pool's owner
(Linux). With `isolate`, every job gets a fresh worker.
Where `fork` exists the pool forks its workers from a process that has warmed the backends up,
so a worker, or the replacement of a killed one, starts with the engines loaded and compiled; a
backend whose warm-up ends the process (tried first in a child) never reaches a worker, and
each of its jobs ends at once as a worker death (CRASH) with that exit status.

`run_local` drives a `JobPool` on this machine; `kakuro.compare.cluster` gives each Dask
worker a `JobPool` of its own.
"""

from __future__ import annotations

import dataclasses
import itertools
import multiprocessing
import os
import threading
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, wait
from typing import Any

from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import Job
from kakuro.compare.watch import WorkerWatch, run_reported
from kakuro.compare.worker import (
    WorkerConfig,
    run_job,
    run_pickled_job,
    start_worker,
    warm_up,
)

BACKSTOP = 2.0
"""Seconds past a job's `kill_after` at which pebble kills its worker, should the watch not have."""
DEATH_GRACE = 0.5
"""Seconds a worker must have been gone, its job unanswered and pebble silent, before the job
is a CRASH of exit status 0 (pebble reports any other exit at once; an answer sent just before
a normal exit arrives well within this)."""


class _WarmUpEnded(Exception):
    """The future of a job whose backend's warm-up ended the process that tried it."""

    def __init__(self, spec: str, exitcode: int) -> None:
        super().__init__(spec)
        self.spec, self.exitcode = spec, exitcode


def pool_context(config: WorkerConfig) -> tuple[Any, dict[str, int]]:
    """`fork` where there is one, after warming the backends up in this process; `spawn`
    elsewhere. Also the backends whose warm-up ended the process, with its exit status
    (`worker.warm_up`)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn"), {}
    ended = warm_up(config)
    return multiprocessing.get_context("fork"), ended


class JobPool:
    """`processes` long-lived workers running jobs one at a time under the jobs' limits (see
    the module docstring), watched by a thread (`kakuro.compare.watch`). Thread-safe: several
    threads may submit jobs and wait for them at once."""

    def __init__(self, config: WorkerConfig, processes: int, *, isolate: bool = False) -> None:
        import pebble

        self._pebble = pebble
        context, self._warm_up_ended = pool_context(config)
        config = dataclasses.replace(config, backends=tuple(s for s in config.backends if s not in self._warm_up_ended))
        reports, sender = context.Pipe(duplex=False)
        os.set_blocking(sender.fileno(), False)  # a worker never waits for the watch
        self._watch = WorkerWatch(config.memory_mb, reports)
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._tokens = itertools.count(1)
        self._token_of: dict[Future[Any], int] = {}
        self._future_of: dict[int, Future[Any]] = {}
        self._exited: dict[Future[Any], float | None] = {}
        """Futures cancelled because their worker exited by itself, with the MiB their job used."""
        self._pool = pebble.ProcessPool(
            max_workers=processes, max_tasks=1 if isolate else 0, initializer=start_worker,
            initargs=(config, sender, os.getpid()), context=context,
        )
        self._pool.schedule(os.getpid)  # starts the workers from this thread: they die with it (see die_with_parent)
        self._watcher = threading.Thread(target=self._keep_watching, name="kakuro-worker-watch", daemon=True)
        self._watcher.start()

    def _keep_watching(self) -> None:
        pause = 0.0
        while not self._closed.wait(pause):
            with self._lock:
                self._watch.sample()
                for token in self._watch.died_quietly(DEATH_GRACE):
                    future = self._future_of.get(token)
                    if future is not None and future.cancel():  # pebble frees its task; result() says why
                        job = self._watch.job(token)
                        self._exited[future] = self._watch.used_mb.pop(job.pid, None) if job is not None else None
                    self._watch.forget(token)
                pause = self._watch.pause()

    def submit(self, job: Job) -> Future[Any]:
        """Start `job` as soon as a worker is free; its future ends with a Reply or an error."""
        return self._schedule(run_job, job, job.limits.kill_after, job.backend.spec)

    def submit_pickled(self, payload: bytes, kill_after: float, spec: str) -> Future[Any]:
        """`submit` for a pickled Job (of backend `spec`) whose worker is killed after
        `kill_after` seconds."""
        return self._schedule(run_pickled_job, payload, kill_after, spec)

    def _schedule(self, function: Callable[[Any], Any], argument: Any, kill_after: float, spec: str) -> Future[Any]:
        if spec in self._warm_up_ended:
            ended: Future[Any] = Future()
            ended.set_exception(_WarmUpEnded(spec, self._warm_up_ended[spec]))
            return ended
        with self._lock:
            token = next(self._tokens)
            self._watch.expect(token, kill_after)
            future = self._pool.schedule(run_reported, (token, function, argument), timeout=kill_after + BACKSTOP)
            self._token_of[future] = token
            self._future_of[token] = future
        return future

    def result(self, future: Future[Any]) -> Attempt:
        """Wait for a submitted job and say how it ended. Whatever the future holds, even an
        exception that is not an Exception, ends as an Attempt: nothing is raised here."""
        try:
            error = future.exception()
        except CancelledError:
            error = None
        with self._lock:
            token = self._token_of.pop(future, 0)
            self._future_of.pop(token, None)
            try:
                return self._attempt(future, error, token)
            finally:
                self._watch.forget(token)

    def _attempt(self, future: Future[Any], error: BaseException | None, token: int) -> Attempt:
        if future.cancelled():
            if future in self._exited:
                self._watch.kill_orphans()
                return Attempt("died", exitcode=0, memory_mb=self._exited.pop(future))
            return Attempt("lost", message="cancelled")
        if error is None:
            reply = future.result()
            self._watch.forget_job(getattr(reply, "pid", 0))
            return Attempt("reply", reply)
        if isinstance(error, _WarmUpEnded):
            return Attempt("died", exitcode=error.exitcode,
                           message=f"warming up {error.spec} ended the process that tried it; no job of it ran")
        if isinstance(error, TimeoutError):
            self._watch.kill_orphans()
            return Attempt("timeout")
        if isinstance(error, self._pebble.ProcessExpired):
            self._watch.kill_orphans()
            killed = self._watch.killed_mb.pop(error.pid, None)
            if killed is not None:
                return Attempt("memout", memory_mb=killed)
            if self._watch.timed_out(token):
                return Attempt("timeout")
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


def run_local(jobs: Sequence[Job], pool: JobPool, check_stop: Callable[[], None]) -> Generator[tuple[Job, Attempt]]:
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
