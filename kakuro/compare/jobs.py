"""What a campaign runs: instances (puzzles read from files), backends (resolved specs) and
jobs, one per (instance, backend, repeat).

A `Job` carries the parent's own `Puzzle` and `Backend`: it pickles as it is to a worker, and
the parent, which keeps its jobs, checks answers against its own copy of the puzzle.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kakuro.errors import KakuroError
from kakuro.formats import FORMATS, read
from kakuro.limits import NO_BUDGET, Budget
from kakuro.options import parse_spec, spec_value
from kakuro.puzzle import Puzzle
from kakuro.registry import backend_info, get_solver
from kakuro.registry import backends as registered

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a backend gets per job unless `--time-limit` says otherwise."""
DEFAULT_GRACE = 1.0
"""Seconds a job may run past its time limit before its worker is killed."""
DEFAULT_BACKENDS = ("cpsat", "fc", "gac", "sat")
"""The default set: cpsat plus those of the others that are registered and available."""


@dataclass(frozen=True)
class Instance:
    """One puzzle of the campaign: `index` is its 0-based position in `source`."""

    source: str
    index: int
    puzzle: Puzzle
    digest: str
    """`puzzle.digest()`, computed once."""

    @classmethod
    def of(cls, source: str, index: int, puzzle: Puzzle) -> Instance:
        return cls(source, index, puzzle, puzzle.digest())

    @property
    def name(self) -> str:
        """The puzzle's id, or `<file stem>#<1-based position>`."""
        return self.puzzle.id or f"{Path(self.source).stem}#{self.index + 1}"


@dataclass(frozen=True)
class Backend:
    """A backend as a campaign names and runs it."""

    label: str
    """Its name in records and tables: the spec as asked for, options given kept even when
    they equal the default (`nmcs:level=2`), normalized (`nmcs: level = 02` -> `nmcs:level=2`)."""
    spec: str
    """Every option, defaults included: what exactly runs (`Solver.full_spec`)."""
    short: str
    """The solver's spec without default options: the name schema-1 records used."""

    @classmethod
    def resolve(cls, asked: str) -> Backend:
        """Validate `asked` (raises UnknownBackendError, BackendOptionError or
        BackendUnavailableError) and name it."""
        solver = get_solver(asked)
        engine = solver.engine_for(solver.settings)
        if engine is not None:
            engine.version()
        name, every = parse_spec(solver.full_spec)
        given = parse_spec(asked)[1]
        kept = [f"{key}={spec_value(text)}" for key, text in every.items() if key in given]
        return cls(name + (":" + ",".join(kept) if kept else ""), solver.full_spec, solver.spec)

    def renamed(self, label: str) -> Backend:
        """The same configuration under another name (to keep a results file's names)."""
        return Backend(label, self.spec, self.short)


@dataclass(frozen=True)
class Limits:
    """Per-job limits: seconds of solving, seconds of grace before the kill, resident memory
    (MiB), and the budget of nodes and fails (`kakuro.Budget`) every backend must honour."""

    time_limit: float = DEFAULT_TIME_LIMIT
    grace: float = DEFAULT_GRACE
    memory_mb: int | None = None
    budget: Budget = NO_BUDGET

    @property
    def kill_after(self) -> float:
        """Seconds after which a running job's worker is killed."""
        return self.time_limit + self.grace


@dataclass(frozen=True)
class Job:
    """One (instance, backend, repeat) run."""

    instance: Instance
    backend: Backend
    seed: int
    repeat: int
    limits: Limits

    @property
    def key(self) -> tuple[Any, ...]:
        """Same tuple as `Record.key`: (index, digest, backend, seed, repeat); the path the
        puzzle was read through is not part of it (`kakuro.records.record.KEY_FIELDS`)."""
        inst = self.instance
        return (inst.index, inst.digest, self.backend.label, self.seed, self.repeat)


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
        instances.extend(Instance.of(str(path), i, p) for i, p in enumerate(puzzles))
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


def resolve_backends(
    specs: Sequence[str], *, warn: Callable[[str], None] = lambda text: print(text, file=sys.stderr)
) -> list[Backend]:
    """The backends of `specs` (empty: the default set; `all`: every available backend), one
    per configuration: a second name for a configuration already asked for is dropped with a
    warning. Raises UnknownBackendError, BackendOptionError or BackendUnavailableError."""
    resolved: dict[str, Backend] = {}
    for asked in specs or default_backends():
        names = [info.name for info in backend_info() if info.available] if asked.strip() == "all" else [asked]
        for name in names:
            backend = Backend.resolve(name)
            first = resolved.setdefault(backend.spec, backend)
            if first.label != backend.label:
                warn(f"warning: {backend.label} is the same configuration as {first.label}; it runs once, as {first.label}")
    if not resolved:
        raise KakuroError(f"no backend is available; registered: {', '.join(registered()) or 'none'}")
    return list(resolved.values())


def keep_names(chosen: Iterable[Backend], recorded: Iterable[tuple[str, str | None]]) -> list[Backend]:
    """`chosen` renamed to the names a results file already gives their configurations, so a
    resumed campaign keeps one name per backend. `recorded` holds (backend, spec) pairs of the
    file's records (spec None for schema 1, whose backend is the short spec)."""
    by_spec: dict[str, str] = {}
    by_short: dict[str, str] = {}
    for label, spec in recorded:
        if spec is None:
            by_short.setdefault(label, label)
        else:
            by_spec.setdefault(spec, label)
    out = []
    for backend in chosen:
        kept = by_spec.get(backend.spec) or by_short.get(backend.short)
        out.append(backend.renamed(kept) if kept else backend)
    return out


def make_jobs(
    instances: Sequence[Instance],
    backends: Sequence[Backend],
    *,
    repeat: int = 1,
    seed: int = 0,
    limits: Limits = Limits(),
) -> list[Job]:
    """Every (instance, backend, repeat) job; repeat r uses seed `seed + r`, the same for
    every backend and instance, so runs are reproducible and comparable. Jobs are ordered
    repeat by repeat, puzzle by puzzle, so every backend advances at the same pace. A job
    whose `key` is already planned (the same puzzle at the same position of another file)
    is left out: its record would be the same job's."""
    jobs: dict[tuple[Any, ...], Job] = {}
    for r in range(repeat):
        for inst in instances:
            for backend in backends:
                job = Job(inst, backend, seed + r, r, limits)
                jobs.setdefault(job.key, job)
    return list(jobs.values())
