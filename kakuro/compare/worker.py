"""The worker side of the harness: what a process does to run jobs, set up once (`prepare`:
the `--import` modules imported and every backend warmed up, JIT compilation and engine
import paid before any clock starts) and then job after job (`run_job`), answering each with a
typed `Reply`. The processes themselves (the spawner that prepares once and forks warm
workers, their signals and process groups) are `kakuro.compare.spawner`'s; limits are enforced
from outside, by the pool (`kakuro.compare.runners`).

A job always ends with a `Reply`, whatever the backend does: any exception, even one that is
not an `Exception` (SystemExit, KeyboardInterrupt), is that job's ERROR; a reported time that is
not a number between 0 and the call's own duration is replaced by the worker's clock; values
are passed on as they came (never rounded: the parent checks every answer itself); messages
and stats are cut to a bounded size.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import os
import pickle
import platform
import socket
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kakuro.compare.jobs import Job
from kakuro.errors import KakuroError
from kakuro.outcome import Result, Stat, Status
from kakuro.puzzle import shown
from kakuro.records.record import clipped, is_non_negative
from kakuro.registry import get_solver, import_plugins
from kakuro.solver import Solver

try:  # POSIX only; the harness degrades (no memory limit) without it
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]


@dataclass(frozen=True)
class WorkerConfig:
    """What every worker process does once before its first job."""

    backends: tuple[str, ...]
    """Full specs (`Backend.spec`) of the backends to warm up."""
    imports: tuple[str, ...] = ()
    """Modules (dotted names or .py paths) to import first, e.g. to register backends."""
    memory_mb: int | None = None
    """Resident memory a job may add to its worker, in MiB (`kakuro.compare.watch`)."""
    sys_path: tuple[str, ...] = ()
    """Folders put in front of sys.path before the imports (the parent's working folder)."""
    warm_up_limit: float = 300.0
    """Seconds the imports, and each backend's warm-up, may take in the pool's spawner; one
    that takes longer is stopped, and each job of that backend ends at once saying so."""


@dataclass(frozen=True)
class Reply:
    """A worker's answer to one job. Times are seconds, memory MiB."""

    status: Status
    values: tuple[Any, ...] | None = None
    """The solution's cell values when `status` is SOLVED, the rejected ones when it is WRONG
    (`Result.rejected`); unchecked either way: the parent checks them itself."""
    time: float = 0.0
    """The backend's own time (`Result.time`), or the worker's clock when that is not a
    number between 0 and the duration of the solve call."""
    wall: float = 0.0
    """Seconds in the worker: the solve call and what surrounds it."""
    stats: Mapping[str, Stat] = field(default_factory=dict)
    message: str = ""
    memout: bool = False
    """True when the job ran out of memory (a MemoryError)."""
    stopped_by: str | None = None
    """What stopped an UNKNOWN answer (`Result.stopped_by`: "time", or a budget's name)."""
    peak_rss_mb: float | None = None
    pid: int = 0
    versions: Mapping[str, str] = field(default_factory=dict)
    machine: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class _WorkerState:
    config: WorkerConfig
    solvers: dict[str, Solver] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)
    versions: dict[str, dict[str, str]] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)


_state: _WorkerState | None = None
MAX_STATS = 100
"""Stats a reply carries at the most."""


def load_imports(config: WorkerConfig) -> str:
    """Put `config.sys_path` on sys.path and import the `--import` modules in this process.
    Returns the first failure ("" when none); never raises."""
    for folder in reversed(config.sys_path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        import_plugins(config.imports)
    except KakuroError as exc:  # whatever the module raised, named
        return f"{exc} (in the worker)"
    return ""


def prepare(config: WorkerConfig, warming: Callable[[str], None] = lambda spec: None) -> None:
    """Set this process up to run jobs (`run_job`): import the `--import` modules, then import
    and warm up every backend once, calling `warming(spec)` before each ("" before the
    imports). A backend whose warm-up raises (even SystemExit) is kept with its reason: each of
    its jobs is an ERROR saying it. The pool's spawner (`kakuro.compare.spawner`) calls this,
    and the workers it forks inherit what it did."""
    global _state
    state = _WorkerState(config, machine=machine_info())
    warming("")
    import_failure = load_imports(config)
    for spec in config.backends:
        if import_failure:
            state.failures[spec] = import_failure
            continue
        warming(spec)
        try:
            solver = get_solver(spec)
            solver.ensure_warm()
            state.solvers[spec] = solver
            state.versions[spec] = versions(spec)
        except BaseException as exc:  # a backend may even raise SystemExit while warming up
            state.failures[spec] = clipped(f"warm-up failed: {described(exc)}")
    _state = state


def run_job(job: Job) -> Reply:
    """Solve one job in a worker set up by `start_worker`. Never raises for anything the
    backend does (see the module docstring)."""
    state = _state
    if state is None:
        raise KakuroError("run_job runs in a worker set up by prepare; use a runner of kakuro.compare.runners")
    start = time.perf_counter()
    spec = job.backend.spec
    solver = state.solvers.get(spec)
    common: dict[str, Any] = {"versions": state.versions.get(spec, {}), "machine": state.machine, "pid": os.getpid()}
    if solver is None:
        message = state.failures.get(spec, f"backend {job.backend.label!r} was not warmed up in this worker")
        return Reply(Status.ERROR, message=message, wall=time.perf_counter() - start, **common)
    _reset_peak_rss()
    outcome = _outcome(lambda: solver.solve(job.instance.puzzle, time_limit=job.limits.time_limit, seed=job.seed,
                                            budget=job.limits.budget))
    return Reply(**outcome, wall=time.perf_counter() - start, peak_rss_mb=_peak_rss_mb(), **common)


def _outcome(solve: Callable[[], Any]) -> dict[str, Any]:
    """The Reply fields of one solve call, checked: whatever `solve` raises or returns."""
    called = time.perf_counter()
    try:
        result = solve()
        seconds = time.perf_counter() - called
        if not isinstance(result, Result):
            return {"status": Status.ERROR, "message": f"the backend returned {type(result).__name__}, not a Result"}
        if not isinstance(result.status, Status):
            return {"status": Status.ERROR, "message": clipped(f"the backend answered an unknown status {result.status!r}")}
        values = getattr(result.solution, "values", None)
        if result.status is Status.WRONG:  # the rejected values, for the parent to check (None if unusable)
            values = result.rejected if isinstance(result.rejected, tuple) else None
        reported, note = trusted_time(result.time, seconds)
        message = clipped(plain_text(result.message) + note)
        return {
            "status": result.status,
            "values": None if values is None else tuple(_plain(v) for v in values),
            "time": reported,
            "stats": _plain_stats(result.stats),
            "message": message,
            "memout": result.status is Status.ERROR and _is_memory_error(message),
            "stopped_by": result.stopped_by if isinstance(result.stopped_by, str) else None,
        }
    except MemoryError as exc:
        return {"status": Status.ERROR, "memout": True, "message": clipped(described(exc))}
    except BaseException as exc:  # SystemExit, KeyboardInterrupt (workers ignore SIGINT: a backend raised it)
        return {"status": Status.ERROR, "message": clipped(f"the backend raised {described(exc)}"),
                "time": time.perf_counter() - called}


def trusted_time(reported: Any, measured: float) -> tuple[float, str]:
    """The backend's own time when it is a number from 0 to `measured` (the seconds the solve
    call took, which contain it), else `measured`; and a note for the message when replaced."""
    if is_non_negative(reported) and reported <= measured:
        return float(reported), ""
    return measured, f" (the backend reported a time of {plain_text(reported)[:40]} s; the harness's clock is used)"


def described(exc: BaseException) -> str:
    """`Type: text` of an exception, even one whose text cannot be made."""
    return f"{type(exc).__name__}: {plain_text(exc)}".rstrip(": ")


def plain_text(value: Any) -> str:
    """`str(value)`, or a placeholder when that fails."""
    try:
        return str(value)
    except Exception:
        return f"<a {type(value).__name__} that cannot be shown>"


def run_pickled_job(payload: bytes) -> Reply:
    """`run_job` of a pickled Job: a runner that only passes jobs on (a Dask worker) hands the
    bytes over as they came, instead of rebuilding and pickling the puzzle once more."""
    job = pickle.loads(payload)
    if not isinstance(job, Job):
        raise KakuroError(f"run_pickled_job expects a pickled Job, not {type(job).__name__}")
    return run_job(job)


def _is_memory_error(message: str) -> bool:
    """True for the template method's message of a caught MemoryError (or subclass, such as
    numpy's `_ArrayMemoryError`): `<exception class name>: <text>`."""
    return message.partition(":")[0].strip().endswith("MemoryError")


def _plain(value: Any) -> Any:
    """A JSON-safe scalar: numpy integers become int and numpy floats float, a non-finite
    float its text, anything else its (clipped) text. Nothing is rounded: 3.0 stays a float."""
    if isinstance(value, str):
        return clipped(value)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else str(number)
    if type(value).__name__ == "bool_":  # numpy's bool
        return bool(value)
    return clipped(plain_text(value))


def _plain_stats(stats: Any) -> dict[str, Any]:
    """The first `MAX_STATS` stats with plain keys and values; {} when `stats` is no mapping.
    An int stat outside the signed 64-bit range becomes text (JSON readers other than Python
    lose such ints, and past 4,300 digits Python cannot even write one): its digits when it
    has at most `MAX_STAT_BITS` bits, else its size, `"<int of 5000 digits>"`.
    A NaN or infinity is text too (`_plain`): every value stays valid JSON, the job recorded."""
    try:
        items = list(dict(stats).items())[:MAX_STATS]
    except Exception:
        return {}
    return {clipped(plain_text(k)): _plain(_stat_int(v)) for k, v in items}


MAX_STAT_BITS = 128
"""Bits (39 digits) of an int stat beyond 64 bits still written out in full, as text."""


def _stat_int(value: Any) -> Any:
    """`value`, or the text of an int beyond the signed 64-bit range (see `_plain_stats`):
    its digits up to `MAX_STAT_BITS` bits, else its size in words (`kakuro.puzzle.shown`)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        return value
    number = int(value)
    if -(2**63) <= number < 2**63:
        return value
    return str(number) if abs(number).bit_length() <= MAX_STAT_BITS else shown(number)


def _reset_peak_rss() -> None:
    """Reset the kernel's peak-RSS mark (Linux), so the next reading is this job's peak."""
    with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as stream:
        stream.write("5")


def _peak_rss_mb() -> float | None:
    """Peak resident memory in MiB: since the last reset (Linux), else of the process."""
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/status") as stream:
        for line in stream:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    if resource is not None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (2**20 if sys.platform == "darwin" else 1024), 1)
    return None


def machine_info() -> dict[str, Any]:
    """Where a job ran: hostname, CPU model, logical CPUs (`cpus`) and physical cores
    (`cores`), memory (`memory_mb`, MiB), the 1, 5 and 15 minute load averages (`load`) when
    the worker started, platform and processor. A value the system does not give is None."""
    import psutil

    model = None
    # Linux names the model here; platform.processor() often is ""
    with contextlib.suppress(OSError), open("/proc/cpuinfo", encoding="utf-8", errors="replace") as stream:
        model = next((line.split(":", 1)[1].strip() for line in stream if line.startswith("model name")), None)
    load = None
    with contextlib.suppress(OSError, AttributeError):  # no load average on Windows
        load = [round(value, 2) for value in os.getloadavg()]
    return {
        "hostname": socket.gethostname(),
        "cpu_model": model or platform.processor() or None,
        "cpus": os.cpu_count(),
        "cores": psutil.cpu_count(logical=False),
        "memory_mb": psutil.virtual_memory().total // 2**20,
        "load": load,
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def versions(spec: str) -> dict[str, str]:
    """kakuro, Python and engine versions for a backend spec, and the backend's paradigm."""
    from kakuro import __version__

    solver = get_solver(spec)
    needed = solver.engine_for(solver.settings)
    engine = "built-in"
    if needed is not None:
        try:
            engine = f"{needed.pip} {needed.version()}"
        except KakuroError:
            engine = f"{needed.pip} unavailable"
    return {"kakuro": __version__, "python": platform.python_version(), "engine": engine, "paradigm": solver.paradigm}
