"""Choco solver backend (pychoco, no JVM): four models of a run, Choco's search strategies,
and solution counting.

Models (option `model`), one or two constraints per run:

- `decomposition`: `all_different` (arc consistency) and `sum` per run. The natural model;
  the paper (../shared/papers/choco-kakuro-gac-regular.txt) explains why it is weak: neither
  constraint sees the other's reasoning.
- `table`: a `table` of the run's feasible permutations (every ordering of every
  combination), restricted to the cells' domains (givens) so the tables stay small; `algo`
  picks Choco's algorithm, `CT+` (compact-table) or `STR2+`. GAC on the whole run.
- `regular`: a `regular` constraint over a finite automaton whose states are the sets of values
  used so far (at most 2^9 for 1..9); the accepting states are the run's combinations. GAC on
  the whole run (Pesant 2004; the paper's model).
- `mdd`: an `mddc` over a multi-valued decision diagram that Choco compiles from the same
  layered automaton (its transitions, not its up to 9! tuples) and compacts.

Tables, automata and diagrams depend only on (length, total, value range): they are built
once per process and reused, because moving 9! tuples into Choco costs about 1.5 s (tables
restricted by givens are built per puzzle). A run with more than `MAX_TABLE_ROWS`
permutations (a KakuroError from `kakuro.combos`) or `kakuro.combos.MAX_AUTOMATON_STATES` states (an
`UnsupportedOperationError`) is refused: wide value ranges of Cazenave grids; the decomposition
has no such limit.

Search (option `search`): the strategies pychoco 0.4 exposes. The seed feeds `search=random`
(Choco's random variable and value selection); the other strategies are deterministic. The
time limit is Choco's own for the search; building the model is checked against it too. The
model is built in the process (so the tables and diagrams cached above are reused) and searched
in a forked child (`kakuro.isolation`): Choco's search in Java ignores Ctrl-C, so the parent,
which notices it, kills the child; a child still running `GRACE` after the deadline is killed too.

Stats: `nodes`, `fails`, `backtracks`, `restarts`, `search_time` (Choco's clock, s),
`root_solved` (one propagation before any decision fixed every cell), `build_time`,
`num_vars`, `num_constraints`, and `num_tuples` (table) or `num_states` (regular, mdd: states
of the automaton, before Choco compacts the diagram).

pychoco 0.4.0 is driven through its `backend` module where its Python layer falls short:
`Solver.get_node_count()` returns the time, `Solver.set_dom_over_w_deg_search` prints debug
lines, `Solver._propagate` drops the contradiction flag, a `"300ms"` time limit is not
0.3 s, and every Java array it makes for a constraint stays alive (about 0.9 MB leaked per
janko puzzle); here each handle made for a solve is destroyed when the solve ends.
`Solver.get_search_state()` leaks several MB per call (the table model's counting grew to
24 GB over the shared puzzles), so whether a search finished is decided by the clock instead.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

import numpy as np

from kakuro.clock import Deadline
from kakuro.combos import combinations, permutation_table, range_mask, run_automaton
from kakuro.engines import Engine
from kakuro.errors import UnsupportedOperationError
from kakuro.isolation import DeadlineReached, call_with_deadline
from kakuro.options import Option
from kakuro.outcome import Enumeration, Outcome, Stat, Status
from kakuro.puzzle import Group, Puzzle
from kakuro.registry import register
from kakuro.solver import Solver

T = TypeVar("T")
MODELS = ("decomposition", "table", "regular", "mdd")
TABLE_ALGORITHMS = ("CT+", "STR2+")
SEARCHES: Mapping[str, str] = {
    "default": "set_default_search",
    "dom_wdeg": "set_dom_over_w_deg_search",
    "dom_wdeg_ref": "set_dom_over_w_deg_ref_search",
    "activity": "set_activity_based_search",
    "min_dom": "set_min_dom_lb_search",
    "min_dom_ub": "set_min_dom_ub_search",
    "chs": "set_conflict_history_search",
    "failure_rate": "set_failure_rate_based_search",
    "failure_length": "set_failure_length_based_search",
    "pick_on_dom": "set_pick_on_dom_search",
    "input_order": "set_input_order_lb_search",
    "random": "set_random_search",
}
"""Option value -> the pychoco backend function that installs the strategy."""

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
class _Handles:
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


def _int_array(values: Sequence[int], handles: _Handles) -> Any:
    from pychoco import backend

    array = handles.keep(backend.create_int_array(len(values)))
    for i, v in enumerate(values):
        backend.int_array_set(array, v, i)
    return array


_FULL_TABLES: dict[tuple[int, int, tuple[int, int]], tuple[Any, int]] = {}
"""Java int[][] of every permutation (and its row count) per (length, total, values)."""


def _table(
    key: tuple[int, int, tuple[int, int]], domains: tuple[int, ...], handles: _Handles, deadline: Deadline
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


@cache
def _automaton(length: int, total: int, values: tuple[int, int]) -> Any:
    """The Choco FiniteAutomaton handle of `run_automaton` (shared by regular constraints)."""
    from pychoco import backend

    spec = run_automaton(length, total, values)
    scratch = _Handles()
    fa = backend.create_fa()
    ids = [backend.add_state(fa) for _ in spec.states]
    backend.set_initial_state(fa, ids[0])
    for source, value, target in spec.transitions:
        backend.add_transition(fa, ids[source], ids[target], _int_array([value], scratch))
    backend.set_final(fa, _int_array([ids[f] for f in spec.finals], scratch))
    scratch.close()
    return fa


@cache
def _diagram(length: int, total: int, values: tuple[int, int]) -> Any:
    """The Choco MDD handle of `run_automaton`: accepting states become the terminal node; laid
    out for variables over the whole value range (cells with givens use a part of it)."""
    from pychoco import Model, backend

    spec = run_automaton(length, total, values)
    if len(spec.transitions) > MAX_DIAGRAM_TRANSITIONS:
        raise UnsupportedOperationError(
            f"the diagram of a run of {length} cells summing to {total} over {values[0]}..{values[1]} would come "
            f"from {len(spec.transitions)} transitions, more than {MAX_DIAGRAM_TRANSITIONS}; use model=regular "
            "or model=decomposition"
        )
    finals = set(spec.finals)
    rows = [[s, v, -1 if t in finals else t] for s, v, t in spec.transitions]
    scratch = _Handles()
    layout = Model()
    matrix = scratch.keep(_int_matrix(rows))
    mdd = backend.create_mdd_transitions(scratch.variables([layout.intvar(*values) for _ in range(length)]), matrix)
    scratch.close()
    return mdd


def precompile(values: tuple[int, int] = (1, 9), kinds: Sequence[str] = ("table", "regular", "mdd")) -> dict[str, float]:
    """Build and cache, for every run over `values`, the full table, automaton and diagram
    (for 1..9: 129 runs, 986,409 tuples, about 125 MB in Choco). Returns seconds per kind.
    Optional: models build what they need on first use. Meant for 1..9; wide ranges hit
    MAX_TABLE_ROWS (KakuroError from kakuro.combos) / MAX_AUTOMATON_STATES (UnsupportedOperationError)."""
    lo, hi = values
    keys = [(n, t, values) for n in range(1, hi - lo + 2) for t in range(n * lo, n * hi + 1) if combinations(n, t, values)]
    builders = {
        "table": lambda key: _table(key, (range_mask(values),) * key[0], _Handles(), Deadline()),
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


# --------------------------------------------------------------------- model
@dataclass
class Built:
    """A Choco model of a puzzle: the model, one variable per cell (cell order), the Java
    array of those variables, its stats, and the handles to free with `close`."""

    model: Any
    cells: list[Any]
    cell_array: Any
    stats: dict[str, Stat]
    handles: _Handles = field(repr=False)

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
    handles = _Handles()
    model = Model()
    lo, hi = puzzle.values
    cells = []
    for i in range(puzzle.size):
        if i % CHECK_EVERY == 0 and deadline is not None and deadline.expired():
            return None
        cells.append(model.intvar(puzzle.givens[i]) if i in puzzle.givens else model.intvar(lo, hi))
    size = count = 0
    try:
        for run in puzzle.runs:
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
    model: Any, puzzle: Puzzle, run: Group, cells: list[Any], kind: str, algo: str, handles: _Handles, deadline: Deadline
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


# --------------------------------------------------------------------- solving
def _configure(solver: Any, built: Built, opts: Mapping[str, Any], seed: int) -> None:
    from pychoco import backend

    install = getattr(backend, SEARCHES[opts["search"]])
    if opts["search"] == "default":
        install(solver._handle)
    elif opts["search"] == "random":
        install(solver._handle, built.cell_array, seed)
    else:
        install(solver._handle, built.cell_array)


def _root(solver: Any, cells: list[Any]) -> tuple[bool, bool]:
    """Propagate once before search: (no contradiction, every cell fixed)."""
    from pychoco import backend

    consistent = bool(backend.propagate(solver._handle))
    return consistent, consistent and all(x.is_instantiated() for x in cells)


def _limit(solver: Any, deadline: Deadline) -> bool:
    """Hand the remaining time to Choco, rounded up so Choco never stops before `deadline`
    (a search that ends before the deadline has therefore finished); False when none is left."""
    remaining = deadline.remaining()
    if remaining is None:
        return True
    if remaining <= 0:
        return False
    solver.limit_time(f"{math.ceil(remaining * 1000) / 1000 + 0.001:.3f}s")  # "300ms" would not mean 0.3 s
    return True


def _search(solver: Any, built: Built) -> bool:
    """One call of Choco's solve (the next solution); True when it found one."""
    from pychoco import backend

    no_criteria = built.handles.keep(backend.create_criterion_array(0))
    return bool(backend.solve(solver._handle, no_criteria))


def _statistics(solver: Any, built: Built, root_solved: bool) -> dict[str, Stat]:
    from pychoco import backend

    handle = solver._handle
    return {
        **built.stats,
        "nodes": int(backend.get_node_count(handle)),
        "fails": int(backend.get_fail_count(handle)),
        "backtracks": int(backend.get_backtrack_count(handle)),
        "restarts": int(backend.get_restart_count(handle)),
        "search_time": float(backend.get_time_count(handle)),
        "root_solved": root_solved,
    }


@register("choco")
class Choco(Solver):
    """Choco solver through pychoco: decomposition, table, regular or MDD model of each run."""

    description = "Choco solver (pychoco): decomposition / table / regular / mdd per run"
    paradigm = "CP"
    complete = True
    supports_seed = True
    engine = Engine("pychoco", pip="pychoco", import_may_exit=True)
    options = {
        "model": Option("mdd", "how each run is modelled: mdd (one GAC constraint per run, the fastest), regular, table, "
                               "or decomposition (AllDifferent + sum: weaker, but the only one for value ranges too wide "
                               "to tabulate)", choices=MODELS),
        "algo": Option("CT+", "table algorithm (model=table)", choices=TABLE_ALGORITHMS),
        "search": Option("default", "Choco search strategy (the seed feeds search=random)", choices=tuple(SEARCHES)),
    }

    @classmethod
    def warm_up(cls) -> None:
        """Load the native library and solve a two-cell model."""
        super().warm_up()
        from pychoco import Model

        model = Model()
        xs = [model.intvar(1, 2) for _ in range(2)]
        model.all_different(xs).post()
        model.get_solver().solve()

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int) -> Outcome:
        built = build_model(puzzle, opts["model"], opts["algo"], deadline)
        if built is None:
            return Outcome(Status.UNKNOWN, None, {}, "time limit reached while building the model")
        try:
            solver, consistent, root_solved = _prepared(built, opts, seed)
            if not consistent:
                return Outcome(Status.UNSATISFIABLE, None, _statistics(solver, built, root_solved), "unsatisfiable at the root")
            if root_solved:
                return Outcome(Status.SOLVED, _values(built), _statistics(solver, built, root_solved))
            return _in_child(_search_for_one, solver, built, deadline=deadline) or Outcome(
                Status.UNKNOWN, None, built.stats, "time limit reached")
        finally:
            built.close()

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int) -> Enumeration:
        from pychoco import backend

        built = build_model(puzzle, opts["model"], opts["algo"], deadline)
        if built is None:
            return Enumeration([], False, {})
        try:
            solver, consistent, root_solved = _prepared(built, opts, seed)
            if not consistent or root_solved:  # none, or the one solution the root fixed
                found = [_values(built)] if consistent else []
                return Enumeration(found, len(found) < limit, _statistics(solver, built, root_solved))
            backend.set_nogood_recording_from_solutions(solver._handle, built.cell_array)  # no solution twice across restarts
            return _in_child(_search_for_many, solver, built, limit, deadline=deadline) or Enumeration([], False, built.stats)
        finally:
            built.close()


GRACE = 0.5
"""Seconds past the deadline the parent waits for the child's answer (Choco stops itself at the
deadline and then reports its statistics) before it kills the child."""


def _prepared(built: Built, opts: Mapping[str, Any], seed: int) -> tuple[Any, bool, bool]:
    """Choco's solver for `built`, its search installed, after one propagation: (the solver, no
    contradiction, every cell fixed). Most published puzzles end here, in the process."""
    solver = built.model.get_solver()
    _configure(solver, built, opts, seed)
    return (solver, *_root(solver, built.cells))


def _values(built: Built) -> list[int]:
    return [x.get_value() for x in built.cells]


def _in_child(function: Callable[..., T], *args: Any, deadline: Deadline) -> T | None:
    """`function(*args, deadline)` in a forked child that inherits the model: Choco's search in
    Java ignores Ctrl-C, so the parent waits and kills the child on Ctrl-C, or `GRACE` after the
    deadline (then None)."""
    waiting = deadline.later(GRACE)
    try:
        return call_with_deadline(function, *args, deadline, deadline=waiting)
    except DeadlineReached:
        return None


def _search_for_one(solver: Any, built: Built, deadline: Deadline) -> Outcome:
    found = _limit(solver, deadline) and _search(solver, built)
    stats = _statistics(solver, built, False)
    if found:
        return Outcome(Status.SOLVED, _values(built), stats)
    if deadline.expired():  # Choco's limit ends after the deadline: see _limit
        return Outcome(Status.UNKNOWN, None, stats, "time limit reached")
    return Outcome(Status.UNSATISFIABLE, None, stats)


def _search_for_many(solver: Any, built: Built, limit: int, deadline: Deadline) -> Enumeration:
    found: list[list[int]] = []
    if _limit(solver, deadline):
        while len(found) < limit and not deadline.expired() and _search(solver, built):
            found.append(_values(built))
    exhausted = len(found) < limit and not deadline.expired()
    return Enumeration(found, exhausted, _statistics(solver, built, False))
