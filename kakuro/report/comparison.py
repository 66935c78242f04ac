"""What a report compares: per time limit, the backends on the puzzles they all ran.

Ranking backends over different sets of puzzles misleads (a backend that ran 29 easy puzzles
beats one that ran 301), so by default (`scope="common"`) a `Section` keeps only the puzzles
every one of its backends ran, and says how many each one had beyond them. With
`scope="each"`, every backend keeps all its puzzles and the section says the sets differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from kakuro.records.record import Record
from kakuro.report.aggregate import PuzzleId, PuzzleResult, aggregate
from kakuro.report.runs import by_time_limit, effective

Scope = Literal["common", "each"]


@dataclass(frozen=True)
class Section:
    """Backends compared under one time limit (seconds)."""

    time_limit: float
    backends: tuple[str, ...]
    """In order of first appearance in the records."""
    results: tuple[PuzzleResult, ...]
    """One per (puzzle, backend), on the compared puzzles."""
    runs: tuple[Record, ...]
    """Every effective record under this limit, compared or not (the raw rows)."""
    scope: Scope
    own: Mapping[str, int]
    """Puzzles each backend ran under this limit."""

    @property
    def puzzles(self) -> list[PuzzleId]:
        """The compared puzzles, in order of first appearance."""
        return list(dict.fromkeys(result.puzzle for result in self.results))

    @property
    def same_puzzles(self) -> bool:
        """True when every backend ran the same puzzles (nothing is left out)."""
        return len(set(self.own.values())) <= 1 and all(n == len(self.puzzles) for n in self.own.values())

    @property
    def empty(self) -> bool:
        """True when there is nothing to compare: the backends ran no puzzle in common."""
        return not self.results

    @property
    def own_counts(self) -> str:
        """The puzzles each backend ran, as `cpsat 12, nmcs 10`."""
        return ", ".join(f"{b} {n}" for b, n in self.own.items())

    def note(self) -> str:
        """One sentence saying which puzzles the backends are compared on."""
        counts = self.own_counts
        if self.empty:
            return (f"Nothing to compare: the {len(self.backends)} backends ran no puzzle in common (puzzles per "
                    f"backend: {counts}); report each results file on its own, or pass --puzzles each.")
        if self.same_puzzles:
            return f"Every backend ran the same {len(self.puzzles)} puzzles."
        if self.scope == "each":
            return (f"The backends ran different puzzles ({counts}); each is shown on all of its own, "
                    "so their rows are not comparable.")
        return (f"Compared on the {len(self.puzzles)} puzzles all {len(self.backends)} backends ran; "
                f"puzzles run by only some are left out (puzzles per backend: {counts}).")

    def settings_note(self) -> str | None:
        """A sentence naming the backends under each memory limit, each grace before the kill
        and each budget, when the runs do not all share them (None when they do): MEMOUT,
        TIMEOUT and BUDGET counts under different settings are not comparable."""
        differ = []
        settings: tuple[tuple[str, Callable[[Record], str]], ...] = (
            ("memory limit", lambda r: _mib(r.memory_limit_mb)),
            ("grace before the kill", lambda r: _grace(r.grace)),
            ("budget", lambda r: _budget(r.budget)),
        )
        for what, setting in settings:
            groups: dict[str, list[str]] = {}
            for backend in self.backends:
                for value in sorted({setting(r) for r in self.runs if r.backend == backend}):
                    groups.setdefault(value, []).append(backend)
            if len(groups) > 1:
                differ.append(f"{what} ({'; '.join(f'{v}: ' + ', '.join(names) for v, names in groups.items())})")
        if not differ:
            return None
        return (f"The runs differ in {' and in '.join(differ)}: MEMOUT, TIMEOUT and BUDGET counts under different "
                "settings are not comparable.")

    def budget_note(self) -> str | None:
        """A sentence naming the budget of nodes or fails every run had, when they share one
        (None without one; `settings_note` names budgets that differ)."""
        budgets = {_budget(r.budget) for r in self.runs}
        if len(budgets) != 1 or budgets == {"none"}:
            return None
        return f"Every run had a budget of {budgets.pop()}: the column budget counts the puzzles it stopped."

    def notes(self) -> list[str]:
        """Everything a reader of this section's tables must know: `note`, then `settings_note`
        and `budget_note`."""
        return [self.note(), *filter(None, [self.settings_note(), self.budget_note()])]


def _mib(value: int | None) -> str:
    return "none" if value is None else f"{value} MiB"


def _budget(budget: Mapping[str, int]) -> str:
    """A record's budget as the notes name it: "20 nodes, 5 fails", or "none"."""
    return ", ".join(f"{bound} {name}" for name, bound in budget.items()) or "none"


def _grace(value: float | None) -> str:
    return "not recorded" if value is None else f"{value:g} s"


def sections(
    records: Sequence[Record],
    *,
    time_limit: float | None = None,
    by_limit: bool = False,
    scope: Scope = "common",
) -> list[Section]:
    """The sections of a report over `records` (any number of results files): the effective
    runs, per time limit (see `runs.by_time_limit`, which refuses silent mixes)."""
    out = []
    for limit, runs in by_time_limit(effective(records), time_limit=time_limit, by_limit=by_limit).items():
        results = aggregate(runs)
        backends = tuple(dict.fromkeys(r.backend for r in results))
        own = {b: sum(r.backend == b for r in results) for b in backends}
        if scope == "common":
            shared = set.intersection(*({r.puzzle for r in results if r.backend == b} for b in backends))
            results = [r for r in results if r.puzzle in shared]
        out.append(Section(limit, backends, tuple(results), tuple(runs), scope, own))
    return out
