"""What a paper must say about a campaign: backends with their full specs and versions,
machines, limits, seeds, dates; and the notes a reader should not miss."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kakuro.compare.results import Record
from kakuro.report.runs import effective, repeats


@dataclass(frozen=True)
class BackendFacts:
    """One backend of the campaign."""

    name: str
    specs: tuple[str, ...]
    """Full specs it ran with (every option); empty for schema-1 records, which lack them."""
    engines: tuple[str, ...]
    """Engine versions seen (`ortools 9.12`, `built-in`)."""


@dataclass(frozen=True)
class About:
    """The facts of a campaign, from its records."""

    title: str
    files: tuple[str, ...]
    records: int
    """Records read (every line, re-runs included)."""
    jobs: int
    """Jobs that count (the last record of each)."""
    puzzles: int
    backends: tuple[BackendFacts, ...]
    machines: tuple[Mapping[str, object], ...]
    time_limits: tuple[float, ...]
    graces: tuple[float, ...]
    memory_limits_mb: tuple[int, ...]
    seeds: tuple[int, ...]
    runs_per_pair: Mapping[int, int]
    """Runs per (puzzle, backend) -> how many pairs had that many."""
    software: tuple[str, ...]
    """kakuro and Python versions seen (`kakuro 0.1.0`, `Python 3.11.7`)."""
    first: str
    last: str
    """UTC times of the first and last finished job."""
    notes: tuple[str, ...]


def about(records: Sequence[Record], *, title: str, files: Sequence[str]) -> About:
    """The facts of the campaign behind `records`."""
    current = effective(records)
    names = list(dict.fromkeys(r.backend for r in current))
    facts = []
    for name in names:
        mine = [r for r in current if r.backend == name]
        specs = tuple(sorted({r.spec for r in mine if r.spec}))
        engines = tuple(sorted({str(r.versions.get("engine")) for r in mine if r.versions.get("engine")}))
        facts.append(BackendFacts(name, specs, engines))
    machines = list({tuple(sorted(r.machine.items())): dict(r.machine) for r in current if r.machine}.values())
    software = sorted({f"kakuro {r.versions['kakuro']}" for r in current if r.versions.get("kakuro")}
                      | {f"Python {r.versions['python']}" for r in current if r.versions.get("python")})
    finished = sorted(r.finished for r in current if r.finished)
    return About(
        title=title,
        files=tuple(files),
        records=len(records),
        jobs=len(current),
        puzzles=len({(r.instance, r.digest) for r in current}),
        backends=tuple(facts),
        machines=tuple(machines),
        time_limits=tuple(sorted({r.time_limit for r in current})),
        graces=tuple(sorted({r.grace for r in current if r.grace is not None})),
        memory_limits_mb=tuple(sorted({r.memory_limit_mb for r in current if r.memory_limit_mb is not None})),
        seeds=tuple(sorted({r.seed for r in current})),
        runs_per_pair=dict(sorted(repeats(current).items())),
        software=tuple(software),
        first=finished[0] if finished else "",
        last=finished[-1] if finished else "",
        notes=tuple(_notes(facts, current)),
    )


def _notes(facts: Sequence[BackendFacts], current: Sequence[Record]) -> list[str]:
    notes = []
    by_spec: dict[str, list[str]] = {}
    for fact in facts:
        for spec in fact.specs:
            by_spec.setdefault(spec, []).append(fact.name)
        if len(fact.specs) > 1:
            notes.append(f"{fact.name} ran with {len(fact.specs)} different configurations: {'; '.join(fact.specs)}")
        if len(fact.engines) > 1:
            notes.append(f"{fact.name} ran with {len(fact.engines)} engine versions: {', '.join(fact.engines)}")
    for spec, names in by_spec.items():
        if len(names) > 1:
            notes.append(f"{' and '.join(names)} are the same configuration ({spec})")
    old = sorted({r.backend for r in current if r.spec is None})
    if old:
        notes.append(f"records of {', '.join(old)} predate full specs (schema 1): "
                     "their names leave out options at their default values")
    return notes
