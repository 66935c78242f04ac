"""What a paper must say about a campaign: backends with their full specs and versions,
machines, limits, seeds, dates; and the notes a reader should not miss."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kakuro.records.record import Record, clipped, is_finite
from kakuro.report.runs import effective, repeats


@dataclass(frozen=True)
class BackendFacts:
    """One backend of the campaign."""

    name: str
    specs: tuple[str, ...]
    """Full specs it ran with (every option); empty for schema-1 records, which lack them."""
    engines: tuple[str, ...]
    """Engine versions seen (`ortools 9.12`, `built-in`)."""
    paradigms: tuple[str, ...] = ()
    """Its paradigm (`SAT`, `Monte-Carlo`, ...); empty for records that predate it."""


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
    """One per machine (every field of `machine_info` but the load); `load` holds every
    load-average triple recorded on it (one per worker start), `[]` when none was."""
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
        paradigms = tuple(sorted({str(r.versions.get("paradigm")) for r in mine if r.versions.get("paradigm")}))
        facts.append(BackendFacts(name, specs, engines, paradigms))
    machines = _machines(current)
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


def _machines(records: Sequence[Record]) -> list[dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for record in records:
        if not record.machine:
            continue
        fixed = {k: v for k, v in record.machine.items() if k != "load"}
        entry = found.setdefault(json.dumps(fixed, sort_keys=True, default=str), {**fixed, "load": []})
        load, seen = record.machine.get("load"), entry["load"]
        if load is not None and isinstance(seen, list) and load not in seen:
            seen.append(load)
    return list(found.values())


def describe_machine(machine: Mapping[str, object]) -> str:
    """A machine of `About.machines` in one line: hostname, CPU model, logical CPUs and
    physical cores, memory, load average when the workers started, platform; "not recorded"
    for what its records lack (records made before these were recorded). A value of another
    kind than kakuro records (a record edited by hand) is shown as it is."""
    def known(key: str, show: Callable[[Any], str | None] = lambda value: None) -> str:
        value = machine.get(key)
        if value is None or value == []:
            return "not recorded"
        return show(value) or clipped(str(value), 200)

    loads = machine.get("load")
    triples = [t for t in loads if isinstance(t, list) and t and is_finite(t[0])] if isinstance(loads, list) else []
    if len(triples) > 1:
        ones = [t[0] for t in triples]
        load = f"{min(ones):g} to {max(ones):g} (1 min, at {len(triples)} worker starts)"
    elif triples and all(is_finite(x) for x in triples[0]):
        load = ", ".join(f"{x:g}" for x in triples[0]) + " (1, 5, 15 min, at the worker's start)"
    else:
        load = known("load")
    return "; ".join([
        f"hostname: {known('hostname')}", f"CPU: {known('cpu_model')}", f"logical CPUs: {known('cpus')}",
        f"physical cores: {known('cores')}",
        f"memory: {known('memory_mb', lambda v: f'{v / 1024:.1f} GiB' if is_finite(v) else None)}",
        f"load average: {load}", f"platform: {known('platform')}",
    ])


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
