"""Building a state in Python: `build_state` from a puzzle, the learning buffers
(`with_learning`), loading domains, and the tiny warm-up puzzle's state."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np

from kakuro.combos import MAX_COMBINATIONS, range_mask, run_table_sizes, run_tables
from kakuro.errors import KakuroError, TablesTooLargeError
from kakuro.puzzle import Puzzle
from kakuro.engine.interrupt import arm
from kakuro.engine.layout import (
    DELETED,
    END_NS,
    FREE,
    INFO_SIZE,
    MAX_SUM_TOTAL,
    MAX_TABLE,
    MODE,
    MODE_GAC,
    MODES,
    NFREE,
    NG_KEPT,
    NGQ_HEAD,
    NO_DEADLINE,
    RUN_FIELDS,
    SCRATCH,
    STATE_CLASSES,
    SUMS_FROM,
    TARGET,
    TRAIL,
    VALUE_MASK,
    W_FREE,
    WORK_ROWS,
    LearningState,
    State,
)

WARM_UP_PUZZLE = Puzzle.all_white([6, 9, 8], [6, 9, 8], values=(1, 4), givens={(0, 0): 1})
"""The tiny puzzle every module's `warm_up` runs its kernels on (3x3, two solutions)."""


class BuildStopped(Exception):
    """`build_state` was told to stop (its `expired` answered True) before the state was built."""


def nogood_store_size(cells: int) -> int:
    """int64 slots of a learning state's nogood store for a puzzle of `cells` cells: 512 per
    cell, from 2^16 (512 KB) to 2^22 (32 MB); the search reduces the store when it is full, and
    grows it when found solutions' nogoods would take more than half (`nogoods.make_room`)."""
    return min(1 << 22, max(1 << 16, 512 * cells))


def watch_pool_size(store: int, cells: int) -> int:
    """Watch entries of a nogood store of `store` slots for `cells` cells: two per nogood of
    the store (a nogood takes at least 8 slots), with room to spare."""
    return store // 3 + 2 * cells + 2


def build_state(puzzle: Puzzle, consistency: str = "fc", expired: Callable[[], bool] | None = None, *,
                learning: bool = False, store: int | None = None, sums: Sequence[tuple[Sequence[int], int]] = ()) -> State:
    """The search state of `puzzle` before root propagation (`propagate.root_propagate`).

    `consistency` is a key of MODES; `learning` (gac only) gives a LearningState with a nogood
    store of `store` int64 slots and the implied `sums` (`with_learning`). Raises KakuroError for "gac" on a puzzle whose combination
    tables are too large (use fc, which works for every range up to 62). `expired` (the time
    limit) is asked between the steps of the build, each a fraction of a second on a 900x900
    grid; BuildStopped when it answers True.
    """
    if consistency not in MODES:
        raise KakuroError(f"consistency must be one of {', '.join(MODES)}, not {consistency!r}")
    if learning and consistency != "gac":
        raise KakuroError(f"learning needs consistency=gac (its explanations are run revisions), not {consistency!r}")

    def step() -> None:
        if expired is not None and expired():
            raise BuildStopped

    mode = MODES[consistency]
    n, m = puzzle.size, len(puzzle.groups)
    lo, hi = puzzle.values
    width = hi - lo + 1
    full = range_mask(puzzle.values)
    cell_runs, runs, members = _run_arrays(puzzle, step)
    step()
    if mode == MODE_GAC:
        offsets, masks = _gac_tables(puzzle)
        step()
        combos = np.concatenate([offsets + m + 1, masks]).astype(np.int64)
    else:
        combos = np.full(m + 1, m + 1, dtype=np.int64)
    capacity = n * (width + 2) + 1  # per cell along one path: width shrinks + one assignment
    info = _fresh_info(n, m, mode, full)
    givens = np.array(sorted(puzzle.givens.items()), dtype=np.int64).reshape(-1, 2)
    base = STATE_CLASSES[mode](
        dom=np.full(n, full, dtype=np.int64),
        val=np.full(n, -1, dtype=np.int64),
        size=np.full(n, width, dtype=np.int64),
        cell_runs=cell_runs,
        runs=runs,
        members=members,
        combos=combos,
        trail=np.zeros(2 * capacity, dtype=np.int64),
        queue=np.zeros(max(m, 1), dtype=np.int64),
        info=info,
        sol=np.full(n, -1, dtype=np.int64),
        work=np.zeros((WORK_ROWS, SCRATCH), dtype=np.int64),
        givens=givens,
    )
    return with_learning(base, store, sums) if learning else base  # type: ignore[return-value]  # a LearningState is a State


def _run_arrays(puzzle: Puzzle, step: Callable[[], None]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`cell_runs`, `runs` and `members` of a fresh state of `puzzle` (`step` is called
    halfway: `build_state`'s time check)."""
    n, m = puzzle.size, len(puzzle.groups)
    lengths = np.array([len(run) for run in puzzle.groups], dtype=np.int64)
    flat = np.fromiter(itertools.chain.from_iterable(run.cells for run in puzzle.groups), dtype=np.int64,
                       count=int(lengths.sum()))
    step()
    owners = np.repeat(np.arange(m, dtype=np.int64), lengths)
    order = np.lexsort((owners, flat))  # by cell, then by run: a cell's runs in run order
    cells_sorted = flat[order]
    counts = np.bincount(cells_sorted, minlength=n)
    slot = np.arange(len(order), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)  # k-th group of its cell
    cell_runs = np.full((n, max(2, int(counts.max(initial=0)))), -1, dtype=np.int64)  # Kakuro: across and down
    cell_runs[cells_sorted, slot] = owners[order]
    runs = np.zeros((m, RUN_FIELDS), dtype=np.int64)
    runs[:, TARGET] = [run.total for run in puzzle.groups]
    runs[:, FREE] = lengths
    members = offsets_first(lengths, flat)
    return cell_runs, runs, members


def _fresh_info(n: int, m: int, mode: int, full: int) -> np.ndarray:
    """`info` of a fresh state of `n` cells and `m` runs at `mode`, values the bits of `full`."""
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    info[NFREE] = n
    info[MODE] = mode
    info[END_NS] = NO_DEADLINE
    info[VALUE_MASK] = full
    info[SUMS_FROM] = m
    return info


def offsets_first(lengths: np.ndarray, items: np.ndarray) -> np.ndarray:
    """Groups of `items` (int64) of the given `lengths` as one int64 array: the offsets of the
    groups first (group g is `out[out[g]:out[g + 1]]`), then the items."""
    starts = len(lengths) + 1 + np.concatenate([[0], np.cumsum(lengths)])
    return np.concatenate([starts, items]).astype(np.int64)


def with_learning(st: State, store: int | None = None, sums: Sequence[tuple[Sequence[int], int]] = ()) -> LearningState:
    """The gac state `st`, at its root (an empty trail: fresh, or after `commit_root`), as a
    LearningState sharing its arrays, with an empty nogood store of `store` int64 slots
    (default `nogood_store_size`) and the implied `sums` ((cells, total): the cells' values add
    up to total in every solution, total <= MAX_SUM_TOTAL; one below 0 has no solution) as
    extra rows of `runs` after the runs, kept at GAC of their sum by the search
    (`propagate.revise_sum`). So root propagation and shaving can run on the plain state and
    only a puzzle they leave open pays for the learning buffers. The buffers are allocated zeroed (pages the search never reaches cost
    nothing): every slot is written before it is read."""
    if st.info[MODE] != MODE_GAC or isinstance(st, LearningState):
        raise ValueError("with_learning needs a gac state without learning")
    if st.info[TRAIL] != 0:
        raise ValueError("with_learning needs a state at its root (an empty trail)")
    n = st.dom.shape[0]
    capacity = st.trail.shape[0] // 2
    store = nogood_store_size(n) if store is None else store
    st.info[NGQ_HEAD : DELETED + 1] = 0  # a fresh store (the info array is shared with `st`)
    st.info[W_FREE] = -1
    st.info[NG_KEPT] = 0
    pool = watch_pool_size(store, n)
    runs, members, queue, cell_sums = _with_sums(st, sums)
    return LearningState(  # type: ignore[call-arg]  # its fields are made from State's at import (layout)
        *st._replace(runs=runs, members=members, queue=queue),
        reasons=np.zeros(capacity, dtype=np.int64),
        links=np.zeros(capacity, dtype=np.int64),
        last=np.full(n, -1, dtype=np.int64),
        ng_queued=np.zeros(n, dtype=np.int64),
        ng_queue=np.zeros(max(n, 1), dtype=np.int64),
        ng_store=np.zeros(store, dtype=np.int64),
        ng_before=np.zeros(n, dtype=np.int64),
        watch_head=np.full((n, int(st.info[VALUE_MASK]).bit_length()), -1, dtype=np.int64),
        watch_next=np.zeros(pool, dtype=np.int64),
        watch_nogood=np.zeros(pool, dtype=np.int64),
        watch_mask=np.zeros(pool, dtype=np.int64),
        cell_sums=cell_sums,
    )


def _with_sums(st: State, sums: Sequence[tuple[Sequence[int], int]]) -> tuple[np.ndarray, ...]:
    """`runs`, `members` and `queue` of `st` extended by the rows of `sums`, and `cell_sums`."""
    n, m = st.dom.shape[0], st.runs.shape[0]
    for cells, total in sums:
        if total > MAX_SUM_TOTAL or not cells:
            raise ValueError(f"an implied sum needs cells and a total up to {MAX_SUM_TOTAL}, not {total}")
    sizes = np.array([len(cells) for cells, _ in sums], dtype=np.int64)
    summed = np.array([c for cells, _ in sums for c in cells], dtype=np.int64)
    members = offsets_first(np.concatenate([np.diff(st.members[: m + 1]), sizes]), np.concatenate([st.members[m + 1:], summed]))
    extra = np.zeros((len(sums), RUN_FIELDS), dtype=np.int64)
    extra[:, TARGET] = [total for _, total in sums]
    extra[:, FREE] = sizes
    owners = np.repeat(np.arange(m, m + len(sums), dtype=np.int64), sizes)  # the row of each summed cell
    cell_sums = offsets_first(np.bincount(summed, minlength=n), owners[np.argsort(summed, kind="stable")])
    return np.concatenate([st.runs, extra]), members, np.zeros(max(m + len(sums), 1), dtype=np.int64), cell_sums


def warm_up_state(strength: str) -> State:
    """The tiny puzzle's state at `strength` (a key of MODES), armed without a deadline."""
    st = build_state(WARM_UP_PUZZLE, strength)
    arm(st, None, 1)
    return st


def load_domains(st: State, domains: list[int] | tuple[int, ...] | np.ndarray) -> None:
    """Start the freshly built state `st` (nothing assigned or propagated yet) from `domains`
    (bitmasks, cell order) instead of the full value range."""
    dom = np.asarray(domains, dtype=np.int64)
    st.dom[:] = dom
    st.size[:] = np.bitwise_count(dom)


def _gac_tables(puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """`run_tables(puzzle)` (each run's combinations holding its givens), or TablesTooLargeError
    when a run has more than MAX_COMBINATIONS or all together more than MAX_TABLE."""
    refusal = None if tables_fit(puzzle) else tables_refusal(run_table_sizes(puzzle))
    if refusal is not None:
        raise refusal
    try:
        offsets, masks = run_tables(puzzle)
    except KakuroError as exc:  # run_tables' own limit
        raise TablesTooLargeError(f"consistency=gac cannot tabulate this puzzle: {exc}{TABLES_HINT}") from None
    return offsets, masks


TABLES_HINT = ("; the default backend (auto) hands such puzzles to cpsat, and a backend with a consistency "
               "option accepts every range with consistency=fc")


def range_refusal(puzzle: Puzzle) -> TablesTooLargeError | None:
    """`tables_refusal` of the (length, total) tables of `puzzle`'s runs over its whole value
    range (not only those holding its givens, a subset of each), or None when they fit."""
    return None if tables_fit(puzzle) else tables_refusal(run_table_sizes(puzzle, givens=False))


def tables_fit(puzzle: Puzzle) -> bool:
    """True when no table of `puzzle`'s runs can be too large, whatever their lengths and totals:
    a range of w values has at most comb(w, w // 2) sets of one size, so of one size and sum
    (within MAX_COMBINATIONS, and as many per run within MAX_TABLE). Spares counting every
    run's table (a fixed cost of every solve) on the ranges of Kakuro and Sudoku."""
    lo, hi = puzzle.values
    widest = math.comb(hi - lo + 1, (hi - lo + 1) // 2)
    return widest <= MAX_COMBINATIONS and widest * len(puzzle.groups) <= MAX_TABLE


def tables_refusal(sizes: Sequence[int]) -> TablesTooLargeError | None:
    """Why a gac state cannot tabulate runs with tables of these `sizes` (combinations per run:
    `kakuro.combos.run_table_sizes`), or None when they fit (MAX_COMBINATIONS per run, MAX_TABLE
    in all)."""
    largest = max(sizes, default=0)
    if largest > MAX_COMBINATIONS:
        return TablesTooLargeError(
            f"consistency=gac cannot tabulate this puzzle: a run has {largest:,} combinations "
            f"(more than {MAX_COMBINATIONS:,}){TABLES_HINT}"
        )
    total = sum(sizes)
    if total > MAX_TABLE:
        return TablesTooLargeError(f"consistency=gac would tabulate {total:,} combinations (more than {MAX_TABLE:,}){TABLES_HINT}")
    return None
