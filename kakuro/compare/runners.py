"""Runners: where jobs run, each ending as an `Attempt`.

`JobPool` runs jobs on `processes` long-lived workers, one job at a time each. The workers are
forked, warm, by a spawner process (`kakuro.compare.spawner`: the backends are warmed up there
once, never in the pool's owner), and one thread of the pool, the watch, is the only one that
sends them work, reads their answers and kills them. Every job ends as one Attempt:

- `reply`: its worker's answer;
- `timeout`: still running `kill_after` (time limit + grace) seconds after it started;
- `memout`: past the memory limit (`kakuro.compare.watch`);
- `died`: its worker ended (whatever its exit status, 0 included), or stayed stopped
  (SIGSTOP) for `STOP_GRACE` seconds;
- `lost`: the harness could not run it (a backend whose warm-up ended the spawner or took
  longer than `WorkerConfig.warm_up_limit`, a job that cannot be pickled, the pool closed).

A worker that times out, goes past the memory limit or stays stopped is killed with every
process below it (`kakuro.isolation.kill_tree`); what a worker that died left behind is killed
by the spawner, whose subreaper it is. A worker that is gone is replaced by a fresh warm one, and
the pool goes on. A job sent to a worker that never starts it (stopped while idle) goes to
another. With `isolate`, every job gets a fresh worker.

`run_local` drives a `JobPool` on this machine; `kakuro.compare.cluster` gives each Dask
worker a `JobPool` of its own.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import select
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from typing import Any, Literal

from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import Job
from kakuro.compare.spawner import Channel, Spawner
from kakuro.compare.watch import SAMPLE_EVERY, stopped, used_mb
from kakuro.compare.worker import Reply, WorkerConfig, described, run_job, run_pickled_job
from kakuro.errors import KakuroError
from kakuro.isolation import kill_tree

STOP_GRACE = 1.0
"""Seconds a worker may stay stopped (SIGSTOP) before it is killed: CRASH for its job."""
EXIT_GRACE = 1.0
"""Seconds to wait for the exit status of a worker whose channel closed (the spawner sends it)."""
SPAWN_LIMIT = 30.0
"""Seconds the spawner may take to fork a worker asked for; past it, it is started again."""
RESENDS = 2
"""Times a job goes to another worker when the one it was sent to never started it."""

Kind = Literal["reply", "timeout", "memout", "died", "lost"]


@dataclass(frozen=True)
class Ending:
    """How a task ended (see the module docstring): `value` is what the function returned
    when `kind` is "reply"; `memory_mb` the MiB its job used at the last look."""

    kind: Kind
    value: Any = None
    exitcode: int | None = None
    memory_mb: float | None = None
    message: str = ""


@dataclass(eq=False)
class _Task:
    function: Callable[[Any], Any]
    argument: Any
    kill_after: float
    spec: str
    future: Future[Ending] = field(default_factory=Future)
    resent: int = 0


@dataclass(eq=False)
class _Worker:
    pid: int
    process: Any
    """Its psutil.Process (None when it was gone before it could be looked at)."""
    channel: Channel
    task: _Task | None = None
    sent: float = 0.0
    """`time.monotonic()` when `task` was sent."""
    started: float | None = None
    """When the worker started `task` (its own `time.monotonic`, one clock for the machine)."""
    baseline: int = 0
    """Its resident bytes when `task` started."""
    used_mb: float | None = None
    stopped_since: float | None = None
    closed_at: float | None = None
    """When its channel closed: it ended, its exit status is on its way."""


class JobPool:
    """`processes` long-lived workers running jobs one at a time under the jobs' limits (see
    the module docstring). Thread-safe: several threads may submit jobs and wait for them."""

    def __init__(self, config: WorkerConfig, processes: int, *, isolate: bool = False) -> None:
        if not hasattr(os, "fork"):
            raise KakuroError("compare runs its jobs in forked processes: it needs os.fork (Linux, macOS)")
        self._config, self._size, self._isolate = config, max(1, processes), isolate
        self._lock = threading.Lock()
        self._queue: deque[_Task] = deque()
        self._closing: Literal["wait", "kill"] | None = None
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self.last_progress = time.monotonic()
        """`time.monotonic()` of the last sign of progress: a warm-up step, a job started or ended."""
        self._warm = threading.Event()
        # the watch's own (touched by its thread only)
        self._spawner: Spawner | None = None
        self._ready = False
        self._warming = ("", 0.0)
        self._failed: dict[str, Ending] = {}
        self._requested: deque[float] = deque()
        self._workers: dict[int, _Worker] = {}
        self._ended: list[tuple[_Task, Ending]] = []
        self._sampled = 0.0
        self._watch = threading.Thread(target=self._keep_watch, name="kakuro-job-pool", daemon=True)
        self._watch.start()

    # ------------------------------------------------------------------ the callers' side
    def submit(self, job: Job) -> Future[Ending]:
        """Start `job` as soon as a worker is free."""
        return self.call(run_job, job, job.limits.kill_after, job.backend.spec)

    def submit_pickled(self, payload: bytes, kill_after: float, spec: str) -> Future[Ending]:
        """`submit` for a pickled Job (of backend `spec`) whose worker is killed after
        `kill_after` seconds."""
        return self.call(run_pickled_job, payload, kill_after, spec)

    def call(self, function: Callable[[Any], Any], argument: Any, kill_after: float, spec: str = "") -> Future[Ending]:
        """Run `function(argument)` (both picklable; it must not raise) on a worker, killed
        after `kill_after` seconds and past the memory limit; `spec` names the backend it
        needs warm ("" for none)."""
        task = _Task(function, argument, kill_after, spec)
        with self._lock:
            if self._closing is not None:
                task.future.set_result(Ending("lost", message="the job pool was closed"))
                return task.future
            self._queue.append(task)
        self._wake()
        return task.future

    def wait_warm(self) -> None:
        """Wait until the backends are warmed up (or given up: see the module docstring)."""
        while not self._warm.wait(0.1) and self._watch.is_alive():
            pass

    def result(self, future: Future[Ending]) -> Attempt:
        """Wait for a submitted job and say how it ended (never raises)."""
        ending = future.result()
        if ending.kind != "reply":
            return Attempt(ending.kind, exitcode=ending.exitcode, memory_mb=ending.memory_mb, message=ending.message)
        if isinstance(ending.value, Reply):
            return Attempt("reply", ending.value)
        return Attempt("lost", message=f"the worker answered a {type(ending.value).__name__}, not a Reply")

    def close(self, *, wait_for_jobs: bool = True) -> None:
        """Let the jobs submitted end (or, with `wait_for_jobs=False`, kill them: they end as
        `lost`), then stop the workers and every process below them. Closing again does nothing,
        but for turning a waiting close into a killing one."""
        with self._lock:
            if self._closing != "kill":
                self._closing = "wait" if wait_for_jobs and self._closing is None else "kill"
        self._wake()
        self._watch.join()
        with self._lock:
            if self._wake_write >= 0:
                os.close(self._wake_read)
                os.close(self._wake_write)
                self._wake_write = -1

    def _wake(self) -> None:
        with self._lock, contextlib.suppress(OSError):  # full: a wake-up is pending anyway
            if self._wake_write >= 0:
                os.write(self._wake_write, b"x")

    # ------------------------------------------------------------------ the watch
    def _keep_watch(self) -> None:
        try:
            while not self._finished():
                self._keep_spawner(time.monotonic())
                self._dispatch(time.monotonic())
                self._settle()  # after the next jobs went out: a waiting caller takes the GIL from here
                self._wait(self._pause(time.monotonic()))
                self._check(time.monotonic())
        except BaseException as exc:  # a fault of the harness itself: the jobs still open say so
            self._end_all(Ending("lost", message=f"the job pool failed: {described(exc)}"))
        finally:
            self._shut_down()

    def _finished(self) -> bool:
        if self._ended:
            return False
        with self._lock:
            if self._closing == "kill":
                return True
            return self._closing == "wait" and not self._queue and not any(w.task for w in self._workers.values())

    def _keep_spawner(self, now: float) -> None:
        """Start the spawner when there is none (and the imports did not fail); notice that it
        ended, or hangs."""
        if self._spawner is None and "" not in self._failed:
            backends = tuple(spec for spec in self._config.backends if spec not in self._failed)
            self._spawner = Spawner(dataclasses.replace(self._config, backends=backends))
            self._ready, self._warming = False, ("", now)
            self._requested.clear()
        elif self._spawner is None:
            return
        elif self._spawner.ended():
            self._spawner_ended(f"exit status {self._spawner.exitcode}")
        elif self._ready and self._requested and now - self._requested[0] > SPAWN_LIMIT:
            self._spawner_ended(f"it forked no worker in {SPAWN_LIMIT:g} s")
        elif not self._ready and now - self._warming[1] > self._config.warm_up_limit:
            spec = self._warming[0]
            self._spawner_ended("stopped", Ending("lost", message=(
                f"{_warming_text(spec)} did not finish within {self._config.warm_up_limit:g} s; it was stopped, "
                f"and no job of {spec or 'any backend'} ran")))

    def _spawner_ended(self, how: str, warm_up: Ending | None = None) -> None:
        """The spawner is gone (or is made to go): kill what is left of it. Ended while warming
        up, the backend it was at is given up (`warm_up`, or a `died` saying so); ended later,
        each running job ends `died`. A new spawner starts at the next turn."""
        spawner, self._spawner = self._spawner, None
        assert spawner is not None
        spawner.kill()
        if not self._ready:
            spec = self._warming[0]
            ending = warm_up or Ending("died", exitcode=spawner.exitcode, message=(
                f"{_warming_text(spec)} ended the process that tried it; no job of {spec or 'any backend'} ran"))
            for failed in ([spec] if spec else ["", *self._config.backends]):
                self._failed[failed] = ending
            if not spec:
                self._warm.set()  # nothing will be warm
            return
        for worker in list(self._workers.values()):
            self._worker_ended(worker, None, f"the pool's spawner process ended ({how}), and its workers with it")

    def _dispatch(self, now: float) -> None:
        """Hand queued tasks to idle workers (or end those of a backend given up), and ask for
        workers until there are `processes` of them."""
        given_up: list[tuple[_Task, Ending]] = []
        if self._failed:
            with self._lock:
                kept: deque[_Task] = deque()
                for task in self._queue:
                    ending = self._failed.get(task.spec) or self._failed.get("")
                    if ending is None:
                        kept.append(task)
                    else:
                        given_up.append((task, ending))
                self._queue = kept
        for task, ending in given_up:
            task.future.set_result(ending)
        if self._spawner is None or not self._ready:
            return
        idle = [w for w in self._workers.values() if w.task is None and w.closed_at is None and w.stopped_since is None]
        while idle:
            with self._lock:
                if not self._queue:
                    break
                task = self._queue.popleft()
            self._send(idle.pop(), task, now)
        with self._lock:
            wanted = self._closing is None or bool(self._queue)
        for _ in range(self._size - len(self._workers) - len(self._requested) if wanted else 0):
            self._spawner.request_worker()
            self._requested.append(now)

    def _send(self, worker: _Worker, task: _Task, now: float) -> None:
        try:
            worker.channel.send((task.function, task.argument))
        except Exception as exc:  # pickling
            task.future.set_result(Ending("lost", message=f"the job could not be sent to a worker: {described(exc)}"))
            return
        worker.task, worker.sent, worker.started, worker.used_mb = task, now, None, None

    def _pause(self, now: float) -> float:
        """Seconds until the next look: `SAMPLE_EVERY`, or less when a job's limit comes first."""
        ends = [(w.started if w.started is not None else w.sent) + w.task.kill_after - now
                for w in self._workers.values() if w.task is not None]
        return max(0.005, min([SAMPLE_EVERY - (now - self._sampled), *ends]))

    def _wait(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for the spawner, a worker or a caller; read them."""
        poller = select.poll()
        poller.register(self._wake_read, select.POLLIN)
        if self._spawner is not None:
            poller.register(self._spawner.socket, select.POLLIN)
        by_fd = {w.channel.fileno(): w for w in self._workers.values() if not w.channel.closed}
        for fd, worker in by_fd.items():
            poller.register(fd, select.POLLIN | (select.POLLOUT if worker.channel.sending() else 0))
        events = poller.poll(timeout * 1000)
        with contextlib.suppress(OSError):
            os.read(self._wake_read, 4096)
        if self._spawner is not None:
            self._hear_spawner(time.monotonic())
        for fd, _ in events:
            ready = by_fd.get(fd)
            if ready is not None and self._workers.get(ready.pid) is ready:
                ready.channel.flush()
                self._hear(ready, time.monotonic())

    def _hear_spawner(self, now: float) -> None:
        assert self._spawner is not None
        for message in self._spawner.messages():
            kind = message[0]
            if kind == "warming":
                self._warming, self.last_progress = (message[1], now), now
            elif kind == "ready":
                self._ready, self.last_progress = True, now
                self._warm.set()
            elif kind == "spawned":
                if self._requested:
                    self._requested.popleft()
                self._workers[message[1]] = _Worker(message[1], _process(message[1]), Channel(message[2]))
            elif kind == "exited" and message[1] in self._workers:
                self._worker_ended(self._workers[message[1]], message[2])

    def _hear(self, worker: _Worker, now: float) -> None:
        """Read what `worker` sent: its job's start, then its answer."""
        for message in worker.channel.receive():
            task = worker.task
            if task is None:
                continue
            if message[0] == "start":
                worker.started, worker.baseline, self.last_progress = message[1] / 1e9, message[2], now
            elif message[0] == "reply":
                self._end(worker, Ending("reply", value=message[1]))
                if self._isolate:
                    self._drop(worker)
            else:
                self._end(worker, Ending("lost", message=f"the worker could not run the job: {message[1]}"))
        if worker.channel.closed and worker.closed_at is None:
            worker.closed_at = now

    def _check(self, now: float) -> None:
        """Enforce the time limits; give up on workers whose exit status does not come; look
        at the workers' state and memory every `SAMPLE_EVERY` seconds."""
        for worker in list(self._workers.values()):
            task = worker.task
            if worker.closed_at is not None and now - worker.closed_at >= EXIT_GRACE:
                self._worker_ended(worker, None)
            elif task is not None and worker.started is not None and now >= worker.started + task.kill_after:
                self._end(worker, Ending("timeout"))
                self._drop(worker)
            elif task is not None and worker.started is None and now >= worker.sent + task.kill_after:
                self._resend(worker)
        if now - self._sampled >= SAMPLE_EVERY:
            self._sampled = now
            self._sample(now)

    def _sample(self, now: float) -> None:
        if self._spawner is not None and self._spawner.process is not None and stopped(self._spawner.process):
            with contextlib.suppress(OSError):
                os.kill(self._spawner.pid, signal.SIGCONT)  # the harness's own process: it goes on
        memory = self._config.memory_mb
        for worker in list(self._workers.values()):
            if worker.process is None:
                continue
            if not stopped(worker.process):
                worker.stopped_since = None
            elif worker.stopped_since is None:
                worker.stopped_since = now
            if worker.stopped_since is not None:
                if now - worker.stopped_since >= STOP_GRACE:
                    self._stopped(worker)
                continue
            if memory is not None and worker.task is not None and worker.started is not None:
                worker.used_mb = used_mb(worker.process, worker.baseline)
                if worker.used_mb is not None and worker.used_mb > memory:
                    self._end(worker, Ending("memout", memory_mb=worker.used_mb))
                    self._drop(worker)

    def _stopped(self, worker: _Worker) -> None:
        """`worker` stayed stopped: its job (if it had started it) is a CRASH; it is killed."""
        if worker.task is not None and worker.started is None:
            self._resend(worker)
            return
        if worker.task is not None:
            self._end(worker, Ending("died", memory_mb=worker.used_mb, message=(
                f"it was stopped (SIGSTOP) for {STOP_GRACE:g} s during the job, and was killed")))
        self._drop(worker)

    def _resend(self, worker: _Worker) -> None:
        """`worker` never started the job it was sent: kill it, send the job to another."""
        task = worker.task
        assert task is not None
        worker.task = None
        self._drop(worker)
        if task.resent >= RESENDS:
            task.future.set_result(Ending("lost", message=f"{RESENDS + 1} workers were sent this job and none started it"))
            return
        task.resent += 1
        with self._lock:
            self._queue.appendleft(task)

    def _worker_ended(self, worker: _Worker, exitcode: int | None, why: str = "") -> None:
        """`worker` has ended: its job, unless it had answered (read now), `died`; a job it
        had not started yet goes to another worker."""
        self._hear(worker, time.monotonic())
        if worker.task is not None and worker.started is None:
            self._resend(worker)
        elif worker.task is not None:
            self._end(worker, Ending("died", exitcode=exitcode, memory_mb=worker.used_mb, message=why))
        self._drop(worker)

    def _end(self, worker: _Worker, ending: Ending) -> None:
        """`worker`'s job has ended so; its caller hears of it at the next `_settle`."""
        task, worker.task = worker.task, None
        if task is not None:
            self._ended.append((task, ending))
            self.last_progress = time.monotonic()

    def _settle(self) -> None:
        ended, self._ended = self._ended, []
        for task, ending in ended:
            task.future.set_result(ending)

    def _drop(self, worker: _Worker) -> None:
        """Kill `worker` and everything below it (if it still runs), and forget it."""
        if self._workers.pop(worker.pid, None) is None:
            return
        if worker.process is not None:
            kill_tree(worker.process)
        worker.channel.close()

    def _end_all(self, ending: Ending) -> None:
        for worker in list(self._workers.values()):
            self._end(worker, ending)
        self._settle()
        with self._lock:
            queued, self._queue = list(self._queue), deque()
        for task in queued:
            task.future.set_result(ending)

    def _shut_down(self) -> None:
        """Kill every process of the pool; end every job still open as `lost`."""
        with contextlib.suppress(Exception):
            if self._spawner is not None:
                self._spawner.kill()
        for worker in list(self._workers.values()):
            with contextlib.suppress(Exception):
                self._drop(worker)
        self._end_all(Ending("lost", message="the job pool was closed before this job ended"))
        with self._lock:
            self._closing = "kill"


def _warming_text(spec: str) -> str:
    return f"warming up {spec}" if spec else "importing the --import modules"


def _process(pid: int) -> Any:
    """The psutil.Process of `pid`, None when it is gone already."""
    import psutil

    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


def run_local(jobs: Sequence[Job], pool: JobPool, check_stop: Callable[[], None]) -> Generator[tuple[Job, Attempt]]:
    """Run jobs on `pool`; yield each with its attempt as it ends (jobs seen ending at the same
    look in the order of `jobs`, not in a set's order). `check_stop` raises to stop early; the
    pool is closed either way (running jobs killed when stopped early)."""
    finished = False
    try:
        futures = {pool.submit(job): number for number, job in enumerate(jobs)}  # each one's job, by position
        pending = set(futures)
        while pending:
            check_stop()
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=futures.__getitem__):
                yield jobs[futures.pop(future)], pool.result(future)
        finished = True
    finally:
        pool.close(wait_for_jobs=finished)
