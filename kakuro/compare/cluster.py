"""Jobs on a Dask cluster, at the cost of the local pool.

Each Dask worker gets a `JobPoolPlugin`: a `JobPool` (see `kakuro.compare.runners`) with one
long-lived job process per Dask thread, set up once when the plugin is registered. A Dask task
only hands its job to that pool and waits, so a job pays its solve, not an interpreter start
and a compile; limits, kill-on-timeout and memory sampling are the local pool's own. Tasks
return an `Attempt`; the client judges it and is the only one that writes the results file.

A Dask worker may only start job processes if it is not a daemonic process: `dask worker`
(through its nanny) makes daemonic workers unless `distributed.worker.daemon` is False, e.g.

    DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker tcp://HOST:8786

`--dask local` starts such a cluster on this machine by itself.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from kakuro.compare.jobs import Job
from kakuro.compare.runners import JobPool
from kakuro.compare.verdict import Attempt
from kakuro.compare.worker import WorkerConfig
from kakuro.errors import KakuroError

try:
    import dask
    from distributed import Client, LocalCluster, WorkerPlugin, get_worker
    from distributed import wait as dask_wait
except ImportError:  # pragma: no cover - the optional dependency is missing
    raise KakuroError("--dask needs dask.distributed: pip install 'kakuro[dask]'") from None

DAEMON_HELP = (
    "this Dask worker is a daemonic process, which may not start job processes; start the workers with "
    "DASK_DISTRIBUTED__WORKER__DAEMON=False (e.g. DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker ADDRESS) "
    "or with dask worker --no-nanny"
)
CONNECT_TIMEOUT = 30.0
"""Seconds to wait for a scheduler to answer."""


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

    def teardown(self, worker: Any) -> None:
        if self.pool is not None:
            self.pool.close(wait_for_jobs=False)
            self.pool = None


def run_on_worker(job: Job, plugin: str) -> Attempt:
    """A Dask task: run `job` on this worker's pool (registered under the name `plugin`)."""
    owner = get_worker().plugins.get(plugin)
    pool = getattr(owner, "pool", None)
    if pool is None:
        return Attempt("lost", message=f"dask: worker {get_worker().address} has no job pool {plugin!r}")
    return pool.run(job)


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
    return max(1, sum(client.nthreads().values()))


def run_dask(
    jobs: Sequence[Job], config: WorkerConfig, client: Client, check_stop: Callable[[], None], *, isolate: bool = False
) -> Iterator[tuple[Job, Attempt]]:
    """Run jobs on the cluster of `client`; yield each with its attempt as it ends.
    `check_stop` raises to stop early; the workers' job processes are stopped either way."""
    name = f"kakuro-compare-{uuid.uuid4().hex}"
    futures: dict[Any, Job] = {}
    try:
        try:
            client.register_plugin(JobPoolPlugin(config, isolate), name=name)
        except Exception as exc:
            raise KakuroError(f"the Dask workers could not start their job processes: {exc}") from None
        futures = {client.submit(run_on_worker, job, name, pure=False): job for job in jobs}
        pending = list(futures)
        while pending:
            check_stop()
            try:
                done, not_done = dask_wait(pending, timeout=0.2, return_when="FIRST_COMPLETED")
            except TimeoutError:
                continue
            pending = list(not_done)
            for future in done:
                job = futures.pop(future)
                try:
                    attempt = future.result()
                except Exception as exc:  # the Dask worker itself died, or the task failed
                    attempt = Attempt("lost", message=f"dask: {type(exc).__name__}: {exc}")
                yield job, attempt
    finally:
        with contextlib.suppress(Exception):
            client.cancel(list(futures))
        with contextlib.suppress(Exception):
            client.unregister_worker_plugin(name)
