"""The Sudoku family through its own compiled search (`kakuro.native.family`), for the native
backends that take it (`gac` and `auto`, option `family`): one puzzle (`family_count`, their
`_count`) or a stream of them (`family_results`, their `solve_many`).

The search takes the Sudoku family: Sudoku, Jigsaw, Sudoku X, and Killers over at most 16
values (`kakuro.native.family.family_refusal`; not a Kakuro). Its state is built once per
shape (a puzzle without its givens and cages: its houses) and kept for the next puzzle of that
shape (`shape_for`: the last `SHAPES_KEPT` shapes of this process), so a compare worker or a
solve loop builds a 9x9 grid's state once, and Killers of one grid share it.

A stream: its first puzzle goes through `Solver.solve` (which validates the time limit and the
seed and pays the one-time costs), and so does any puzzle the search does not take. The others
are gathered by shape in batches (1, 2, 4, ... up to `BATCH` puzzles, cut at a puzzle of another
shape) and each batch is searched in one compiled call, `time_limit` seconds for each puzzle.
A puzzle the family search gives up on after GUESSES guesses (a heavy tail) goes to the backend's
own search (`family=false`) for the time left.
Every answer is checked by the compiled check of the puzzle's own rules (the engine's `verify`:
its values in range, its givens kept, no value twice and every total met in each of its groups,
which is what `Puzzle.check` checks, and tests/test_family_search.py holds them to the same
verdicts); an answer it rejects goes to `Puzzle.check`, which has the last word and names the
broken rules of a WRONG result, as the template's. A `Result`'s `time` is its search's time
plus its share of the batch's Python work (the check excluded, as in `Solver.solve`).

Stats: `path` "family", `nodes` (guesses), `fails` (guesses refuted by propagation) and
`root_solved` (decided without a guess).
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from types import MappingProxyType

from kakuro.clock import Deadline
from kakuro.limits import Budget
from kakuro.native.family import (
    CODE,
    COUNT,
    CUT,
    EXHAUSTED,
    FAILS,
    NODES,
    STOPPED,
    TIME,
    Shape,
    family_refusal,
    house_count,
    search,
    shape_key,
    shape_of,
    solve_checked,
    takes_cages,
)
from kakuro.native.kernels import compile_off_clock, warm
from kakuro.native.settings import FAMILY_KERNELS, FAMILY_SEARCH_KERNEL
from kakuro.options import Option
from kakuro.outcome import TIME_LIMIT_REACHED, Enumeration, Result, Stat, Status, as_returned, checked_solution, rejection
from kakuro.puzzle import Puzzle
from kakuro.solution import Solution
from kakuro.solver import Solver

SHAPES_KEPT = 16
"""Shapes whose search state a process keeps (the least recently used goes first)."""
BATCH = 256
"""Puzzles searched in one compiled call at the most (a batch's answers come out together)."""
GUESSES = 20_000
"""Guesses after which the family search gives a puzzle up to the backend's own search (its
run-level search restarts, learns and orders by conflicts: the family search's depth-first
search has heavy tails on some large or caged grids, 1.5 million guesses in 20 s on a 25x25
with 55 % empty cells that `gac:family=false` solves in 0.1 s)."""
MOST_KEPT_BYTES = 1 << 26
"""A count keeps every solution it finds (one byte a cell): above this many bytes (64 MiB,
800,000 solutions of a 9x9) `family_count` declines and the run-level search, which hands its
solutions out in chunks, counts."""

FAMILY = Option(True, "a Sudoku, Jigsaw or Sudoku X (every group one cell per value) goes to the Sudoku family's own "
                      "search (naked and hidden singles, locked candidates: kakuro.native.family), its state kept per "
                      "shape, and solve_many searches such puzzles in batches; false: the run-level search, as a Kakuro")
"""The option `family` of the backends that hand the family to its search (`FamilySolver`)."""


class FamilySolver(Solver):
    """A backend whose option `family` (FAMILY) sends Sudoku-family puzzles to the family search:
    its `_count` asks `family_count` first; its `solve_many` goes through `family_results`."""

    def _solve_many(self, puzzles: Iterable[Puzzle], time_limit: float | None, seed: int | None,
                    budget: Budget) -> Iterator[Result]:
        if self.settings["family"] and not budget.asked():  # the family search counts no budget
            return family_results(self, puzzles, time_limit, seed)
        return super()._solve_many(puzzles, time_limit, seed, budget)


_shapes: OrderedDict[tuple[object, ...], Shape | None] = OrderedDict()


def shape_for(puzzle: Puzzle) -> Shape | None:
    """The family search's `Shape` for `puzzle`'s shape, built the first time and kept; None
    when the search does not take the puzzle."""
    key = shape_key(puzzle)
    if key in _shapes:
        _shapes.move_to_end(key)
        shape = _shapes[key]
    else:
        shape = shape_of(puzzle) if family_refusal(puzzle) is None else None
        _shapes[key] = shape
        if len(_shapes) > SHAPES_KEPT:
            _shapes.popitem(last=False)
    return shape if shape is not None and _takes(shape, puzzle) else None


def _takes(shape: Shape, puzzle: Puzzle) -> bool:
    """Whether the search with `shape` takes `puzzle` (of that shape): its cages, if any."""
    return len(puzzle.groups) == house_count(puzzle) or takes_cages(shape.state)


def family_count(puzzle: Puzzle, limit: int, deadline: Deadline) -> Enumeration | None:
    """Up to `limit` solutions of `puzzle` by the family search within `deadline` (a backend's
    `_count`), or None when the search does not take the puzzle (or `limit` solutions would
    take more than MOST_KEPT_BYTES), or gave up after GUESSES (and 10 a solution asked for):
    the backend's own search takes it then. The solutions are unchecked: the template checks
    them."""
    shape = shape_for(puzzle)
    if shape is None or limit * puzzle.size > MOST_KEPT_BYTES:
        return None
    deadline = compile_off_clock((FAMILY_SEARCH_KERNEL,), deadline=deadline)  # unchecked answers: no `verify`
    batch = search(shape, puzzle, limit, deadline, GUESSES + 10 * limit)
    outcome = batch.outcomes[0]
    if outcome[CODE] == CUT:
        return None
    stats = _stats(outcome)
    if outcome[CODE] == STOPPED:
        return Enumeration(batch.answers[0, : outcome[COUNT]].tolist(), False, stats, TIME_LIMIT_REACHED)
    return Enumeration(batch.answers[0, : outcome[COUNT]].tolist(), bool(outcome[CODE] == EXHAUSTED), stats)


def family_results(solver: Solver, puzzles: Iterable[Puzzle], time_limit: float | None,
                   seed: int | None) -> Iterator[Result]:
    """The `Result` of each of `puzzles` in order, as `solver.solve(puzzle, time_limit=time_limit,
    seed=seed)` gives it: the family search in batches for the puzzles it takes (see the module
    docstring), `solver.solve` for the first and for the others."""
    stream = iter(puzzles)
    for first in stream:
        yield solver.solve(first, time_limit=time_limit, seed=seed)
        break
    size = 1
    batch: list[Puzzle] = []
    shape: Shape | None = None
    while True:
        try:
            puzzle = next(stream)
        except StopIteration:
            break
        except BaseException:  # a puzzle that could not be read (or Ctrl-C): the results before it first
            if shape is not None and batch:
                yield from _solved(solver, seed, shape, batch, time_limit)
            raise
        found = _shape_like(puzzle, shape)
        if shape is not None and found is not shape and batch:
            yield from _solved(solver, seed, shape, batch, time_limit)
            batch = []
        shape = found
        if found is None:
            yield solver.solve(puzzle, time_limit=time_limit, seed=seed)
            continue
        batch.append(puzzle)
        if len(batch) >= size:
            yield from _solved(solver, seed, found, batch, time_limit)
            size, batch = min(2 * size, BATCH), []
    if shape is not None and batch:
        yield from _solved(solver, seed, shape, batch, time_limit)


def _shape_like(puzzle: object, last: Shape | None) -> Shape | None:
    """`shape_for(puzzle)`, `last` itself when the puzzle has its shape (compared, not hashed:
    the key's cells are tuples shared by the puzzles of a shape); None for what is no Puzzle."""
    if not isinstance(puzzle, Puzzle):
        return None
    if last is not None and shape_key(puzzle) == last.key:
        return last if _takes(last, puzzle) else None
    return shape_for(puzzle)


def _results(shape: Shape, puzzles: list[Puzzle], time_limit: float | None, spec: str) -> list[Result | float]:
    """The checked `Result`s of `puzzles`, searched in one call: each of `shape`'s shape, as
    `_shape_like` found (its key compared with `shape.key`); for a puzzle given up after
    GUESSES, the seconds spent on it instead."""
    warm(*FAMILY_KERNELS)  # before the batch's clock, once per process: a stream of Kakuro never loads them
    start = time.perf_counter()
    answers = solve_checked(shape, puzzles, budget=time_limit, cap=GUESSES)
    batch = answers.batch
    values = batch.answers[:, 0].tolist()
    outcomes = batch.outcomes.tolist()
    broken = answers.broken[:, 0].tolist()
    share = (time.perf_counter() - start - batch.outcomes[:, TIME].sum() / 1e9) / len(puzzles)
    out: list[Result | float] = []
    for i, puzzle in enumerate(puzzles):
        outcome = outcomes[i]
        seconds = max(0.0, float(outcome[TIME] / 1e9 + share))
        stats = MappingProxyType(_stats(outcome))
        if outcome[CODE] == CUT:
            out.append(seconds)
        elif outcome[COUNT] == 0:
            stopped = i >= batch.searched or outcome[CODE] == STOPPED
            status = Status.UNKNOWN if stopped else Status.UNSATISFIABLE
            out.append(Result(status, None, seconds, stats, TIME_LIMIT_REACHED if stopped else "", spec))
        elif broken[i] == 0:
            out.append(Result(Status.SOLVED, Solution(puzzle, values[i]), seconds, stats, "", spec))
        else:
            out.append(_rejected(puzzle, values[i], seconds, stats, spec))
    return out


def _solved(solver: Solver, seed: int | None, shape: Shape, puzzles: list[Puzzle],
            time_limit: float | None) -> Iterator[Result]:
    """The Results of a batch (`_results`), those the family search gave up on (the seconds it
    spent) solved by the backend's own search in the time left (`family=false`), each Result's
    time counting both."""
    for puzzle, result in zip(puzzles, _results(shape, puzzles, time_limit, solver.spec)):
        if isinstance(result, Result):
            yield result
            continue
        left = None if time_limit is None else time_limit - result
        if left is not None and left <= 0:
            yield Result(Status.UNKNOWN, None, result, {}, TIME_LIMIT_REACHED, solver.spec)
            continue
        own = solver.solve(puzzle, time_limit=left, seed=seed, family=False)
        yield dataclasses.replace(own, time=own.time + result, backend=solver.spec)


def _rejected(puzzle: Puzzle, values: list[int], seconds: float, stats: MappingProxyType[str, Stat],
              spec: str) -> Result:
    """The Result of an answer the compiled check rejected: `Puzzle.check`'s verdict, WRONG with
    its reasons as the template words them."""
    solution, problems = checked_solution(puzzle, values)
    if solution is not None:
        return Result(Status.SOLVED, solution, seconds, stats, "", spec)
    return Result(Status.WRONG, None, seconds, stats, rejection(problems), spec, as_returned(values))


def _stats(outcome: Sequence[int]) -> dict[str, Stat]:
    """A puzzle's stats from its row of `Batch.outcomes`."""
    nodes = int(outcome[NODES])
    return {"path": "family", "nodes": nodes, "fails": int(outcome[FAILS]), "root_solved": nodes == 0}

