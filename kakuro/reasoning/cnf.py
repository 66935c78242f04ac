"""Kakuro as CNF: the encoding shared by the `sat` and `auto` backends, the DIMACS export and
certificates. Stateless and separate from solving (`encode`).

Variables. One-hot digit variables: `x(c, v)` is true when cell `c` holds value `v`; they come
first and in order, `x(c, v) = 1 + c * W + (v - lo)` with `W = hi - lo + 1`. Auxiliary
variables follow. Each cell holds exactly one value; a given is a unit clause, and so is
`-x(c, v)` for a value no combination of one of the cell's runs contains (the one-hot and
at-most-one constraints then range over the remaining values only). All-different is
at-most-one `x(c, v)` per value `v` per run (pairwise up to 10 literals, a sequential counter
above).

`encoding="combinations"` (default) states each run's sum through its feasible combinations
(`kakuro.combos.run_combinations`: those holding the run's givens, so a run with few free
cells has few even over a wide range): a presence literal `p(r, v)` per value (`p` <-> some
cell of the run holds `v`), a selector `s(r, k)` per combination with at least one selector true,
`s -> p(v)` for the values in the combination and `s -> -p(v)` for the others, and
`p(v) -> OR selectors containing v`, `-p(v) -> OR selectors lacking v`. From the givens of one run, unit propagation removes
exactly the values `kakuro.combos.feasible_values` removes (generalized arc consistency of
the sum with all-different); with arbitrary domains it can miss Hall-set (matching)
deductions, which the solver's search then finds.

`encoding="pb"` states each sum as a pseudo-Boolean equality over the one-hot literals,
`sum (v - lo) * x(c, v) = total - len(run) * lo`, encoded by `pysat.pb.PBEnc` with its default
encoder (which needs the `pindakaas` package, a binary wheel on PyPI; no native build). It is
much larger and weaker than the combination encoding; measured here on janko-251 (444 cells)
with CaDiCaL: 232,742 clauses, 29,838 conflicts, 6.5 s, against 26,735 clauses, no conflict
(unit propagation alone solves it) and 0.19 s.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from kakuro.combos import range_mask, run_combinations, union_of
from kakuro.errors import BackendOptionError, BackendUnavailableError, KakuroError
from kakuro.outcome import Stat
from kakuro.puzzle import Group, Puzzle

ENCODINGS = ("combinations", "pb")


_PAIRWISE_UP_TO = 10
"""At-most-one over at most this many literals is pairwise; longer ones use a sequential counter."""


@dataclass(frozen=True)
class Encoding:
    """A CNF of a puzzle: `clauses` over variables 1..`num_vars`; the value variables come first.

    `x(c, v)` (see `var`) is the variable of "cell `c` holds value `v`".
    """

    clauses: list[list[int]]
    num_vars: int
    cells: int
    values: tuple[int, int]
    encoding: str

    @property
    def num_clauses(self) -> int:
        return len(self.clauses)

    def var(self, cell: int, value: int) -> int:
        """The variable of "cell `cell` holds `value`"."""
        lo, hi = self.values
        return 1 + cell * (hi - lo + 1) + (value - lo)

    def value_vars(self) -> Iterator[tuple[int, int, int]]:
        """Every value variable as `(variable, cell, value)`, ascending."""
        lo, hi = self.values
        for cell in range(self.cells):
            for value in range(lo, hi + 1):
                yield self.var(cell, value), cell, value

    def decode(self, model: Iterable[int]) -> list[int]:
        """One value per cell from a model (a set of true literals); raises ValueError when a
        cell has no true value variable."""
        true = {lit for lit in model if lit > 0}
        lo, hi = self.values
        out = []
        for cell in range(self.cells):
            held = [v for v in range(lo, hi + 1) if self.var(cell, v) in true]
            if not held:
                raise ValueError(f"the model gives cell {cell} no value")
            out.append(held[0])
        return out

    def blocking_clause(self, values: Sequence[int]) -> list[int]:
        """The clause that excludes exactly this assignment of the value variables."""
        return [-self.var(cell, v) for cell, v in enumerate(values)]


def encode(puzzle: Puzzle, encoding: str = "combinations", domains: Sequence[int] | None = None) -> Encoding:
    """The CNF of `puzzle` with the sums encoded as `encoding` ("combinations" or "pb"), each
    cell restricted to its bitmask in `domains` (cell order) when given: from reduced domains
    (root GAC and shaving, for example) only the values left get literals in the one-hot,
    all-different and combination clauses, and only the combinations those values can still
    form get selectors.

    Raises BackendOptionError for an unknown encoding, BackendUnavailableError when "pb" lacks
    pindakaas, KakuroError when a run has too many combinations to tabulate.
    """
    if encoding not in ENCODINGS:
        raise BackendOptionError(f"encoding {encoding!r} is not one of {', '.join(ENCODINGS)}")
    lo, hi = puzzle.values
    width = hi - lo + 1
    builder = _Builder(puzzle.size * width)
    combining = encoding == "combinations"
    tables = [_combinations(puzzle, run) if combining else () for run in puzzle.groups]
    # values a cell can hold at all: in some combination of each of its runs (or its given)
    allowed = [range_mask((lo, hi))] * puzzle.size if domains is None else [d & range_mask((lo, hi)) for d in domains]
    for cell, digit in puzzle.givens.items():
        allowed[cell] &= 1 << digit
    if domains is not None and combining:  # the combinations the domains can still form
        tables = [tuple(m for m in table if m & ~union_of(allowed[c] for c in run.cells) == 0)
                  for run, table in zip(puzzle.groups, tables)]
    if combining:
        for run, table in zip(puzzle.groups, tables):
            union = union_of(table)
            for cell in run.cells:
                allowed[cell] &= union
    for cell in range(puzzle.size):
        base = 1 + cell * width - lo
        lits = [base + v for v in range(lo, hi + 1) if allowed[cell] >> v & 1]
        builder.clauses.extend([-(base + v)] for v in range(lo, hi + 1) if not allowed[cell] >> v & 1)
        builder.add(lits)
        builder.at_most_one(lits)
    for run, table in zip(puzzle.groups, tables):
        by_value = {
            v: [1 + c * width + v - lo for c in run.cells if allowed[c] >> v & 1] for v in range(lo, hi + 1)
        }
        for lits in by_value.values():
            builder.at_most_one(lits)  # all-different
        if combining:
            _combination_clauses(builder, table, by_value)
        else:
            _pb_clauses(builder, by_value, run.total - len(run) * lo, lo)
    return Encoding(builder.clauses, builder.top, puzzle.size, (lo, hi), encoding)


def _combinations(puzzle: Puzzle, run: Group) -> tuple[int, ...]:
    try:
        return run_combinations(puzzle, run)
    except KakuroError as exc:
        raise KakuroError(f"{exc}; the combination encoding is too large here, try sat:encoding=pb") from None


class _Builder:
    """Collects clauses and hands out fresh auxiliary variables above `top`."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.clauses: list[list[int]] = []

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def add(self, clause: list[int]) -> None:
        self.clauses.append(clause)

    def extend(self, clauses: Iterable[list[int]], top: int) -> None:
        self.clauses.extend(list(c) for c in clauses)
        self.top = max(self.top, top)

    def at_most_one(self, lits: Sequence[int]) -> None:
        if len(lits) <= _PAIRWISE_UP_TO:
            self.clauses.extend([-a, -b] for a, b in itertools.combinations(lits, 2))
            return
        from pysat.card import CardEnc, EncType

        amo = CardEnc.atmost(list(lits), bound=1, top_id=self.top, encoding=EncType.seqcounter)
        self.extend(amo.clauses, amo.nv)


def _combination_clauses(builder: _Builder, table: Sequence[int], by_value: Mapping[int, list[int]]) -> None:
    """Presence literals and combination selectors of one run; `by_value[v]` are the run's
    literals "cell holds v" (cells that cannot hold v left out)."""
    union = union_of(table)
    present = {v: builder.new_var() for v in by_value if union >> v & 1}
    for v, p in present.items():
        builder.clauses.extend([-x, p] for x in by_value[v])
        builder.add([-p, *by_value[v]])
    selectors = [builder.new_var() for _ in table]
    builder.add(list(selectors))
    for v, p in present.items():
        with_value = [s for s, combo in zip(selectors, table) if combo >> v & 1]
        without_value = [s for s, combo in zip(selectors, table) if not combo >> v & 1]
        builder.clauses.extend([-s, p] for s in with_value)
        builder.clauses.extend([-s, -p] for s in without_value)
        builder.add([-p, *with_value])
        builder.add([p, *without_value])


def _pb_clauses(builder: _Builder, by_value: Mapping[int, list[int]], bound: int, lo: int) -> None:
    """`sum (v - lo) * x = bound` over the run's literals `by_value[v]`, by PySAT's PBEnc."""
    terms = [(x, v - lo) for v, lits in by_value.items() if v > lo for x in lits]
    if not terms:  # every cell can only hold lo: the puzzle's validation matched the total
        return
    try:
        from pysat.pb import PBEnc
    except (ImportError, AssertionError) as exc:  # pysat.pb asserts that pindakaas imports
        raise BackendUnavailableError(
            f"sat:encoding=pb needs pindakaas ({exc}); install it with: pip install pindakaas"
        ) from None
    pb = PBEnc.equals(lits=[x for x, _ in terms], weights=[w for _, w in terms], bound=bound, top_id=builder.top)
    builder.extend(pb.clauses, pb.nv)


def encoded(
    puzzle: Puzzle, encoding: str = "combinations", domains: Sequence[int] | None = None
) -> tuple[Encoding, dict[str, Stat]]:
    """`encode(puzzle, encoding, domains)` and its stats: `num_vars`, `num_clauses` and
    `build_time` (seconds)."""
    start = time.perf_counter()
    enc = encode(puzzle, encoding, domains)
    return enc, {"num_vars": enc.num_vars, "num_clauses": enc.num_clauses, "build_time": time.perf_counter() - start}
