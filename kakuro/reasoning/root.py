"""Root reasoning before any search: GAC on every run to a fixpoint, then shaving (singleton
arc consistency), then a whole-grid counting check (`prepare`, `reduce`).

Used by `gac` (its first two stages), `auto` (its presolve), the generator's grading and the
deduction. Run-level GAC keeps a value only if some combination of distinct values with the
run's sum, matched one-to-one onto the run's free cells, gives it to that cell
(the engine's `revise_run`, through `kakuro.native.searches`); shaving assigns each remaining value of each unfixed
cell, propagates and undoes, and removes a value whose propagation wipes out a domain
(`fixpoint` repeats sweeps until one removes nothing, `once` sweeps once, `none` skips it,
`bounded` sweeps as `fixpoint` does but stops once it has spent `shaving_budget` run revisions
without removing anything: shaving that buys nothing, as on an empty Cazenave grid where it
removes nothing at all, then costs a few sweeps' worth of root GAC instead of a full SAC pass).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from kakuro.clock import Deadline
from kakuro.combos import fixed_values, highest_values
from kakuro.native.searches import root_propagate, shave
from kakuro.native.settings import Strength
from kakuro.native.state import SUMS_FROM, BuildStopped, State, arm, build_state, stopped
from kakuro.outcome import Enumeration
from kakuro.puzzle import Puzzle, Run

SHAVING = ("none", "once", "fixpoint", "bounded")
"""Shaving's kernel (`kakuro.native.settings.SHAVE_KERNEL`) is compiled (or loaded) when a puzzle first needs it, after root
GAC left it open (97 % of the janko puzzles never do), off the clock: `prepare`'s caller moves its
deadline by what a `kakuro.clock.Stopwatch` counted off the clock meanwhile."""
DRY_REVISIONS_PER_RUN = 100
"""`bounded` shaving's budget (`shaving_budget`): run revisions per run of the puzzle it may spend
without removing a value, for a run whose cells each lie in one other group (Kakuro). Measured
with unbounded shaving (`benchmarks/root_shaving.py`): the most revisions a removal took was 2.7
per run on the 1,398 shared puzzles and 85 per run on the loose grids of `instances/hard`; a full
pass that removes nothing costs 7,300 per run on an empty 20x20 Cazenave grid over 1..21 and
25,000 per run on a 30x30 over 1..31."""


@dataclass(frozen=True)
class RootReduction:
    """What GAC and shaving did before any search (see `reduce`)."""

    domains: tuple[int, ...]
    """Cell domains (bitmasks, cell order) after the stages; meaningless after a wipe-out."""
    wiped_out: bool
    """The stages proved the puzzle unsatisfiable."""
    solved: bool
    """Every domain holds one value: at GAC those values are the only solution."""
    removed_gac: int
    removed_shaving: int
    probes: int
    """Trial assignments made by shaving."""
    sweeps: int
    """Shaving sweeps over the cells (0 without shaving)."""
    cut: bool = False
    """`bounded` shaving stopped on its budget (the domains are GAC, not necessarily singleton
    arc consistent)."""
    refutation: str = ""
    """Why the stages proved it unsatisfiable when a counting argument did (`totals_refutation`,
    `values_refutation`)."""


def prepare(
    puzzle: Puzzle, shaving: str, deadline: Deadline, seed: int = 0, counting: bool = False,
) -> tuple[State | None, RootReduction | None]:
    """Build the GAC state of `puzzle` (armed with `seed`), run root GAC, the whole-grid totals
    check (`totals_refutation`), with `counting` the count of each value (`values_refutation`),
    and `shaving` (one of SHAVING); the result is the search root. Returns the state (None when the
    deadline passed while it was built) and the reduction, which is None when the deadline
    passed first. (`gac_root`, `count_root` and `shave_root` in turn: a caller may do
    something between them.)

    Raises KakuroError when the puzzle's combination tables are too large (wide value ranges).
    """
    st, gac = gac_root(puzzle, deadline, seed)
    if st is None or gac is None:
        return st, None
    return st, shave_root(st, puzzle, count_root(st, puzzle, gac, counting), shaving)


def gac_root(puzzle: Puzzle, deadline: Deadline, seed: int = 0) -> tuple[State | None, RootReduction | None]:
    """`prepare`'s first stage: the GAC state of `puzzle` (armed with `seed`) after root GAC,
    and its reduction; (None, None) when the deadline passed while the state was built, (state,
    None) when it passed during root GAC."""
    try:
        st = build_state(puzzle, Strength.GAC, deadline.expired)
    except BuildStopped:
        return None, None
    arm(st, deadline.end, seed)
    initial = _initial_total(puzzle)
    ok = root_propagate(st)
    if stopped(st):
        return st, None
    after, fixed = _summary(st) if ok else (initial, 0)
    return st, RootReduction(domains=tuple(st.dom.tolist()), wiped_out=not ok, solved=ok and fixed == puzzle.size,
                             removed_gac=initial - after, removed_shaving=0, probes=0, sweeps=0)


def count_root(st: State, puzzle: Puzzle, reduction: RootReduction, counting: bool) -> RootReduction:
    """`prepare`'s second stage on `st`, the GAC root that `reduction` describes: the whole-grid
    totals check and, with `counting`, the count of each value; the reduction wiped out, with
    the reason (`refutation`), when one refutes the puzzle, else `reduction` itself. Nothing to
    count once the root decided (a wipe-out; every domain single at GAC: every sum is met, no
    count can fail)."""
    if reduction.wiped_out or reduction.solved:
        return reduction
    refutation = totals_refutation(puzzle, st.dom, st.cell_runs) or (values_refutation(puzzle, st) if counting else "")
    if not refutation:
        return reduction
    return replace(reduction, wiped_out=True, removed_gac=0, refutation=refutation)  # as a wipe-out at GAC counts


def shave_root(st: State, puzzle: Puzzle, reduction: RootReduction, shaving: str) -> RootReduction | None:
    """`shaving` (one of SHAVING) on `st`, the root that `reduction` describes (`prepare` with
    shaving "none": root GAC), its result becoming the root. Returns the reduction after it,
    None when the deadline passed first. Shaving's kernel is compiled here when first needed
    (`kakuro.native.searches.shave`): the state's deadline moves by that time, the caller's does not."""
    if reduction.wiped_out or reduction.solved or shaving == "none":
        return reduction
    before = _summary(st)[0]
    shaved = shave(st, shaving != "once", shaving_budget(st) if shaving == "bounded" else 0)
    if stopped(st):
        return None
    ok = shaved.consistent
    after, fixed = _summary(st) if ok else (before, 0)
    return replace(reduction, domains=tuple(st.dom.tolist()), wiped_out=not ok, solved=ok and fixed == puzzle.size,
                   removed_shaving=before - after, probes=shaved.probes, sweeps=shaved.sweeps, cut=shaved.cut)


def shaving_budget(st: State) -> int:
    """`bounded` shaving's budget on `st` (a gac state): the run revisions it may spend without
    removing a value, DRY_REVISIONS_PER_RUN for each run times the square of the groups its
    cells lie in besides it, on average (at least 1): a probe's assignment reaches the other
    groups through each of those crossings, and each can be the one that refutes it. One rule
    for every puzzle: a Kakuro run's cells lie in one other run (100 revisions a run: an empty
    Cazenave grid, where shaving removes nothing, stops within a few sweeps' worth of root GAC);
    a Sudoku's in two (400), a Killer's in three (900). Measured with unbounded shaving
    (`benchmarks/root_shaving.py`, 2026-11-26): removals took at most 276 revisions a run on
    generated 16x16 Sudoku (66 % empty), 36 on 9x9, and 254 on the generated Killer that a
    budget of 100 left to a search of more than 10 s (tests/test_sudoku_generate.py)."""
    m = int(st.info[SUMS_FROM])  # the puzzle's groups (a learning state's implied sums come after)
    if m == 0:
        return 0
    groups = (st.cell_runs >= 0).sum(axis=1)  # of each cell
    offsets = st.members[: m + 1]
    cells = st.members[offsets[0]: offsets[m]]
    lengths = np.diff(offsets)
    crossing = np.add.reduceat(groups[cells] - 1, offsets[:-1] - offsets[0]) / np.maximum(lengths, 1)
    return int(DRY_REVISIONS_PER_RUN * (np.maximum(crossing, 1.0) ** 2).sum())


def totals_refutation(puzzle: Puzzle, domains: np.ndarray, cell_runs: np.ndarray | None = None) -> str:
    """Whole-grid counting, which no single run sees: the across clues add up the digits of
    every cell in an across run and the down clues those of every cell in a down run, so their
    difference is the digits of the cells in an across run only minus those of the cells in a
    down run only. "" when `domains` (int64 bitmasks, cell order) allow that difference, else
    why no filling can (e.g. a grid whose row sums and column sums disagree). "" for a puzzle
    with regions (Sudoku, Killer), which has no clue lines. `cell_runs`: the runs of each cell
    (a state's `cell_runs`, cells x groups, -1 padded) when at hand, else read from `puzzle`."""
    if puzzle.regions or not puzzle.groups:
        return ""
    direction = _directions(puzzle)
    if cell_runs is None:
        cell_runs = _padded(puzzle.cell_groups)
    padded = np.append(direction, 0)  # the padding -1 reads the last: 0
    sign = np.sum([padded[column] for column in cell_runs.T], axis=0)  # +1 across only, -1 down only, 0 both (or neither)
    totals = np.array([run.total for run in puzzle.groups], dtype=np.int64)
    across, down = int(totals[direction > 0].sum()), int(totals[direction < 0].sum())
    domains = np.asarray(domains, dtype=np.int64)
    lowest = np.bitwise_count((domains & -domains) - 1)
    highest = highest_values(domains)
    low = int(lowest[sign > 0].sum() - highest[sign < 0].sum())
    high = int(highest[sign > 0].sum() - lowest[sign < 0].sum())
    difference = across - down
    if low <= difference <= high:
        return ""
    return (f"the across clues add up to {across} and the down clues to {down}, but both add up "
            f"the same digits" + ("" if low == high == 0 else f" except for a difference between {low} and {high}"))


def values_refutation(puzzle: Puzzle, st: State) -> str:
    """Counting each value, which no single run sees: where every cell lies in one across run
    and one down run, a value v fills as many cells as there are across runs holding it, and
    as many as there are down runs holding it, so those two numbers are equal. A run holds v
    for sure when every combination of its table that its cells' domains (`st`, a gac state)
    allow has v, and may hold it when one does (`run_values`). "" when the across and the down
    bounds meet for every value, else why no filling can (e.g. an empty grid over 1..N+1 whose
    rows leave out other values than its columns: the unsatisfiable Cazenave grids whose sums
    add up)."""
    sets = run_values(puzzle, st)
    if sets is None:
        return ""
    sure, maybe = sets
    across = _directions(puzzle) > 0
    lo, hi = puzzle.values
    shifts = np.arange(lo, hi + 1, dtype=np.int64)
    counts = []  # (runs surely holding each value, runs maybe holding it), across and down
    for runs in (across, ~across):
        for bits in (sure[runs], maybe[runs]):
            counts.append(((bits[:, None] >> shifts) & 1).sum(axis=0))
    a_low, a_high, d_low, d_high = counts
    broken = np.flatnonzero((a_high < d_low) | (d_high < a_low))
    if broken.size == 0:
        return ""
    i = int(broken[0])
    return (f"the value {lo + i} is in {_between(int(a_low[i]), int(a_high[i]))} across runs but in "
            f"{_between(int(d_low[i]), int(d_high[i]))} down runs, though every cell is in one of each")


def _directions(puzzle: Puzzle) -> np.ndarray:
    """+1 for each across run of `puzzle`, -1 for each down run, 0 for a region (int64, run order)."""
    return np.array([(1 if run.direction == "across" else -1) if isinstance(run, Run) else 0 for run in puzzle.groups],
                    dtype=np.int64)


def _padded(rows: tuple[tuple[int, ...], ...]) -> np.ndarray:
    """`rows` as an int64 array padded with -1 (a puzzle's `cell_runs` as a state holds them)."""
    out = np.full((len(rows), max(1, max(map(len, rows), default=1))), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, :len(row)] = row
    return out


def run_values(puzzle: Puzzle, st: State) -> tuple[np.ndarray, np.ndarray] | None:
    """(values every allowed combination of the run has, values some has), bitmasks per run,
    where every cell of a Kakuro `puzzle` lies in one across and one down run (None elsewhere): the
    allowed combinations are those of the run's table (`st`, a gac state) within the union of
    its cells' domains."""
    m = len(puzzle.groups)
    if m == 0 or puzzle.regions or bool(np.any(st.cell_runs < 0)):  # a Sudoku's groups; a cell without a run one way
        return None
    offsets = st.combos[: m + 1]
    if np.any(np.diff(offsets) == 0):
        return None  # a run without a table (none is built so): no claim
    masks = st.combos[offsets[0]: offsets[m]]
    cell_offsets = st.members[: m + 1]
    cells = st.members[cell_offsets[0]: cell_offsets[m]]
    union = np.bitwise_or.reduceat(st.dom[cells], cell_offsets[:-1] - cell_offsets[0])
    owner = np.repeat(np.arange(m), np.diff(offsets))
    allowed = (masks & ~union[owner]) == 0
    starts = offsets[:-1] - offsets[0]
    sure = np.bitwise_and.reduceat(np.where(allowed, masks, -1), starts)
    maybe = np.bitwise_or.reduceat(np.where(allowed, masks, 0), starts)
    return sure, maybe


def _between(low: int, high: int) -> str:
    return str(low) if low == high else f"{low} to {high}"


def reduce(puzzle: Puzzle, shaving: str = "none", counting: bool = False) -> RootReduction:
    """Root GAC, then `shaving`, on `puzzle` (no search, no time limit); `counting` as in `prepare`."""
    if shaving not in SHAVING:
        raise ValueError(f"shaving must be one of {', '.join(SHAVING)}, not {shaving!r}")
    _, reduction = prepare(puzzle, shaving, Deadline(), counting=counting)
    if reduction is None:  # cannot happen without a deadline
        raise RuntimeError("root propagation stopped without a deadline")
    return reduction


def root_answer(reduction: RootReduction, stats: dict[str, Any]) -> Enumeration | None:
    """The stages' own answer, with `stats`: no solution (a wipe-out) or the only one (every
    domain a single value); None when a search must decide."""
    if reduction.wiped_out:
        return Enumeration([], True, stats, reduction.refutation or "root propagation wiped out a domain")
    if reduction.solved:
        return Enumeration([fixed_values(reduction.domains)], True, stats)
    return None


def _summary(st: State) -> tuple[int, int]:
    """(sum of the domain sizes, number of one-value domains) of `st` (as the engine's
    `domain_summary`, which is compiled with shaving: read here without it)."""
    sizes = np.bitwise_count(st.dom)
    return int(sizes.sum()), int((sizes == 1).sum())


def _initial_total(puzzle: Puzzle) -> int:
    lo, hi = puzzle.values
    given = len(puzzle.givens)
    return (puzzle.size - given) * (hi - lo + 1) + given
