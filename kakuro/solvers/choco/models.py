"""Choco's models of a puzzle (pychoco): the Java objects of a run's table, automaton and
diagram (built once per process for each (length, total, value range) and cached), what a
model would cost before it is built (`model_size`: a model too large is refused at once, one
too large to build here is built in a child by the backend), and the model itself
(`build_model`, checked against the deadline as it goes). The backend is `kakuro.solvers.choco`.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kakuro.clock import Deadline
from kakuro.combos import (
    MAX_AUTOMATON_STATES,
    MAX_TABLE_ROWS,
    automaton_bounds,
    combinations,
    count_combinations,
    count_combinations_within,
    free_parts,
    permutation_table,
    range_mask,
    run_automaton,
)
from kakuro.errors import UnsupportedOperationError
from kakuro.outcome import Stat
from kakuro.puzzle import Group, Puzzle

MODELS = ("decomposition", "table", "regular", "mdd")
TABLE_ALGORITHMS = ("CT+", "STR2+")
MAX_DIAGRAM_TRANSITIONS = 300_000
"""Largest automaton (transitions for one run) the mdd model compiles to a diagram: Choco's
construction is one call that cannot be stopped at a time limit; 200,055 transitions (12
cells over 1..15) take 0.4 s, while an empty 16x16 grid over 1..17 (524,288 per run) built for
more than ten minutes."""
CHECK_EVERY = 64
"""Variables made between two looks at the deadline while building (a 900x900 grid has 360,000)."""
MATRIX_CHUNK = 4096
"""Table rows moved into Choco between two looks at the deadline."""


# --------------------------------------------------------------------- Java objects
class Handles:
    """Java handles made for one solve, destroyed together by `close` (pychoco never frees
    the arrays it makes, and an array of variables keeps its whole model alive)."""

    def __init__(self) -> None:
        self._made: list[Any] = []

    def keep(self, handle: Any) -> Any:
        self._made.append(handle)
        return handle

    def variables(self, intvars: Sequence[Any]) -> Any:
        """A Java IntVar[] of `intvars`."""
        from pychoco import backend

        array = self.keep(backend.create_intvar_array(len(intvars)))
        for i, x in enumerate(intvars):
            backend.intvar_array_set(array, x._handle, i)
        return array

    def close(self) -> None:
        from pychoco import backend

        for handle in self._made:
            backend.chocosolver_handles_destroy(handle)
        self._made.clear()


def _int_matrix(rows: Sequence[Sequence[int]] | np.ndarray, deadline: Deadline | None = None) -> Any | None:
    """A Java int[][] of `rows` (a sequence of rows or a 2-D array, converted MATRIX_CHUNK rows
    at a time); None (and nothing left behind) when `deadline` expires."""
    from pychoco import backend

    matrix = backend.create_int_2d_array(len(rows))
    put, make = backend.int_array_set, backend.create_int_array
    attach, drop = backend.int_2d_array_set, backend.chocosolver_handles_destroy
    for start in range(0, len(rows), MATRIX_CHUNK):
        if deadline is not None and deadline.expired():
            drop(matrix)
            return None
        chunk = rows[start : start + MATRIX_CHUNK]
        for i, row in enumerate(chunk.tolist() if isinstance(chunk, np.ndarray) else chunk, start):
            line = make(len(row))
            for j, v in enumerate(row):
                put(line, v, j)
            attach(matrix, line, i)
            drop(line)
    return matrix


def _int_array(values: Sequence[int], handles: Handles) -> Any:
    from pychoco import backend

    array = handles.keep(backend.create_int_array(len(values)))
    for i, v in enumerate(values):
        backend.int_array_set(array, v, i)
    return array


_FULL_TABLES: dict[tuple[int, int, tuple[int, int]], tuple[Any, int]] = {}
"""Java int[][] of every permutation (and its row count) per (length, total, values)."""


def _table(
    key: tuple[int, int, tuple[int, int]], domains: tuple[int, ...], handles: Handles, deadline: Deadline
) -> tuple[Any, int] | None:
    """The run's permutations within `domains` (bitmasks) as a Java int[][] and its row count;
    None when `deadline` expires first. Unrestricted tables are cached for the process."""
    full = range_mask(key[2])
    restricted = any(d & full != full for d in domains)
    if not restricted and key in _FULL_TABLES:
        return _FULL_TABLES[key]
    rows = permutation_table(*key)
    for j, dom in enumerate(domains):
        if dom & full != full:
            rows = rows[(np.left_shift(1, rows[:, j].astype(np.int64)) & dom) != 0]
    matrix = _int_matrix(rows, deadline)  # a 9! x 9 array takes 0.8 s to become lists: never at once
    if matrix is None:
        return None
    if restricted:
        handles.keep(matrix)
        return matrix, len(rows)
    _FULL_TABLES[key] = (matrix, len(rows))
    return _FULL_TABLES[key]


_AUTOMATA: dict[tuple[int, int, tuple[int, int]], Any] = {}
"""Choco FiniteAutomaton handle of `run_automaton` per (length, total, values)."""
_DIAGRAMS: dict[tuple[int, int, tuple[int, int]], Any] = {}
"""Choco MDD handle per (length, total, values)."""


def _automaton(length: int, total: int, values: tuple[int, int]) -> Any:
    """The Choco FiniteAutomaton handle of `run_automaton` (shared by regular constraints)."""
    from pychoco import backend

    key = (length, total, values)
    if key not in _AUTOMATA:
        spec = run_automaton(*key)
        scratch = Handles()
        fa = backend.create_fa()
        ids = [backend.add_state(fa) for _ in spec.states]
        backend.set_initial_state(fa, ids[0])
        for source, value, target in spec.transitions:
            backend.add_transition(fa, ids[source], ids[target], _int_array([value], scratch))
        backend.set_final(fa, _int_array([ids[f] for f in spec.finals], scratch))
        scratch.close()
        _AUTOMATA[key] = fa
    return _AUTOMATA[key]


def _diagram(length: int, total: int, values: tuple[int, int]) -> Any:
    """The Choco MDD handle of `run_automaton`: accepting states become the terminal node; laid
    out for variables over the whole value range (cells with givens use a part of it). Choco
    builds it in one call that no limit stops: `model_size` refuses runs whose automaton may
    pass MAX_DIAGRAM_TRANSITIONS before any is built."""
    from pychoco import Model, backend

    key = (length, total, values)
    if key not in _DIAGRAMS:
        spec = run_automaton(*key)
        finals = set(spec.finals)
        rows = [[s, v, -1 if t in finals else t] for s, v, t in spec.transitions]
        scratch = Handles()
        layout = Model()
        matrix = scratch.keep(_int_matrix(rows))
        variables = scratch.variables([layout.intvar(*values) for _ in range(length)])
        _DIAGRAMS[key] = backend.create_mdd_transitions(variables, matrix)
        scratch.close()
    return _DIAGRAMS[key]


def precompile(values: tuple[int, int] = (1, 9), kinds: Sequence[str] = ("table", "regular", "mdd")) -> dict[str, float]:
    """Build and cache, for every run over `values`, the full table, automaton and diagram
    (for 1..9: 129 runs, 986,409 tuples, about 125 MB in Choco). Returns seconds per kind.
    Optional: models build what they need on first use. Meant for 1..9; wide ranges hit
    MAX_TABLE_ROWS (KakuroError from kakuro.combos) / MAX_AUTOMATON_STATES (UnsupportedOperationError)."""
    lo, hi = values
    keys = [(n, t, values) for n in range(1, hi - lo + 2) for t in range(n * lo, n * hi + 1) if combinations(n, t, values)]
    builders = {
        "table": lambda key: _table(key, (range_mask(values),) * key[0], Handles(), Deadline()),
        "regular": lambda key: _automaton(*key),
        "mdd": lambda key: _diagram(*key),
    }
    seconds = {}
    for kind in kinds:
        start = time.perf_counter()
        for key in keys:
            builders[kind](key)
        seconds[kind] = time.perf_counter() - start
    return seconds


# --------------------------------------------------------------------- what a model costs
MAX_MODEL_BYTES = 4 << 30
"""Largest model built at all, by `model_size`'s estimate of Choco's memory: a larger one is
refused before anything is built. Choco's Java heap is a quarter of the machine's memory, and a
model that fills it ends the process it is built in."""
IN_PROCESS_BYTES = 256 << 20
IN_PROCESS_STEP = 0.25
"""A model estimated larger than IN_PROCESS_BYTES, or with a step Choco takes in one call (no
deadline stops it) estimated longer than IN_PROCESS_STEP seconds, is built and searched in a
forked child: killed at the deadline, and Java's failure (out of memory ends the process) ends
only the child. Smaller ones are built here, where the tables and diagrams stay cached."""
TABLE_BYTES, TABLE_SECONDS = 1.0, 1e-6
"""Choco's compact table, per row: bytes per cell and value, seconds to post (measured: 9! rows
of 9 cells over 1..9, 27-42 MB and 0.2 s; 1.8 million rows over 1..11, 150 MB and 1.5-1.7 s)."""
MATRIX_BYTES = 10.0
"""Bytes per entry of a table moved into Choco (34 MB for the 9! rows of 9 cells)."""
REGULAR_BYTES, REGULAR_SECONDS = 16.0, 5e-8
"""Choco's `regular` grows with the square of the automaton's states: bytes and seconds per pair
(measured: 4,096 states, 147 MB and 0.23 s; 16,974, 2.7 GB and 15 s; 32,768 (15 cells over
1..16), 4.3 GB and 50 s, and Java out of memory at the second such run)."""
AUTOMATON_SECONDS, DIAGRAM_SECONDS = 15e-6, 7e-6
"""Seconds per transition to list a run's automaton (`run_automaton`, in Python: 6 us) and make
it Choco's automaton call by call (8 us) or compile its diagram (1 us)."""


@dataclass(frozen=True)
class ModelSize:
    """What a model of a puzzle would take, estimated from counts before anything is built:
    Choco's memory (bytes), the longest step Choco takes in one call (seconds), and why the model
    is refused ("" when it is not)."""

    bytes: float = 0.0
    step: float = 0.0
    refused: str = ""

    @property
    def in_process(self) -> bool:
        return self.bytes <= IN_PROCESS_BYTES and self.step <= IN_PROCESS_STEP


def model_size(puzzle: Puzzle, kind: str) -> ModelSize:
    """The estimated size of the `kind` model of `puzzle` (decomposition: none, it is linear in
    the grid and built a cell and a run at a time against the deadline); tables and diagrams
    this process has cached cost nothing. Takes milliseconds: nothing is listed."""
    if kind == "decomposition":
        return ModelSize()
    size, step, seen = 0.0, 0.0, set()
    n = puzzle.values[1] - puzzle.values[0] + 1
    runs = Counter((len(run), run.total, part) for run, part in zip(puzzle.groups, free_parts(puzzle)) if run.stated)
    for (length, total, (free, rest, allowed, given)), count in runs.items():
        key = (length, total, puzzle.values)
        combos = count_combinations(*key)
        states, transitions = automaton_bounds(length, total, range_mask(puzzle.values))
        what = f"a run of {length} cells summing to {total} over {puzzle.values[0]}..{puzzle.values[1]}"
        if kind == "table":
            rows = combos * math.factorial(length)
            if rows > MAX_TABLE_ROWS:
                return ModelSize(refused=f"{what} has {rows:,} orderings, more than the {MAX_TABLE_ROWS:,} a table holds")
            held = count_combinations_within(free, rest, allowed) * math.factorial(free) if given else rows
            matrices = count if given else (key not in _FULL_TABLES and key not in seen)
            size += count * held * length * n * TABLE_BYTES + matrices * held * length * MATRIX_BYTES
            step = max(step, held * TABLE_SECONDS)
        elif combos << length > MAX_AUTOMATON_STATES:  # as run_automaton refuses
            return ModelSize(refused=f"the automaton of {what} may have {combos << length:,} states")
        elif kind == "mdd":
            if transitions > MAX_DIAGRAM_TRANSITIONS:
                return ModelSize(refused=f"the diagram of {what} may come from {transitions:,} transitions, "
                                         f"more than the {MAX_DIAGRAM_TRANSITIONS:,} Choco compiles in one call")
            step = max(step, 0 if key in _DIAGRAMS else transitions * DIAGRAM_SECONDS)
        else:
            held = automaton_bounds(free, rest, allowed)[0] if given else states  # Choco unfolds what the givens allow
            size += count * held**2 * REGULAR_BYTES
            step = max(step, held**2 * REGULAR_SECONDS, 0 if key in _AUTOMATA else transitions * AUTOMATON_SECONDS)
        seen.add(key)
    if size > MAX_MODEL_BYTES:
        return ModelSize(size, step, f"Choco would need about {size / 2**30:,.1f} GiB for it, "
                                     f"more than the {MAX_MODEL_BYTES >> 30} GiB allowed")
    return ModelSize(size, step)


def checked_size(puzzle: Puzzle, kind: str) -> ModelSize:
    """`model_size`, or UnsupportedOperationError in one line saying why the model is refused
    and which model to use instead (mdd when it fits, else decomposition, which always does)."""
    size = model_size(puzzle, kind)
    if size.refused:
        instead = "model=mdd or model=decomposition" if kind != "mdd" and not model_size(puzzle, "mdd").refused \
            else "model=decomposition"
        raise UnsupportedOperationError(f"choco's {kind} model does not fit this puzzle: {size.refused}; use {instead}")
    return size


# --------------------------------------------------------------------- model
@dataclass
class Built:
    """A Choco model of a puzzle: the model, one variable per cell (cell order), the Java
    array of those variables, its stats, and the handles to free with `close`."""

    model: Any
    cells: list[Any]
    cell_array: Any
    stats: dict[str, Stat]
    handles: Handles = field(repr=False)

    def close(self) -> None:
        self.handles.close()


def build_model(puzzle: Puzzle, kind: str = "decomposition", algo: str = "CT+", deadline: Deadline | None = None) -> Built | None:
    """The Choco model of `puzzle`, each run posted as `kind` (see the module docstring); None
    when `deadline` expires while building. Call `close()` on the result when done."""
    from pychoco import Model
    from pychoco.constraints.constraint import Constraint

    if kind not in MODELS:
        raise UnsupportedOperationError(f"unknown choco model {kind!r}; models: {', '.join(MODELS)}")
    start = time.perf_counter()
    handles = Handles()
    model = Model()
    lo, hi = puzzle.values
    cells = []
    for i in range(puzzle.size):
        if i % CHECK_EVERY == 0 and deadline is not None and deadline.expired():
            return None
        cells.append(model.intvar(puzzle.givens[i]) if i in puzzle.givens else model.intvar(lo, hi))
    size = count = 0
    try:
        for run in puzzle.groups:
            posted = _run_constraints(model, puzzle, run, cells, kind, algo, handles, deadline or Deadline())
            if posted is None or (deadline is not None and deadline.expired()):
                handles.close()
                return None
            for handle in posted[0]:
                Constraint(handle, model).post()  # type: ignore[abstract]  # pychoco's own way to wrap a handle
            count += len(posted[0])
            size += posted[1]
    except BaseException:
        handles.close()
        raise
    stats: dict[str, Stat] = {"num_vars": puzzle.size, "num_constraints": count}
    if kind == "table":
        stats["num_tuples"] = size
    elif kind in ("regular", "mdd"):
        stats["num_states"] = size
    stats["build_time"] = time.perf_counter() - start
    return Built(model, cells, handles.variables(cells), stats, handles)


def _run_constraints(
    model: Any, puzzle: Puzzle, run: Group, cells: list[Any], kind: str, algo: str, handles: Handles, deadline: Deadline
) -> tuple[list[Any], int] | None:
    """The constraint handles modelling one run, and its table rows or automaton states;
    None when `deadline` expires while a table is moved into Choco."""
    from pychoco import backend

    members = handles.variables([cells[i] for i in run.cells])
    key = (len(run), run.total, puzzle.values)
    if not run.stated:  # a Sudoku group holds every value once: all_different is its whole rule, in any model
        return [backend.all_different(model._handle, members, "AC")], 0
    if kind == "decomposition":
        alldiff = [backend.all_different(model._handle, members, "AC")] if len(run) > 1 else []
        return alldiff + [backend.sum_iv_i(model._handle, members, "=", run.total)], 0
    if kind == "regular":
        return [backend.regular(model._handle, members, _automaton(*key))], len(run_automaton(*key).states)
    if kind == "mdd":
        return [backend.mddc(model._handle, members, _diagram(*key))], len(run_automaton(*key).states)
    full = range_mask(puzzle.values)
    domains = tuple(1 << puzzle.givens[i] if i in puzzle.givens else full for i in run.cells)
    table = _table(key, domains, handles, deadline)
    if table is None:
        return None
    matrix, rows = table
    if rows == 0:  # no permutation fits the givens: post a constraint that always fails
        return [backend.arithm_iv_cst(model._handle, cells[run.cells[0]]._handle, ">", puzzle.values[1])], 0
    return [backend.table(model._handle, members, matrix, True, algo)], rows
