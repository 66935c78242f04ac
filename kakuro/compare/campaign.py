"""A campaign: run jobs on a runner, judge each as it ends, append its record at once.

Ctrl-C, SIGTERM or SIGHUP stop a campaign cleanly: the signal only sets a flag, running jobs
(and a running certification) are dropped (their workers and everything below them killed),
and every record already appended stays whole. A watchdog stops a campaign in which nothing has
happened for `WATCHDOG` seconds beyond twice the longest job's time limit and grace (no job
ended, and the local pool neither started a job nor warmed a backend up): the runner is
stuck, which a sound runner never is, and waiting would lose the night. A campaign that ends
without a record for every job, unless stopped so, is an error: never a quiet success.

With `--certify`, UNSATISFIABLE answers are certified one at a time on a pool of their own (one
worker), under the campaign's memory limit and within twice the job's time limit and grace.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import Job
from kakuro.compare.progress import ProgressBar
from kakuro.compare.runners import JobPool, run_local
from kakuro.compare.worker import WorkerConfig, machine_info, versions
from kakuro.errors import KakuroError
from kakuro.puzzle import Puzzle
from kakuro.records.files import ResultsFile
from kakuro.records.record import SCHEMA, JobStatus, Record, clipped
from kakuro.records.verdict import Certification, Witnesses, certification, certified_status, judge

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
"""Signals that stop a campaign cleanly (`Campaign.exit_status` is 128 + the signal)."""
WATCHDOG = 300.0
"""Seconds without progress, beyond twice the longest job's time limit and grace, after which
the watchdog stops a campaign (see the module docstring)."""
CHECK_EVERY = 0.1
"""Seconds between two looks at the stop flag and the watchdog while a certification runs."""


Runner = Callable[[Callable[[], None]], Iterator[tuple[Job, Attempt]]]
"""Given `check_stop` (raises to stop early), yields each job with its attempt as it ends."""


@dataclass
class Campaign:
    """What a run did: jobs planned, skipped (already in the file), recorded now."""

    planned: int
    skipped: int
    recorded: int = 0
    solved: int = 0
    interrupted: bool = False
    stopped_by: int = signal.SIGINT
    """The signal that interrupted it (SIGINT for Ctrl-C), when `interrupted`."""
    stalled: str = ""
    """Why the watchdog stopped it (one line), or "" when it did not."""

    @property
    def exit_status(self) -> int:
        """128 + the signal when interrupted (130 for Ctrl-C), 1 when the watchdog stopped
        it, else 0."""
        if self.interrupted:
            return 128 + int(self.stopped_by)
        return 1 if self.stalled else 0


class _Stop(Exception):
    """Raised in the parent when a signal of `STOP_SIGNALS` asked the campaign to stop."""


class _Stalled(Exception):
    """Raised in the parent when the watchdog stops the campaign; the text says why."""


class _Watchdog:
    """`check` raises what `stop.check` raises, then `_Stalled` once nothing has happened for
    `limit` seconds: no job ended (`touch`) and `progress()` (`time.monotonic()` of the
    runner's last sign of life) is older."""

    def __init__(self, limit: float, progress: Callable[[], float], stop: _StopFlag) -> None:
        self.limit, self._progress, self._stop = limit, progress, stop
        self._last = time.monotonic()

    def touch(self) -> None:
        self._last = time.monotonic()

    def check(self) -> None:
        self._stop.check()
        idle = time.monotonic() - max(self._last, self._progress())
        if idle > self.limit:
            raise _Stalled(f"stalled: no job ended for {idle:.0f} s (the watchdog stops a campaign after {WATCHDOG:g} s "
                           f"beyond twice the longest job's time limit and grace)")


class _StopFlag:
    """Handlers of `STOP_SIGNALS` that only set a flag, so no write is ever cut in half."""

    def __init__(self) -> None:
        self.requested: int | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _StopFlag:
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested is None:
            self.requested = signum

    def check(self) -> None:
        if self.requested is not None:
            raise _Stop()

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)


@dataclass(frozen=True)
class Fallback:
    """What a record says about versions and machine when its worker sent no reply."""

    versions: Mapping[str, Mapping[str, str]]
    """Per full spec."""
    machine: Mapping[str, Any]

    @classmethod
    def here(cls, config: WorkerConfig) -> Fallback:
        return cls({spec: versions(spec) for spec in config.backends}, machine_info())


def make_record(job: Job, attempt: Attempt, status: JobStatus, message: str, fallback: Fallback,
                certified: bool | None = None) -> Record:
    """The record of a finished job (`certified`: see `Record.certified`)."""
    reply = attempt.reply
    limits, inst = job.limits, job.instance
    wall = reply.wall if reply is not None else (limits.kill_after if attempt.kind == "timeout" else None)
    return Record(
        schema=SCHEMA,
        instance=inst.name,
        source=inst.source,
        index=inst.index,
        digest=inst.digest,
        rows=inst.puzzle.rows,
        cols=inst.puzzle.cols,
        backend=job.backend.label,
        spec=job.backend.spec,
        seed=job.seed,
        repeat=job.repeat,
        status=status,
        time=reply.time if reply is not None else None,
        wall=wall,
        time_limit=limits.time_limit,
        grace=limits.grace,
        memory_limit_mb=limits.memory_mb,
        budget=limits.budget.asked(),
        peak_rss_mb=reply.peak_rss_mb if reply is not None else None,
        stats=dict(reply.stats) if reply is not None else {},
        message=clipped(message),
        finished=dt.datetime.now(dt.UTC).isoformat(timespec="microseconds"),
        versions=dict(reply.versions if reply is not None and reply.versions else fallback.versions.get(job.backend.spec, {})),
        machine=dict(reply.machine if reply is not None and reply.machine else fallback.machine),
        certified=certified,
    )


def run_campaign(
    jobs: Sequence[Job],
    config: WorkerConfig,
    results: ResultsFile,
    *,
    workers: int,
    witnesses: Witnesses | None = None,
    dask: str | None = None,
    scheduler_file: str | None = None,
    isolate: bool = False,
    progress: bool = False,
    skipped: int = 0,
    certify: bool = False,
    stall_after: float | None = None,
) -> Campaign:
    """Run `jobs`, judge each answer and append its record to `results` as it ends.
    `witnesses` (who holds a verified solution of which puzzle) grows as solutions come in.
    Runs on a local pool of `workers` processes, or on Dask: `dask` is a scheduler address or
    "local" (a cluster of `workers` workers here), or `scheduler_file` names a scheduler. With
    `certify`, every UNSATISFIABLE answer is certified (see the module docstring): one that fails is
    WRONG. Stops early on SIGINT/SIGTERM/SIGHUP (`interrupted`), and when nothing happened for
    `stall_after` seconds (`stalled`; default: the watchdog's); nothing half-written stays behind.
    Raises KakuroError if the cluster cannot be reached or cannot start its job
    processes, or when the runner ended without a record for every job."""
    witnesses = Witnesses() if witnesses is None else witnesses
    campaign = Campaign(len(jobs) + skipped, skipped)
    if not jobs:
        return campaign
    fallback = Fallback.here(config)
    with contextlib.ExitStack() as stack:
        try:
            attempts, slots, progressed = _runner(stack, jobs, config, workers, dask, scheduler_file, isolate)
        except KeyboardInterrupt:
            campaign.interrupted = True
            return campaign
        stop = stack.enter_context(_StopFlag())
        watchdog = _Watchdog(stall_after or WATCHDOG + 2 * max(job.limits.kill_after for job in jobs), progressed, stop)
        check_stop = watchdog.check
        certifier = _Certifier(stack, config, check_stop) if certify else None
        bar = stack.enter_context(ProgressBar.shown(jobs, slots, enabled=progress))
        try:
            for job, attempt in attempts(check_stop):
                status, message, certified = _judged(job, attempt, witnesses, certifier)
                if status is JobStatus.SOLVED:
                    witnesses.add(job.instance.digest, job.backend.label)
                    campaign.solved += 1
                record = make_record(job, attempt, status, message, fallback, certified)
                results.append(record)
                campaign.recorded += 1
                watchdog.touch()
                bar.advance(job, record)
                stop.check()
        except _Stop:
            campaign.interrupted = True
            campaign.stopped_by = stop.requested or signal.SIGINT
        except _Stalled as exc:
            campaign.stalled = str(exc)
        except KeyboardInterrupt:
            campaign.interrupted = True
    if not campaign.interrupted and not campaign.stalled and campaign.recorded < len(jobs):
        raise KakuroError(f"only {campaign.recorded} of {len(jobs)} jobs ended with a record: the job processes "
                          f"stopped running jobs (the records made are kept; --resume runs the others)")
    return campaign


def _judged(job: Job, attempt: Attempt, witnesses: Witnesses,
            certifier: _Certifier | None) -> tuple[JobStatus, str, bool | None]:
    """The verdict on `attempt` (`judge`): status, message and, with a `certifier` (`compare
    --certify`), whether the UNSATISFIABLE answer is certified; an UNSATISFIABLE answer that fails
    it is WRONG."""
    status, message = judge(job, attempt, witnesses)
    if certifier is None or status is not JobStatus.UNSATISFIABLE:
        return status, message, None
    found = certifier.certification(job)
    status, message = certified_status(message, found)
    return status, message, found.certified


class _Certifier:
    """Certifies each puzzle once (`certification`), on a pool of one worker of its own that
    starts with the first certification: under the campaign's memory limit, killed at twice
    the job's time limit and grace, waited for with `check_stop` called every `CHECK_EVERY`
    seconds (a signal stops the campaign at once; the pool is killed with it)."""

    def __init__(self, stack: contextlib.ExitStack, config: WorkerConfig, check_stop: Callable[[], None]) -> None:
        self._stack, self._memory_mb, self._check_stop = stack, config.memory_mb, check_stop
        self._pool: JobPool | None = None
        self._made: dict[str, Certification] = {}

    def certification(self, job: Job) -> Certification:
        digest = job.instance.digest
        if digest not in self._made:
            self._made[digest] = self._certify(job)
        return self._made[digest]

    def _certify(self, job: Job) -> Certification:
        if self._pool is None:
            self._pool = JobPool(WorkerConfig((), memory_mb=self._memory_mb), 1)
            self._stack.callback(self._pool.close, wait_for_jobs=False)
        seconds = 2 * job.limits.kill_after
        future = self._pool.call(_certification, (job.instance.puzzle, job.limits.time_limit), seconds)
        while True:
            self._check_stop()
            try:
                ending = future.result(timeout=CHECK_EVERY)
                break
            except FutureTimeout:
                continue
        if ending.kind == "reply" and isinstance(ending.value, Certification):
            return ending.value
        why = {
            "timeout": f"certification was stopped at {seconds:g} s (twice the time limit and grace)",
            "memout": f"certification went past the memory limit ({self._memory_mb} MiB)",
        }.get(ending.kind) or f"the certifying process ended without an answer ({ending.message or ending.kind})"
        return Certification(False, note=f"not certified: {why}")


def _certification(task: tuple[Puzzle, float]) -> Certification:
    """`certification(puzzle, time_limit)`, in a certifying worker."""
    return certification(*task)


def _runner(
    stack: contextlib.ExitStack, jobs: Sequence[Job], config: WorkerConfig, workers: int,
    dask: str | None, scheduler_file: str | None, isolate: bool,
) -> tuple[Runner, int, Callable[[], float]]:
    """The runner the arguments ask for, how many jobs it runs at once, and when it last
    showed progress beyond jobs ending (`time.monotonic()`: the local pool's warm-ups and job
    starts; Dask's workers warm, its tasks ending)."""
    if dask is None and scheduler_file is None:
        pool = JobPool(config, workers, isolate=isolate)

        def local(check_stop: Callable[[], None]) -> Iterator[tuple[Job, Attempt]]:
            return stack.enter_context(contextlib.closing(run_local(jobs, pool, check_stop)))

        stack.callback(pool.close, wait_for_jobs=False)
        return local, workers, lambda: pool.last_progress
    from kakuro.compare import cluster

    client = stack.enter_context(cluster.connect(dask, scheduler_file=scheduler_file, workers=workers))
    last = [0.0]

    def progressed() -> None:
        last[0] = time.monotonic()

    def remote(check_stop: Callable[[], None]) -> Iterator[tuple[Job, Attempt]]:
        return stack.enter_context(contextlib.closing(cluster.run_dask(
            jobs, config, client, check_stop, isolate=isolate, progressed=progressed)))

    return remote, cluster.slots(client), lambda: last[0]
