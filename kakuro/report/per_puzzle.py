"""The per-puzzle table: a row per puzzle, a column per backend, the best time marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kakuro.report.aggregate import PuzzleResult
from kakuro.report.comparison import Section

BEST_TOLERANCE = 1e-9
"""Seconds within which two median times tie for best."""


@dataclass(frozen=True)
class PuzzleRow:
    """One puzzle: each backend's result (None where a backend did not run it)."""

    instance: str
    digest: str
    source: str
    rows: int | None
    cols: int | None
    results: Mapping[str, PuzzleResult | None]
    best: frozenset[str]
    """Backends whose median time is the lowest among those that answered."""


def per_puzzle(section: Section, backends: Sequence[str]) -> list[PuzzleRow]:
    """A row per compared puzzle (in order of first appearance), columns in `backends` order."""
    by_puzzle: dict[tuple[str, str], dict[str, PuzzleResult]] = {}
    for result in section.results:
        by_puzzle.setdefault(result.puzzle, {})[result.backend] = result
    rows = []
    for found in by_puzzle.values():
        any_result = next(iter(found.values()))
        timed = {b: r.time for b, r in found.items() if r.answered and r.time is not None}
        fastest = min(timed.values(), default=None)
        best = frozenset(b for b, t in timed.items() if fastest is not None and t - fastest <= BEST_TOLERANCE)
        rows.append(PuzzleRow(any_result.instance, any_result.digest, any_result.source, any_result.rows,
                              any_result.cols, {b: found.get(b) for b in backends}, best))
    return rows
