"""Jobs on a Dask cluster, at the cost of the local pool.

Each Dask worker gets a `JobPoolPlugin`: a `JobPool` (see `kakuro.compare.runners`) with one
long-lived job process per Dask thread, set up once when the plugin is registered. A Dask task
only hands jobs to that pool and waits, so a job pays its solve, not an interpreter start and
a compile; limits, kill-on-timeout, memory sampling, killing what a job leaves behind, CRASH
for a job process that exits and job processes that die with their Dask worker are the local
pool's own. A task carries
a few jobs (`chunk_size`), since a Dask task costs milliseconds, more than a short job; it
keeps one job queued behind the running one, hands over no new job after `CHUNK_SECONDS`, and
the jobs it did not start go back to the scheduler, so long jobs still spread over every worker. Tasks return `Attempt`s;
the client judges them and is the only one that writes the results file. A campaign stopped
early loses the jobs its running tasks finished but had not returned yet (`--resume` runs them).

A Dask worker may only start job processes if it is not a daemonic process: `dask worker`
(through its nanny) makes daemonic workers unless `distributed.worker.daemon` is False, e.g.

    DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker tcp://HOST:8786

`--dask local` starts such a cluster on this machine by itself.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import pickle
import time
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import Job
from kakuro.compare.runners import JobPool
from kakuro.compare.worker import WorkerConfig
from kakuro.errors import KakuroError

try:
    import dask
    from distributed import Client, LocalCluster, WorkerPlugin, as_completed, get_worker
except ImportError:  # pragma: no cover - the optional dependency is missing
    raise KakuroError("--dask needs dask.distributed: pip install 'kakuro[dask]'") from None

DAEMON_HELP = (
    "this Dask worker is a daemonic process, which may not start job processes; start the workers with "
    "DASK_DISTRIBUTED__WORKER__DAEMON=False (e.g. DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker ADDRESS) "
    "or with dask worker --no-nanny"
)
CONNECT_TIMEOUT = 30.0
"""Seconds to wait for a scheduler to answer."""
POLL_EVERY = 0.02
"""Seconds between two looks for finished tasks when none has finished."""
CHUNK_SECONDS = 0.5
"""A task hands over no new job after this many seconds, so records come back soon."""
MAX_CHUNK = 32
"""Jobs per Dask task at the most: one Dask task per job would cost more than a short job."""


class JobPoolPlugin(WorkerPlugin):
    """Gives a Dask worker a warm `JobPool` with one job process per Dask thread."""

    def __init__(self, config: WorkerConfig, isolate: bool = False) -> None:
        self.config = config
        self.isolate = isolate
        self.pool: JobPool | None = None

    def setup(self, worker: Any) -> None:
        if multiprocessing.current_process().daemon:
            raise KakuroError(DAEMON_HELP)
        self.pool = JobPool(self.config, worker.state.nthreads, isolate=self.isolate)
        self.pool.wait_warm()  # the client's register_plugin returns once every worker is warm

    def teardown(self, worker: Any) -> None:
        if self.pool is not None:
            self.pool.close(wait_for_jobs=False)
            self.pool = None


def run_chunk(payloads: list[bytes], kill_afters: list[float], plugin: str, budget: float,
              specs: list[str]) -> list[Attempt]:
    """A Dask task: run pickled Jobs (of the backends `specs`) in order on this worker's pool
    (registered under the name `plugin`), each killed after its `kill_afters` seconds, handing
    over no new job once `budget` seconds have passed. Returns the attempts of the first jobs,
    at least one. A job stays pickled until it reaches its job process."""
    owner = get_worker().plugins.get(plugin)
    pool = getattr(owner, "pool", None)
    if pool is None:
        return [Attempt("lost", message=f"dask: worker {get_worker().address} has no job pool {plugin!r}")] * len(payloads)
    start = time.monotonic()
    waiting = iter(zip(payloads, kill_afters, specs))
    queued = deque(pool.submit_pickled(*job) for job in itertools.islice(waiting, 2))
    attempts: list[Attempt] = []
    while queued:  # one job queued behind the running one: its process takes it without waiting for us
        attempts.append(pool.result(queued.popleft()))
        following = next(waiting, None) if time.monotonic() - start < budget else None
        if following is not None:
            queued.append(pool.submit_pickled(*following))
    return attempts


def chunk_size(jobs: int, slots: int) -> int:
    """Jobs per Dask task: enough tasks to keep every slot busy and balanced (8 per slot),
    at most `MAX_CHUNK`."""
    return max(1, min(MAX_CHUNK, jobs // (8 * max(1, slots))))


@contextlib.contextmanager
def connect(address: str | None, *, scheduler_file: str | None = None, workers: int = 1) -> Iterator[Client]:
    """A client of the cluster at `address`, of the one whose scheduler wrote
    `scheduler_file`, or (`address == "local"`) of a new cluster of `workers` one-thread
    workers on this machine, closed on exit. Raises KakuroError if it cannot be reached."""
    with contextlib.ExitStack() as stack:
        target: Any = address
        if address == "local":
            with dask.config.set({"distributed.worker.daemon": False}):
                target = stack.enter_context(LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=":0",
                ))
        where = f"the scheduler file {scheduler_file}" if scheduler_file else f"the Dask scheduler at {address}"
        try:
            if scheduler_file:
                client = Client(scheduler_file=scheduler_file, timeout=CONNECT_TIMEOUT)
            else:
                client = Client(target, timeout=CONNECT_TIMEOUT)
        except Exception as exc:
            raise KakuroError(f"cannot reach {where}: {type(exc).__name__}: {exc}") from None
        stack.callback(client.close)
        yield client


def slots(client: Client) -> int:
    """How many jobs the cluster runs at once: its Dask threads (at least 1)."""
    threads: dict[str, int] = client.nthreads()
    return max(1, sum(threads.values()))


def run_dask(
    jobs: Sequence[Job], config: WorkerConfig, client: Client, check_stop: Callable[[], None], *,
    isolate: bool = False, budget: float = CHUNK_SECONDS, progressed: Callable[[], None] = lambda: None,
) -> Generator[tuple[Job, Attempt]]:
    """Run jobs on the cluster of `client`; yield each with its attempt as it ends (a task's
    jobs come back together, about `budget` seconds after the first of them started at most,
    unless one job takes longer). `check_stop` raises to stop early; the workers' job
    processes are stopped either way. `progressed()` is called once the workers are warm and
    whenever a task ends (a campaign's watchdog)."""
    name = f"kakuro-compare-{uuid.uuid4().hex}"
    chunks: dict[Any, list[tuple[Job, bytes]]] = {}
    try:
        try:
            client.register_plugin(JobPoolPlugin(config, isolate), name=name)
        except Exception as exc:
            raise KakuroError(f"the Dask workers could not start their job processes: {exc}") from None
        progressed()
        finished = as_completed()

        def submit(chunk: list[tuple[Job, bytes]]) -> None:
            future = client.submit(run_chunk, [payload for _, payload in chunk],
                                   [job.limits.kill_after for job, _ in chunk], name, budget,
                                   [job.backend.spec for job, _ in chunk], pure=False)
            chunks[future] = chunk
            finished.add(future)

        size = chunk_size(len(jobs), slots(client))
        pickled = [(job, pickle.dumps(job)) for job in jobs]
        for first in range(0, len(pickled), size):
            submit(pickled[first:first + size])
        while not finished.is_empty():
            check_stop()
            batch = finished.next_batch(block=False)
            if not batch:
                time.sleep(POLL_EVERY)
                continue
            progressed()
            done = [future for future in batch if future.status == "finished"]
            for future, attempts in zip(done, client.gather(done) if done else []):
                chunk = chunks.pop(future)
                yield from ((job, attempt) for (job, _), attempt in zip(chunk, attempts))
                if len(attempts) < len(chunk):  # the task's time was up before these started: they go again
                    submit(chunk[len(attempts):])
            for future in batch:
                if future in chunks:  # the task failed: its Dask worker died, say
                    lost = _lost(future)
                    yield from ((job, lost) for job, _ in chunks.pop(future))
    finally:
        with contextlib.suppress(Exception):
            client.cancel(list(chunks))
        with contextlib.suppress(Exception):
            client.unregister_worker_plugin(name)


def _lost(future: Any) -> Attempt:
    """The attempt of every job of a task that did not finish."""
    try:
        error: BaseException | None = future.exception(timeout=CONNECT_TIMEOUT)
    except Exception as exc:  # cancelled, or the scheduler is gone
        error = exc
    return Attempt("lost", message=f"dask: {type(error).__name__}: {error}")
