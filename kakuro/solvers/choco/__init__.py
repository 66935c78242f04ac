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
restricted by givens are built per puzzle); `kakuro.solvers.choco.models` builds them.

Size and limits. Before anything is built, `model_size` estimates from counts (in milliseconds)
what the model would take: a model Choco cannot hold (a run with more than `MAX_TABLE_ROWS`
orderings, an automaton over `MAX_AUTOMATON_STATES` states, a diagram from over
`MAX_DIAGRAM_TRANSITIONS` transitions, or over `MAX_MODEL_BYTES` in all: wide value ranges of
Cazenave grids, where `regular` grows with the square of its states) is refused at once with one
line naming the model to use (the decomposition always fits). A model estimated too large to
build here (`IN_PROCESS_BYTES`, or one Choco call longer than `IN_PROCESS_STEP`, which no deadline
stops) is built and searched in a forked child (`kakuro.isolation`), killed `GRACE` after the
deadline or on Ctrl-C; Java out of memory ends the process it is in, so it ends that child and
the solve is an ERROR saying so, never the caller. Other models are built here, checked against
the deadline as they grow, and searched in a forked child: Choco's search in Java ignores
Ctrl-C, so the parent, which notices it, kills the child; the time limit is Choco's own for the
search, and a child still running `GRACE` after the deadline is killed too. Measured on an empty
15x15 grid over 1..16: `regular` ran 40 s and 4.6 GB with a 1 s limit and Java's out-of-memory
error ended the caller; it is now refused in milliseconds.

Search (option `search`): the strategies pychoco 0.4 exposes. The seed feeds `search=random`
(Choco's random variable and value selection); the other strategies are deterministic.

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
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.isolation import ChildProcessFailed, DeadlineReached, call_with_deadline
from kakuro.limits import Limits
from kakuro.options import Option
from kakuro.outcome import Enumeration, Outcome, Stat, Status
from kakuro.puzzle import Puzzle
from kakuro.registry import register
from kakuro.solver import Solver
from kakuro.solvers.choco.models import (
    MODELS,
    TABLE_ALGORITHMS,
    Built,
    ModelSize,
    build_model,
    checked_size,
    model_size,
    precompile,
)

__all__ = ["MODELS", "SEARCHES", "TABLE_ALGORITHMS", "Built", "Choco", "ModelSize", "build_model", "model_size",
           "precompile"]

T = TypeVar("T")
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

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        deadline = limits.deadline
        if checked_size(puzzle, opts["model"]).in_process:
            return _solve_model(puzzle, opts, deadline, seed, False)
        return _in_child(_solve_model, puzzle, opts, deadline, seed, True, deadline=deadline) or _TIMED_OUT

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits, seed: int) -> Enumeration:
        deadline = limits.deadline
        if checked_size(puzzle, opts["model"]).in_process:
            return _count_model(puzzle, opts, limit, deadline, seed, False)
        found = _in_child(_count_model, puzzle, opts, limit, deadline, seed, True, deadline=deadline)
        return found or Enumeration([], False, {}, _TIMED_OUT.message)


GRACE = 0.5
"""Seconds past the deadline the parent waits for the child's answer (Choco stops itself at the
deadline and then reports its statistics) before it kills the child."""
_TIMED_OUT = Outcome(Status.UNKNOWN, None, {}, "time limit reached")


class ChocoDied(RuntimeError):
    """The child process that built or searched a model died (Java out of memory ends the
    process): one line, which the template makes the solve's ERROR."""


def _solve_model(puzzle: Puzzle, opts: Mapping[str, Any], deadline: Deadline, seed: int, isolated: bool) -> Outcome:
    """Build the model, propagate once, search (in a child unless `isolated`: already in one)."""
    built = build_model(puzzle, opts["model"], opts["algo"], deadline)
    if built is None:
        return Outcome(Status.UNKNOWN, None, {}, "time limit reached while building the model")
    try:
        solver, consistent, root_solved = _prepared(built, opts, seed)
        if not consistent:
            return Outcome(Status.UNSATISFIABLE, None, _statistics(solver, built, root_solved), "unsatisfiable at the root")
        if root_solved:
            return Outcome(Status.SOLVED, _values(built), _statistics(solver, built, root_solved))
        if isolated:
            return _search_for_one(solver, built, deadline)
        return _in_child(_search_for_one, solver, built, deadline, deadline=deadline) or Outcome(
            Status.UNKNOWN, None, built.stats, "time limit reached")
    finally:
        built.close()


def _count_model(puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline, seed: int,
                 isolated: bool) -> Enumeration:
    """Up to `limit` solutions, as `_solve_model` finds one."""
    from pychoco import backend

    built = build_model(puzzle, opts["model"], opts["algo"], deadline)
    if built is None:
        return Enumeration([], False, {}, "time limit reached while building the model")
    try:
        solver, consistent, root_solved = _prepared(built, opts, seed)
        if not consistent or root_solved:  # none, or the one solution the root fixed
            found = [_values(built)] if consistent else []
            return Enumeration(found, len(found) < limit, _statistics(solver, built, root_solved))
        backend.set_nogood_recording_from_solutions(solver._handle, built.cell_array)  # no solution twice across restarts
        if isolated:
            return _search_for_many(solver, built, limit, deadline)
        return _in_child(_search_for_many, solver, built, limit, deadline, deadline=deadline) or Enumeration(
            [], False, built.stats)
    finally:
        built.close()


def _prepared(built: Built, opts: Mapping[str, Any], seed: int) -> tuple[Any, bool, bool]:
    """Choco's solver for `built`, its search installed, after one propagation: (the solver, no
    contradiction, every cell fixed). Most published puzzles end here, in the process."""
    solver = built.model.get_solver()
    _configure(solver, built, opts, seed)
    return (solver, *_root(solver, built.cells))


def _values(built: Built) -> list[int]:
    return [x.get_value() for x in built.cells]


def _in_child(function: Callable[..., T], *args: Any, deadline: Deadline) -> T | None:
    """`function(*args)` in a forked child that inherits this process's models and caches:
    Choco in Java ignores Ctrl-C and no limit stops some of its calls, so the parent waits and
    kills the child on Ctrl-C, or `GRACE` after `deadline` (then None). ChocoDied when the child
    dies (Java out of memory ends the process it is in: the child, never the caller)."""
    waiting = deadline.later(GRACE)
    try:
        return call_with_deadline(function, *args, deadline=waiting)
    except DeadlineReached:
        return None
    except ChildProcessFailed as exc:
        raise ChocoDied(f"{exc}; Java may have run out of memory (model=decomposition is the smallest model)") from None


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
