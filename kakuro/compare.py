"""Head-to-head comparison of backends: jobs, isolation, limits, verification, results file.

    python -m kakuro.compare instances/ -b cpsat -b fc --time-limit 10 -j 2

Every (instance, backend, repeat) is one *job*. Jobs run in a pool of long-lived worker
processes (pebble's `ProcessPool`): each worker imports the `--import` modules, calls
`warm_up()` of every backend used once, sets the memory limit (`RLIMIT_AS`), then runs jobs
one at a time. A job still running `time_limit + grace` seconds after it started has its
worker killed (SIGTERM, whose default action is immediate, then SIGKILL; the worker is a
process-group leader and the group is killed too) and a fresh worker takes its place.

The parent trusts no backend: a solution travels back as the list of cell values and the
parent rebuilds it and runs `puzzle.check`. Statuses (`JobStatus`):

    SOLVED   a solution that passed the parent's check
    UNSAT    the backend proved unsatisfiability (and nothing contradicts it)
    TIMEOUT  killed at the wall-clock limit, or the backend answered UNKNOWN (its limit was
             reached or an incomplete search gave up; the message says which)
    MEMOUT   a MemoryError under the memory limit, or a worker death near it
    CRASH    the worker died (abort, segfault, ...) or the harness lost the job
    ERROR    the backend reported an error
    WRONG    the checker rejected the solution, or an UNSAT claim on a puzzle that has a
             verified solution (from another backend in the same results file, or from the
             puzzle file itself). Marked when the record is written if the solution is
             already known; `kakuro.report` recomputes it over the whole file in any case.

Results are one JSON object per line, appended, flushed and fsync'd the moment a job ends; an
existing file is never overwritten. `--resume -o FILE` skips jobs already recorded with a
final status (anything but CRASH) and re-runs crashed ones; readers use the last record per
job (`record_key`). Ctrl-C or SIGTERM stop cleanly: running jobs are dropped, the file stays
valid and a summary of what finished is printed.

`--dask ADDRESS` (or `--dask local`) runs the same jobs on a Dask cluster: each Dask task runs
its job in a fresh child process (`run_isolated`) with the same limits.

Exit status: 0 when every job ran, 1 for bad input (or a results file it will not touch),
2 for a usage error, 3 when any result is WRONG, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import enum
import importlib
import importlib.util
import json
import math
import multiprocessing
import os
import pickle
import platform
import select
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from kakuro.errors import InvalidSolutionError, KakuroError
from kakuro.formats import FORMATS, read
from kakuro.puzzle import Puzzle, Solution
from kakuro.solver import Status, backend_class, backend_info, backends, get_solver

try:  # POSIX only; the harness degrades (no memory limit) without it
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a backend gets per job unless `--time-limit` says otherwise."""
DEFAULT_GRACE = 1.0
"""Seconds a job may run past its time limit before its worker is killed."""
DEFAULT_BACKENDS = ("cpsat", "fc", "gac", "sat")
"""The default set: cpsat plus those of the others that are registered and available."""
SCHEMA = 1
"""Version of the result-record layout."""
KEY_FIELDS = ("source", "index", "digest", "backend", "seed", "repeat")
"""The fields that identify a job in a results file."""
MEMOUT_FRACTION = 0.9
"""A worker that dies with at least this share of its memory limit in use is MEMOUT."""
STARTUP_LIMIT = 300.0
"""Seconds an isolated child process (Dask) may take to import and warm up."""
_SAMPLE_EVERY = 0.25
"""Seconds between two samples of the workers' memory (parent side)."""


class JobStatus(str, enum.Enum):
    """How a job ended, as the parent verified it (see the module docstring)."""

    SOLVED = "SOLVED"
    UNSAT = "UNSAT"
    TIMEOUT = "TIMEOUT"
    MEMOUT = "MEMOUT"
    CRASH = "CRASH"
    ERROR = "ERROR"
    WRONG = "WRONG"


ANSWERED = frozenset({JobStatus.SOLVED.value, JobStatus.UNSAT.value})
"""Statuses that count as a correct answer (PAR-2, cactus plots)."""
FINAL = frozenset(s.value for s in JobStatus) - {JobStatus.CRASH.value}
"""Statuses `--resume` does not re-run."""


# --------------------------------------------------------------------- instances and jobs
@dataclass(frozen=True)
class Instance:
    """One puzzle of the campaign: `index` is its 0-based position in `source`."""

    source: str
    index: int
    puzzle: Puzzle

    @property
    def name(self) -> str:
        """The puzzle's id, or `<file stem>#<1-based position>`."""
        return self.puzzle.id or f"{Path(self.source).stem}#{self.index + 1}"


@dataclass(frozen=True)
class Job:
    """One (instance, backend, repeat) run, with the puzzle in picklable form."""

    instance: str
    source: str
    index: int
    digest: str
    backend: str
    seed: int
    repeat: int
    time_limit: float
    grace: float
    memory_mb: int | None
    grid: tuple[tuple[Any, ...], ...]
    values: tuple[int, int]
    puzzle_id: str | None

    @property
    def key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in KEY_FIELDS)

    def puzzle(self) -> Puzzle:
        """Rebuild the puzzle (Puzzle itself does not pickle)."""
        return Puzzle.from_grid(self.grid, values=self.values, id=self.puzzle_id)


def record_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """The job a results record belongs to (same tuple as `Job.key`)."""
    return tuple(record.get(name) for name in KEY_FIELDS)


def puzzle_extensions() -> frozenset[str]:
    """File extensions of every known puzzle format (folders are walked for these)."""
    return frozenset(ext for module in FORMATS.values() for ext in module.EXTENSIONS)


def collect(
    paths: Sequence[str | os.PathLike[str]],
    *,
    skip_bad: bool = False,
    warn: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> list[Instance]:
    """Every puzzle in the given files and folders (walked recursively, in sorted order, for
    files with a known puzzle extension; hidden files and folders are skipped).

    A file that fails to parse raises KakuroError listing every such file with its
    PuzzleFormatError (file:line:column), before any job starts; with `skip_bad` a bad puzzle
    (a JSON line, a text block, ...) is skipped with a warning, and so is a file that cannot
    be read at all.
    """
    extensions = puzzle_extensions()
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = [
                p
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and p.suffix.lower() in extensions
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ]
            if not found:
                warn(f"warning: {path}: no puzzle files ({', '.join(sorted(extensions))}) in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise KakuroError(f"{path}: no such file or folder")
    instances: list[Instance] = []
    problems: list[str] = []
    seen: set[Path] = set()
    for path in files:
        if path.resolve() in seen:
            continue
        seen.add(path.resolve())
        try:
            puzzles = read(path, skip_bad=(lambda error: warn(f"warning: skipped {error}")) if skip_bad else False)
        except KakuroError as exc:
            problems.append(str(exc) if str(path) in str(exc) else f"{path}: {exc}")
            continue
        instances.extend(Instance(str(path), i, p) for i, p in enumerate(puzzles))
    if problems:
        if not skip_bad:
            listing = "\n  ".join(problems)
            raise KakuroError(f"cannot read {len(problems)} file(s); fix them or pass --skip-bad:\n  {listing}")
        for problem in problems:
            warn(f"warning: skipped {problem}")
    if not instances:
        raise KakuroError("no puzzles found in " + ", ".join(map(str, paths)))
    return instances


def default_backends() -> list[str]:
    """`cpsat` plus whichever of `fc`, `gac`, `sat` are registered and available."""
    available = {info.name for info in backend_info() if info.available}
    return [name for name in DEFAULT_BACKENDS if name in available]


def resolve_backends(specs: Sequence[str]) -> list[str]:
    """Canonical spec strings for `specs` (empty: the default set; `all`: every available
    backend). Raises UnknownBackendError, BackendOptionError or BackendUnavailableError."""
    resolved: list[str] = []
    for spec in specs or default_backends():
        if spec.strip() == "all":
            resolved.extend(info.name for info in backend_info() if info.available)
            continue
        solver = get_solver(spec)
        if solver.engine is not None:
            solver.engine.version()
        resolved.append(solver.spec)
    if not resolved:
        raise KakuroError(f"no backend is available; registered: {', '.join(backends()) or 'none'}")
    return list(dict.fromkeys(resolved))


def make_jobs(
    instances: Sequence[Instance],
    specs: Sequence[str],
    *,
    repeat: int = 1,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    grace: float = DEFAULT_GRACE,
    memory_mb: int | None = None,
) -> list[Job]:
    """Every (instance, backend, repeat) job; repeat r uses seed `seed + r`, the same for
    every backend and instance, so runs are reproducible and comparable."""
    jobs = []
    for r in range(repeat):
        for inst in instances:
            p = inst.puzzle
            grid = tuple(tuple(tuple(c) if isinstance(c, list) else c for c in row) for row in p.to_grid())
            for spec in specs:
                jobs.append(
                    Job(inst.name, inst.source, inst.index, p.digest(), spec, seed + r, r,
                        float(time_limit), float(grace), memory_mb, grid, p.values, p.id)
                )
    return jobs


# --------------------------------------------------------------------- worker side
@dataclass(frozen=True)
class WorkerConfig:
    """What every worker process does once before its first job."""

    backends: tuple[str, ...]
    imports: tuple[str, ...] = ()
    memory_mb: int | None = None
    """Address-space limit (RLIMIT_AS) in MiB; it includes the imported engines."""
    sys_path: tuple[str, ...] = ()
    """Folders put in front of sys.path before the imports (the parent's working folder)."""


@dataclass
class _WorkerState:
    config: WorkerConfig
    solvers: dict[str, Any] = field(default_factory=dict)
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


def _init_worker(config: WorkerConfig) -> None:
    """Pool initializer (also run by isolated children): make SIGTERM immediate, lead a
    process group, send stdout to /dev/null, import, warm up each backend once, then set the
    memory limit. Never raises: a failure is reported by the jobs it concerns."""
    global _state
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        os.setpgid(0, 0)
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    for folder in reversed(config.sys_path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    state = _WorkerState(config, machine=machine_info())
    import_failure = ""
    for name in config.imports:
        try:
            import_user_module(name)
        except BaseException as exc:  # a user module may even call sys.exit
            import_failure = f"--import {name} failed in the worker: {type(exc).__name__}: {exc}"
            break
    for spec in config.backends:
        if import_failure:
            state.failures[spec] = import_failure
            continue
        try:
            solver = get_solver(spec)
            type(solver).warm_up()
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
    state.baseline_mb = _vms_mb(os.getpid())
    _state = state


def _run_job(job: Job) -> dict[str, Any]:
    """Worker side: solve one job and return the raw reply (plain data, trusted by no one).

    Reply keys: status (a `kakuro.Status` value), values (list or None), time (backend
    seconds), wall (seconds in the worker, rebuild and solve), stats, message, memout,
    peak_rss_mb, versions, machine.
    """
    state = _state
    if state is None:
        raise KakuroError("_run_job runs in a worker set up by _init_worker; use run_campaign or run_isolated")
    start = time.perf_counter()
    reply: dict[str, Any] = {
        "status": Status.ERROR.value, "values": None, "time": 0.0, "stats": {}, "message": "",
        "memout": False, "versions": state.versions.get(job.backend, {}), "machine": state.machine,
        "pid": os.getpid(),
    }
    solver = state.solvers.get(job.backend)
    before_mb = _vms_mb(os.getpid()) if state.config.memory_mb is not None else None
    if solver is None:
        reply["message"] = state.failures.get(job.backend, f"backend {job.backend!r} was not warmed up in this worker")
    else:
        _reset_peak_rss()
        try:
            result = solver.solve(job.puzzle(), time_limit=job.time_limit, seed=job.seed)
            values = getattr(result.solution, "values", None)
            reply.update(
                status=getattr(result.status, "value", str(result.status)),
                values=None if values is None else [_plain(v) for v in values],
                time=float(result.time),
                stats={str(k): _plain(v) for k, v in dict(result.stats).items()},
                message=str(result.message),
                memout=result.status is Status.ERROR and _is_memory_error(str(result.message)),
            )
        except MemoryError as exc:
            reply.update(memout=True, message=f"MemoryError: {exc}")
        except Exception as exc:
            reply["message"] = f"{type(exc).__name__}: {exc}"
    if reply["memout"] and state.config.memory_mb is not None:
        reply["message"] += (
            f" (limit {state.config.memory_mb} MiB of address space; the worker had {before_mb or 0:.0f} MiB"
            f" before this job, {state.baseline_mb or 0:.0f} MiB after loading the backends)"
        )
    reply["wall"] = time.perf_counter() - start
    reply["peak_rss_mb"] = _peak_rss_mb()
    return reply


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


def _vms_mb(pid: int) -> float | None:
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


# --------------------------------------------------------------------- what the parent saw
@dataclass(frozen=True)
class Attempt:
    """How a job ended as the parent (or a Dask task) saw it: a `reply` from the worker,
    a `timeout` (killed at the wall-clock limit), a worker that `died` (exit code, last
    sampled address space in MiB), or `lost` (the harness failed; `message` says how)."""

    kind: Literal["reply", "timeout", "died", "lost"]
    reply: Mapping[str, Any] | None = None
    exitcode: int | None = None
    vms_mb: float | None = None
    message: str = ""


def verdict(job: Job, attempt: Attempt, puzzle: Puzzle, known: Mapping[str, str]) -> tuple[JobStatus, str]:
    """The status of a job and its message; `known` maps puzzle digests to who holds a
    verified solution (an UNSAT claim on those is WRONG)."""
    if attempt.kind == "timeout":
        return JobStatus.TIMEOUT, f"killed at the wall-clock limit ({job.time_limit:g} s + {job.grace:g} s grace)"
    if attempt.kind == "lost":
        return JobStatus.CRASH, attempt.message or "the harness lost this job"
    if attempt.kind == "died":
        how = _exit_text(attempt.exitcode)
        if job.memory_mb is not None and attempt.vms_mb is not None and attempt.vms_mb >= MEMOUT_FRACTION * job.memory_mb:
            return JobStatus.MEMOUT, f"the worker {how} using {attempt.vms_mb:.0f} MiB of its {job.memory_mb} MiB limit"
        return JobStatus.CRASH, f"the worker {how}" + (f": {attempt.message}" if attempt.message else "")
    reply = attempt.reply or {}
    status, message = reply.get("status"), str(reply.get("message", ""))
    if status == Status.SOLVED.value:
        try:
            problems = puzzle.check(Solution(puzzle, tuple(reply.get("values") or ())))
        except (InvalidSolutionError, TypeError, ValueError) as exc:
            problems = [str(exc)]
        if problems:
            return JobStatus.WRONG, "the checker rejected the solution: " + "; ".join(problems[:5])
        return JobStatus.SOLVED, message
    if status == Status.UNSATISFIABLE.value:
        if job.digest in known:
            return JobStatus.WRONG, f"claimed unsatisfiable, but {known[job.digest]} has a verified solution"
        return JobStatus.UNSAT, message
    if status == Status.UNKNOWN.value:
        return JobStatus.TIMEOUT, message or "the backend stopped without an answer"
    if reply.get("memout"):
        return JobStatus.MEMOUT, message
    if status == Status.ERROR.value:
        return JobStatus.ERROR, message
    return JobStatus.ERROR, f"the backend answered an unknown status {status!r}"


def _exit_text(code: int | None) -> str:
    if code is None:
        return "died"
    if code < 0:
        try:
            return f"died of {signal.Signals(-code).name}"
        except ValueError:
            return f"died of signal {-code}"
    return f"exited with code {code}"


def make_record(job: Job, attempt: Attempt, status: JobStatus, message: str, fallback: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON line for a finished job. `fallback` holds `versions` (per backend) and
    `machine` for jobs whose worker sent no reply."""
    reply = attempt.reply or {}
    killed = attempt.kind == "timeout"
    return {
        "schema": SCHEMA,
        "instance": job.instance,
        "source": job.source,
        "index": job.index,
        "digest": job.digest,
        "rows": len(job.grid),
        "cols": len(job.grid[0]) if job.grid else 0,
        "backend": job.backend,
        "seed": job.seed,
        "repeat": job.repeat,
        "status": status.value,
        "time": reply.get("time") if attempt.kind == "reply" else None,
        "wall": reply.get("wall") if attempt.kind == "reply" else (job.time_limit + job.grace if killed else None),
        "time_limit": job.time_limit,
        "grace": job.grace,
        "memory_limit_mb": job.memory_mb,
        "peak_rss_mb": reply.get("peak_rss_mb"),
        "stats": dict(reply.get("stats") or {}),
        "message": message,
        "finished": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="microseconds"),
        "versions": dict(reply.get("versions") or fallback["versions"].get(job.backend, {})),
        "machine": dict(reply.get("machine") or fallback["machine"]),
    }


# --------------------------------------------------------------------- results file
def read_results(path: str | os.PathLike[str], *, warn: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Every record of a results file in order. A line that is not a JSON object (e.g. torn
    by a killed writer) is skipped, reported through `warn` as `file:line: ...`."""
    records: list[dict[str, Any]] = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise KakuroError(f"{path}: no such results file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KakuroError(f"{path}: cannot be read: {exc}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            record = None
            reason = f"not JSON ({exc.msg})"
        else:
            reason = "not a result record"
        if not isinstance(record, dict) or "status" not in record or "backend" not in record:
            if warn is not None:
                warn(f"{path}:{number}: {reason}; line skipped")
            continue
        records.append(record)
    return records


def latest(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The last record of each job (a re-run after a crash replaces the earlier one)."""
    last: dict[tuple[Any, ...], dict[str, Any]] = {}
    for record in records:
        key = record_key(record)
        last.pop(key, None)  # keep the order of the latest records
        last[key] = dict(record)
    return list(last.values())


class ResultsFile:
    """An append-only JSON-lines file: `append` writes one line with one write call, then
    flushes it to disk (fsync). Creating refuses an existing file; `resume` appends to it."""

    def __init__(self, path: str | os.PathLike[str], *, resume: bool = False) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
        if not resume:
            flags |= os.O_EXCL
        try:
            self._fd: int | None = os.open(self.path, flags, 0o644)
        except FileExistsError:
            raise KakuroError(
                f"{self.path} already exists and is never overwritten; pass --resume to continue it, or choose another -o"
            ) from None
        except OSError as exc:
            raise KakuroError(f"{self.path}: cannot be opened for writing: {exc.strerror}") from None
        if resume and self.path.stat().st_size:
            with open(self.path, "rb") as stream:
                stream.seek(-1, os.SEEK_END)
                if stream.read(1) != b"\n":  # a line torn by a killed writer stays on its own
                    self._write(b"\n")

    def append(self, record: Mapping[str, Any]) -> None:
        """Write one record as one line and make it durable before returning."""
        self._write((json.dumps(record, allow_nan=False, default=str) + "\n").encode())

    def _write(self, data: bytes) -> None:
        if self._fd is None:
            raise KakuroError(f"{self.path} is closed")
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> ResultsFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def default_results_path(folder: str | os.PathLike[str] = "results") -> Path:
    """A new `results/compare-YYYYMMDD-HHMMSS[-n].jsonl` that does not exist yet."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = Path(folder) / f"compare-{stamp}.jsonl"
    candidate, n = base, 1
    while candidate.exists():
        n += 1
        candidate = base.with_name(f"compare-{stamp}-{n}.jsonl")
    return candidate


# --------------------------------------------------------------------- running jobs
class _Stop(Exception):
    """Raised in the parent when SIGINT or SIGTERM asked the campaign to stop."""


class _StopFlag:
    """SIGINT/SIGTERM handlers that only set a flag, so no write is ever cut in half."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _StopFlag:
        if _in_main_thread():
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def _handle(self, signum: int, frame: Any) -> None:
        self.requested = True

    def check(self) -> None:
        if self.requested:
            raise _Stop()

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


class _WorkerWatch:
    """Parent-side view of the pool's workers: their last sampled address space (for MEMOUT
    after a death) and their process groups (killed once their leader is gone)."""

    def __init__(self) -> None:
        self.vms: dict[int, float] = {}
        self.groups: set[int] = set()
        self._last = 0.0

    def sample(self) -> None:
        """Record the workers and their address space (at most every `_SAMPLE_EVERY` s)."""
        now = time.monotonic()
        if now - self._last < _SAMPLE_EVERY:
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


def _pool_context(config: WorkerConfig) -> Any:
    """`fork` where there is one, after warming the backends up in the parent, so a worker
    (and every replacement of a killed one) starts with the engines loaded and compiled;
    `spawn` elsewhere."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    for spec in config.backends:
        with contextlib.suppress(Exception):  # a worker reports the failure with its jobs
            type(get_solver(spec)).warm_up()
    return multiprocessing.get_context("fork")


def _local_attempts(
    jobs: Sequence[Job], config: WorkerConfig, workers: int, stop: _StopFlag, context: Any
) -> Iterator[tuple[Job, Attempt]]:
    """Run jobs on a pebble pool of `workers` long-lived processes; yield each as it ends."""
    import pebble

    watch = _WorkerWatch()
    pool = pebble.ProcessPool(max_workers=workers, initializer=_init_worker, initargs=(config,), context=context)
    finished = False
    try:
        futures = {pool.schedule(_run_job, (job,), timeout=job.time_limit + job.grace): job for job in jobs}
        pending = set(futures)
        while pending:
            stop.check()
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            watch.sample()
            for future in done:
                job = futures.pop(future)
                try:
                    attempt = Attempt("reply", future.result())
                    watch.job_done(attempt.reply["pid"])
                except TimeoutError:
                    attempt = Attempt("timeout")
                    watch.kill_orphaned_groups()
                except pebble.ProcessExpired as exc:
                    attempt = Attempt("died", exitcode=exc.exitcode, vms_mb=watch.vms.get(exc.pid))
                    watch.kill_orphaned_groups()
                except CancelledError:
                    attempt = Attempt("lost", message="cancelled")
                except Exception as exc:  # a broken pool or an unpicklable reply
                    attempt = Attempt("lost", message=f"{type(exc).__name__}: {exc}")
                yield job, attempt
        finished = True
    finally:
        if finished:
            pool.close()
        else:
            pool.stop()
        pool.join()
        watch.kill_orphaned_groups()


def run_isolated(job: Job, config: WorkerConfig) -> Attempt:
    """Run one job in a fresh child process with the same limits as a pool worker (used by
    Dask tasks, whose worker processes may not fork multiprocessing children)."""
    import psutil

    config = replace(config, backends=(job.backend,))
    code = "from kakuro.compare import _child_main; _child_main()"
    with tempfile.TemporaryFile() as errors:
        child = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
            start_new_session=True,
        )
        assert child.stdin is not None and child.stdout is not None
        try:
            child.stdin.write(pickle.dumps((config, job)))
            child.stdin.close()
        except BrokenPipeError:
            pass
        fd = child.stdout.fileno()
        data = bytearray()
        deadline = time.monotonic() + STARTUP_LIMIT
        started = False
        vms: float | None = None
        timed_out = False
        try:
            watched = psutil.Process(child.pid)
        except psutil.Error:
            watched = None
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = started
                break
            ready, _, _ = select.select([fd], [], [], min(left, _SAMPLE_EVERY))
            with contextlib.suppress(psutil.Error, AttributeError):
                vms = watched.memory_info().vms / 2**20  # type: ignore[union-attr]
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            data += chunk
            if not started and data[:1] == b"R":
                started = True
                deadline = time.monotonic() + job.time_limit + job.grace
        if not timed_out and started:
            with contextlib.suppress(subprocess.TimeoutExpired):  # it replied: let it exit by itself
                child.wait(timeout=STARTUP_LIMIT if not data[1:] else 10.0)
        if child.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(child.pid, signal.SIGTERM)
            try:
                child.wait(timeout=job.grace)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(child.pid, signal.SIGKILL)
                child.wait()
        else:
            with contextlib.suppress(OSError):  # leftovers of the child's group
                os.killpg(child.pid, signal.SIGKILL)
        child.stdout.close()
        if timed_out:
            return Attempt("timeout")
        if started and child.returncode == 0:
            try:
                return Attempt("reply", pickle.loads(bytes(data[1:])))
            except Exception as exc:
                return Attempt("lost", message=f"unreadable reply: {type(exc).__name__}: {exc}")
        errors.seek(0)
        tail = errors.read()[-400:].decode("utf-8", "replace").strip().splitlines()
        if not started and child.returncode is None:
            return Attempt("lost", message=f"the child did not start within {STARTUP_LIMIT:g} s")
        return Attempt("died", exitcode=child.returncode, vms_mb=vms, message=tail[-1] if tail else "")


def _child_main() -> None:
    """Entry point of an isolated child: (config, job) pickled on stdin; writes b"R" once
    ready, then the pickled reply, on the original stdout."""
    channel = os.fdopen(os.dup(1), "wb")
    config, job = pickle.load(sys.stdin.buffer)
    _init_worker(config)
    channel.write(b"R")
    channel.flush()
    reply = _run_job(job)
    channel.write(pickle.dumps(reply))
    channel.flush()
    channel.close()


def _dask_attempts(jobs: Sequence[Job], config: WorkerConfig, address: str, workers: int, stop: _StopFlag) -> Iterator[tuple[Job, Attempt]]:
    """Run jobs as Dask tasks (each in its own child process); yield each as it ends."""
    try:
        from distributed import Client, LocalCluster
        from distributed import wait as dask_wait
    except ImportError:
        raise KakuroError("--dask needs dask.distributed: pip install 'kakuro[dask]'") from None
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None)
    try:
        client = Client(cluster if cluster is not None else address)
    except Exception as exc:
        if cluster is not None:
            cluster.close()
        raise KakuroError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        futures = {client.submit(run_isolated, job, config, pure=False): job for job in jobs}
        pending = set(futures)
        while pending:
            stop.check()
            try:
                done, pending = dask_wait(list(pending), timeout=0.2, return_when="FIRST_COMPLETED")
            except TimeoutError:
                continue
            pending = set(pending)
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
        client.close()
        if cluster is not None:
            cluster.close()


@dataclass
class Campaign:
    """What a run did: jobs planned, skipped (already in the file), recorded now."""

    planned: int
    skipped: int
    recorded: int = 0
    solved: int = 0
    interrupted: bool = False


def run_campaign(
    jobs: Sequence[Job],
    puzzles: Mapping[tuple[str, int], Puzzle],
    config: WorkerConfig,
    results: ResultsFile,
    *,
    workers: int,
    known: dict[str, str] | None = None,
    dask: str | None = None,
    progress: bool = False,
    skipped: int = 0,
) -> Campaign:
    """Run `jobs`, verify each answer and append its record to `results` as it ends.
    `puzzles` maps (source, index) to the parent's own copy of each puzzle; `known` maps
    digests to the holder of a verified solution and grows as solutions come in.
    Stops early (interrupted=True) on SIGINT/SIGTERM; nothing half-written stays behind."""
    known = {} if known is None else known
    campaign = Campaign(len(jobs) + skipped, skipped)
    if not jobs:
        return campaign
    fallback = {"versions": {spec: versions(spec) for spec in config.backends}, "machine": machine_info()}
    try:
        context = None if dask else _pool_context(config)  # warm-up first: an engine may touch signal handlers
    except KeyboardInterrupt:
        campaign.interrupted = True
        return campaign
    bar = _progress(len(jobs), progress)
    with _StopFlag() as stop, bar as (advance):
        attempts = (
            _dask_attempts(jobs, config, dask, workers, stop) if dask
            else _local_attempts(jobs, config, workers, stop, context)
        )
        try:
            for job, attempt in attempts:
                puzzle = puzzles[(job.source, job.index)]
                status, message = verdict(job, attempt, puzzle, known)
                if status is JobStatus.SOLVED:
                    known.setdefault(job.digest, job.backend)
                    campaign.solved += 1
                results.append(make_record(job, attempt, status, message, fallback))
                campaign.recorded += 1
                advance(campaign.solved)
                stop.check()
        except (_Stop, KeyboardInterrupt):
            campaign.interrupted = True
        finally:
            attempts.close()
    return campaign


@contextlib.contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on stderr (jobs done, solved, ETA); a no-op when disabled."""
    if not enabled or total == 0:
        yield lambda solved: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    from rich.console import Console

    columns = (
        TextColumn("jobs"), BarColumn(), MofNCompleteColumn(), TextColumn("solved {task.fields[solved]}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("jobs", total=total, solved=0)
        yield lambda solved: bar.update(task, advance=1, solved=solved)


# --------------------------------------------------------------------- command line
def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number")
    return value


def _non_negative_float(text: str) -> float:
    if text.strip() in ("0", "0.0"):
        return 0.0
    return _positive_float(text)


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{text!r} must be at least {minimum}")
        return value

    return parse


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kakuro.compare",
        description="Run backends head to head on puzzle files and folders; every answer is verified by "
        "puzzle.check and each finished job is appended to a JSON-lines results file.",
        epilog="Statuses: SOLVED, UNSAT, TIMEOUT, MEMOUT, CRASH, ERROR, WRONG. Exit status: 0 done, 1 bad input, "
        "2 usage error, 3 some result is WRONG, 130 interrupted. Tables and plots from a results file: "
        "python -m kakuro.report FILE",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="puzzle files, or folders walked recursively for puzzle files")
    p.add_argument("-b", "--backend", action="append", default=[], metavar="SPEC",
                   help="backend spec such as cpsat or nmcs:level=2 (repeatable); 'all' = every available backend; "
                   f"default: {', '.join(DEFAULT_BACKENDS[:1])} plus those of {', '.join(DEFAULT_BACKENDS[1:])} that are available")
    p.add_argument("--time-limit", type=_positive_float, default=DEFAULT_TIME_LIMIT, metavar="S",
                   help=f"seconds per job (default {DEFAULT_TIME_LIMIT:g})")
    p.add_argument("--grace", type=_non_negative_float, default=DEFAULT_GRACE, metavar="S",
                   help=f"seconds past the limit before the worker is killed (default {DEFAULT_GRACE:g})")
    p.add_argument("--memory", type=_count(1), default=None, metavar="MB",
                   help="address-space limit per worker in MiB (RLIMIT_AS; includes the loaded engines)")
    p.add_argument("--repeat", type=_count(1), default=1, metavar="R", help="runs per (puzzle, backend); run r uses seed SEED+r")
    p.add_argument("--seed", type=_count(0), default=0, help="base seed (default 0)")
    p.add_argument("-j", "--jobs", type=_count(1), default=os.cpu_count() or 1, metavar="N",
                   help="parallel workers (default: the number of cores)")
    p.add_argument("-o", "--out", default=None, metavar="FILE",
                   help="results file (default: a new results/compare-<time>.jsonl); never overwritten")
    p.add_argument("--resume", action="store_true", help="continue -o FILE: skip jobs recorded with a final status, re-run crashed ones")
    p.add_argument("--import", dest="imports", action="append", default=[], metavar="MODULE",
                   help="import a module (dotted name or .py file) in the parent and every worker first, e.g. to register backends")
    p.add_argument("--skip-bad", action="store_true", help="skip unreadable puzzles (a bad line of a .jsonl, ...) and files with a warning instead of stopping")
    p.add_argument("--dask", default=None, metavar="ADDRESS", help="run the jobs on a Dask cluster (scheduler address, or 'local')")
    p.add_argument("--group", choices=("source", "size"), default="source", help="group rows of the summary by file or grid size")
    p.add_argument("--no-progress", action="store_true", help="no progress bar (it is shown only on a terminal anyway)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m kakuro.compare`; returns the exit status (see the module docstring)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    say = lambda text: print(text, file=sys.stderr)  # noqa: E731
    try:
        if args.resume and args.out is None:
            raise KakuroError("--resume needs -o FILE, the results file to continue")
        if args.imports:
            cwd = os.getcwd()
            if cwd not in sys.path:
                sys.path.insert(0, cwd)
            for name in args.imports:
                try:
                    import_user_module(name)
                except KakuroError:
                    raise
                except Exception as exc:
                    raise KakuroError(f"--import {name}: {type(exc).__name__}: {exc}") from None
        specs = resolve_backends(args.backend)
        instances = collect(args.paths, skip_bad=args.skip_bad, warn=say)
        jobs = make_jobs(instances, specs, repeat=args.repeat, seed=args.seed, time_limit=args.time_limit,
                         grace=args.grace, memory_mb=args.memory)
        out = Path(args.out) if args.out else default_results_path()
        existing = read_results(out, warn=say) if args.resume and out.exists() else []
        results = ResultsFile(out, resume=args.resume)
    except KakuroError as exc:
        say(f"error: {exc}")
        return 1
    done = {record_key(r) for r in latest(existing) if r.get("status") in FINAL}
    todo = [job for job in jobs if job.key not in done]
    limits = {r.get("time_limit") for r in existing} - {args.time_limit}
    if limits:
        say(f"warning: {out} also holds results with time limit(s) {sorted(map(str, limits))}; PAR-2 uses each record's own")
    if args.resume:
        say(f"resuming {out}: {len(jobs) - len(todo)} of {len(jobs)} jobs already recorded, {len(todo)} to run")
    known = _known_solutions(instances, existing)
    puzzles = {(i.source, i.index): i.puzzle for i in instances}
    imports = tuple(str(Path(n).resolve()) if Path(n).is_file() else n for n in args.imports)  # workers may run elsewhere
    config = WorkerConfig(tuple(specs), imports, args.memory, (os.getcwd(),))
    workers = max(1, min(args.jobs, len(todo))) if args.dask != "local" else args.jobs
    with results:
        try:
            campaign = run_campaign(
                todo, puzzles, config, results, workers=workers, known=known, dask=args.dask,
                progress=not args.no_progress and sys.stderr.isatty(), skipped=len(jobs) - len(todo),
            )
        except KakuroError as exc:
            say(f"error: {exc}")
            return 1
    from kakuro import report

    records = read_results(out, warn=say)
    report.print_report(records, group_by=args.group, title=str(out))
    print(f"results: {out}")
    if campaign.interrupted:
        again = [a for a in argv if a != "--resume"] + ["--resume"] + ([] if args.out else ["-o", str(out)])
        say(f"interrupted: {campaign.recorded} of {len(todo)} jobs finished and recorded in {out}; "
            f"continue with: python -m kakuro.compare {shlex.join(again)}")
        return 130
    wrong = any(r["status"] == JobStatus.WRONG.value for r in report.effective(records))
    return 3 if wrong else 0


def _known_solutions(instances: Sequence[Instance], records: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Digest -> who holds a verified solution: a SOLVED record, or the puzzle file itself."""
    known: dict[str, str] = {}
    for record in records:
        if record.get("status") == JobStatus.SOLVED.value and isinstance(record.get("digest"), str):
            known.setdefault(record["digest"], str(record.get("backend")))
    for inst in instances:
        solution = inst.puzzle.meta.get("solution")
        if solution is not None and inst.puzzle.digest() not in known:
            with contextlib.suppress(Exception):
                if inst.puzzle.check(solution) == []:
                    known[inst.puzzle.digest()] = f"the solution in {inst.source}"
    return known


if __name__ == "__main__":  # run the imported module's main, so workers unpickle kakuro.compare.*
    from kakuro.compare import main as _main

    sys.exit(_main())
