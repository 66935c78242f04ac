"""The worker side of the harness: a process that is set up once (`start_worker`) and then
runs jobs one at a time (`run_job`), answering each with a typed `Reply`.

Set-up makes SIGTERM immediate, leads a process group (so a kill takes the backend's own
children too), sends stdout to /dev/null, imports the `--import` modules, warms up every
backend once (JIT compilation, engine import: paid before any clock starts), then sets the
memory limit. A reply is trusted by no one: the parent checks every answer itself.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import math
import os
import pickle
import platform
import signal
import socket
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kakuro.compare.jobs import Job
from kakuro.errors import KakuroError
from kakuro.solver import Solver, Stat, Status, backend_class, get_solver

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
    """Address-space limit (RLIMIT_AS) in MiB; it includes the imported engines."""
    sys_path: tuple[str, ...] = ()
    """Folders put in front of sys.path before the imports (the parent's working folder)."""


@dataclass(frozen=True)
class Reply:
    """A worker's answer to one job. Times are seconds, memory MiB."""

    status: Status
    values: tuple[Any, ...] | None = None
    """The solution's cell values when `status` is SOLVED (unchecked: the parent checks)."""
    time: float = 0.0
    """The backend's own time (`Result.time`)."""
    wall: float = 0.0
    """Seconds in the worker: the solve call and what surrounds it."""
    stats: Mapping[str, Stat] = field(default_factory=dict)
    message: str = ""
    memout: bool = False
    """True when the job ran out of memory (a MemoryError under the limit)."""
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
    baseline_mb: float | None = None


_state: _WorkerState | None = None


def import_user_module(name: str) -> Any:
    """Import `name`: a dotted module name, or the path of a .py file (imported under a
    name derived from its path). Re-importing the same file returns the loaded module."""
    path = Path(name)
    if name.endswith(".py") or os.sep in name:
        if not path.is_file():
            raise KakuroError(f"--import {name}: no such file")
        resolved = path.resolve()
        module_name = "_kakuro_import_" + "".join(c if c.isalnum() else "_" for c in str(resolved))
        if module_name in sys.modules:
            return sys.modules[module_name]
        spec = importlib.util.spec_from_file_location(module_name, resolved)
        if spec is None or spec.loader is None:
            raise KakuroError(f"--import {name}: cannot be loaded as a module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[module_name]
            raise
        return module
    return importlib.import_module(name)


def load_imports(config: WorkerConfig) -> str:
    """Put `config.sys_path` on sys.path and import the `--import` modules in this process.
    Returns the first failure ("" when none); never raises."""
    for folder in reversed(config.sys_path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    for name in config.imports:
        try:
            import_user_module(name)
        except BaseException as exc:  # a user module may even call sys.exit
            return f"--import {name} failed in the worker: {type(exc).__name__}: {exc}"
    return ""


def warm_up(config: WorkerConfig) -> None:
    """Import and warm up every backend in this process, ignoring failures (the workers
    report them with their jobs). A process that forks its workers calls this first, so each
    worker, and each replacement of a killed one, starts with the engines loaded and compiled."""
    if load_imports(config):
        return
    for spec in config.backends:
        with contextlib.suppress(Exception):
            get_solver(spec).ensure_warm()


def start_worker(config: WorkerConfig) -> None:
    """Pool initializer: set up this process to run jobs (see the module docstring)."""
    global _state
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        os.setpgid(0, 0)
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    state = _WorkerState(config, machine=machine_info())
    import_failure = load_imports(config)
    for spec in config.backends:
        if import_failure:
            state.failures[spec] = import_failure
            continue
        try:
            solver = get_solver(spec)
            solver.ensure_warm()
            state.solvers[spec] = solver
            state.versions[spec] = versions(spec)
        except Exception as exc:
            state.failures[spec] = f"warm-up failed: {type(exc).__name__}: {exc}"
    if resource is not None:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash must not dump GBs
        if config.memory_mb is not None:
            _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            limit = config.memory_mb * 2**20
            if hard != resource.RLIM_INFINITY:
                limit = min(limit, hard)
            with contextlib.suppress(ValueError, OSError):
                resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    state.baseline_mb = vms_mb(os.getpid())
    _state = state


def run_job(job: Job) -> Reply:
    """Solve one job in a worker set up by `start_worker`."""
    state = _state
    if state is None:
        raise KakuroError("run_job runs in a worker set up by start_worker; use a runner of kakuro.compare.runners")
    start = time.perf_counter()
    spec = job.backend.spec
    solver = state.solvers.get(spec)
    common = {"versions": state.versions.get(spec, {}), "machine": state.machine, "pid": os.getpid()}
    if solver is None:
        message = state.failures.get(spec, f"backend {job.backend.label!r} was not warmed up in this worker")
        return Reply(Status.ERROR, message=message, wall=time.perf_counter() - start, **common)
    before_mb = vms_mb(os.getpid()) if state.config.memory_mb is not None else None
    _reset_peak_rss()
    outcome: dict[str, Any]
    try:
        result = solver.solve(job.instance.puzzle, time_limit=job.limits.time_limit, seed=job.seed)
        values = getattr(result.solution, "values", None)
        outcome = {
            "status": result.status,
            "values": None if values is None else tuple(_plain(v) for v in values),
            "time": float(result.time),
            "stats": {str(k): _plain(v) for k, v in dict(result.stats).items()},
            "message": str(result.message),
            "memout": result.status is Status.ERROR and _is_memory_error(str(result.message)),
        }
    except MemoryError as exc:
        outcome = {"status": Status.ERROR, "memout": True, "message": f"MemoryError: {exc}"}
    except Exception as exc:
        outcome = {"status": Status.ERROR, "message": f"{type(exc).__name__}: {exc}"}
    if outcome.get("memout") and state.config.memory_mb is not None:
        outcome["message"] += (
            f" (limit {state.config.memory_mb} MiB of address space; the worker had {before_mb or 0:.0f} MiB"
            f" before this job, {state.baseline_mb or 0:.0f} MiB after loading the backends)"
        )
    return Reply(**outcome, wall=time.perf_counter() - start, peak_rss_mb=_peak_rss_mb(), **common)


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
    """A JSON-safe scalar (numpy numbers become int/float; anything else its str)."""
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    for kind in (int, float):
        try:
            converted = kind(value)
        except (TypeError, ValueError):
            continue
        if converted == value:
            return _plain(converted)
    return str(value)


def _reset_peak_rss() -> None:
    """Reset the kernel's peak-RSS mark (Linux), so the next reading is this job's peak."""
    with contextlib.suppress(OSError):
        with open("/proc/self/clear_refs", "w") as stream:
            stream.write("5")


def _peak_rss_mb() -> float | None:
    """Peak resident memory in MiB: since the last reset (Linux), else of the process."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/status") as stream:
            for line in stream:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    if resource is not None:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return round(peak / (2**20 if sys.platform == "darwin" else 1024), 1)
    return None


def vms_mb(pid: int) -> float | None:
    """Address space of process `pid` in MiB (None if it cannot be read)."""
    import psutil

    try:
        return round(psutil.Process(pid).memory_info().vms / 2**20, 1)
    except (psutil.Error, OSError):
        return None


def machine_info() -> dict[str, Any]:
    """Where a job ran: hostname, logical CPUs, platform, processor."""
    return {
        "hostname": socket.gethostname(),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def versions(spec: str) -> dict[str, str]:
    """kakuro, Python and engine versions for a backend spec."""
    from kakuro import __version__

    cls = backend_class(spec.partition(":")[0].strip())
    engine = "built-in"
    if cls.engine is not None:
        try:
            engine = f"{cls.engine.pip} {cls.engine.version()}"
        except KakuroError:
            engine = f"{cls.engine.pip} unavailable"
    return {"kakuro": __version__, "python": platform.python_version(), "engine": engine}
