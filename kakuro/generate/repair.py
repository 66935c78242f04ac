"""Making a classic puzzle unique by local repair of its filling (counterexample-guided).

The puzzle of a filling F (its run sums) is unique when root GAC plus shaving fixes every cell
(`kakuro.models.gac.reduce`) or a complete count (CP-SAT, limit 2) finds only F. Otherwise:

1. alternatives: for cells GAC leaves open, the cells near one (its runs, then theirs) are
   freed and every other cell is given F's digit; a complete count of that small puzzle
   (backend `gac`) finds an alternative S that differs from F only there. Alternatives with
   disjoint neighbourhoods are collected in one round; when none is local the complete count
   of the whole puzzle supplies one;
2. nogoods: for each independent part D of an alternative (cells linked by shared runs), S's
   digits on D must never again be an alternative: in every later filling some run through D
   has another sum over its D cells, or another cell of such a run takes one of S's digits on D.
   Nogoods accumulate, so a pattern once removed never returns;
3. refill: the neighbourhood of D (growing up to three hops) is refilled by CP-SAT, the rest of
   F fixed, subject to every nogood, preferring run sums with one digit combination.

The starting filling is a CP-SAT filling that prefers such sums (`tight_filling`). A round
budget ends hopeless attempts (the caller starts afresh with a new layout).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from kakuro.combos import combinations
from kakuro.models import gac
from kakuro.puzzle import DEFAULT_VALUES, Puzzle
from kakuro.solver import get_solver

Cell = tuple[int, int]
Filling = dict[Cell, int]

WEIGHTS = {"extreme": 10, "unique": 14, "two": 4}
"""Objective weight of a run sum with one digit set (`extreme`: the smallest or largest sum,
whose set is consecutive digits; `unique`: the others) or with two digit sets (`two`)."""
WEIGHT_NOISE = 6
"""Random weight added per run and sum, so fillings differ between seeds."""
REFILL_SECONDS = 0.003
"""CP-SAT deterministic time per refill (about seconds; deterministic, so runs repeat)."""
LOCAL_COUNT_SECONDS = 5.0


@dataclass(frozen=True)
class Nogood:
    """Digits `other` on the cells `part` must not be an alternative solution again."""

    part: frozenset[Cell]
    other: dict[Cell, int]


def tight_filling(runs: list[list[Cell]], start: Filling, rng: random.Random, seconds: float) -> Filling:
    """A filling (digits all different along each run) that prefers run sums with few digit
    combinations, found by CP-SAT within `seconds` from the hint `start` (returned when CP-SAT
    finds nothing better)."""
    refill = _refill_model(runs, start, set(start), [], rng)
    return refill(seconds) or start


class UniqueRepair:
    """The repair loop of one layout (`runs`) and filling (changed in place by `run`)."""

    def __init__(self, runs: list[list[Cell]], filling: Filling, puzzle_of, rng: random.Random) -> None:
        self.runs = runs
        self.filling = filling
        self.puzzle_of = puzzle_of
        """Callable: filling -> Puzzle of this layout."""
        self.rng = rng
        self.member: dict[Cell, list[list[Cell]]] = {}
        for run in runs:
            for cell in run:
                self.member.setdefault(cell, []).append(run)
        self.nogoods: list[Nogood] = []
        self.rounds = 0
        self.puzzle: Puzzle | None = None
        """The puzzle of the filling as last examined (the unique one after a certified run)."""

    def run(self, max_rounds: int, deadline: float | None = None) -> str | None:
        """Repair until the puzzle is unique: returns how it was certified ("propagation" or
        "count"), or None after `max_rounds` rounds, past the deadline (time.monotonic) or when a
        refill found no filling. Without a deadline the outcome depends only on the inputs."""
        while self.rounds < max_rounds and (deadline is None or time.monotonic() < deadline):
            self.rounds += 1
            self.puzzle = puzzle = self.puzzle_of(self.filling)
            reduction = gac.reduce(puzzle, "fixpoint")
            if reduction.solved:
                return "propagation"
            open_cells = [_interior(puzzle.cells[i]) for i, d in enumerate(reduction.domains) if d & (d - 1)]
            alternatives = self._local_alternatives(puzzle, open_cells)
            if not alternatives:
                remaining = None if deadline is None else max(0.1, deadline - time.monotonic())
                counted = get_solver("cpsat").count_solutions(puzzle, limit=2, time_limit=remaining)
                if counted.unique:
                    return "count"
                alternatives = [self._smallest_part(puzzle, s.values) for s in counted.solutions]
                alternatives = [a for a in alternatives if a][:1]
                if not alternatives:
                    return None
            for other in alternatives:
                if not self._remove(other):
                    return None
        return None

    def _local_alternatives(self, puzzle: Puzzle, open_cells: list[Cell]) -> list[Filling]:
        """Alternatives near open cells, with disjoint neighbourhoods (cells -> other digit)."""
        self.rng.shuffle(open_cells)
        found: list[Filling] = []
        covered: set[Cell] = set()
        for cell in open_cells:
            if cell in covered:
                continue
            for hops in (1, 2):
                other = self._alternative_near(puzzle, cell, hops)
                if other:
                    found.append(other)
                    covered |= self._neighbourhood(other, 2)
                    break
        return found

    def _alternative_near(self, puzzle: Puzzle, cell: Cell, hops: int) -> Filling:
        """The cells where an alternative solution differs from the filling, the filling's digits
        fixed beyond `hops` runs of `cell` ({} when there is none)."""
        free = self._neighbourhood([cell], hops)
        grid = puzzle.to_grid()
        for position in puzzle.cells:
            if _interior(position) not in free:
                grid[position[0]][position[1]] = self.filling[_interior(position)]
        local = Puzzle.from_grid(grid, values=puzzle.values)
        counted = get_solver("gac").count_solutions(local, limit=2, time_limit=LOCAL_COUNT_SECONDS)
        for solution in counted.solutions:
            other = self._differences(local, solution.values)
            if other:
                return other
        return {}

    def _differences(self, puzzle: Puzzle, values) -> Filling:
        return {_interior(p): v for p, v in zip(puzzle.cells, values) if v != self.filling[_interior(p)]}

    def _smallest_part(self, puzzle: Puzzle, values) -> Filling:
        other = self._differences(puzzle, values)
        if not other:
            return {}
        part = min(_independent_parts(list(other), self.runs), key=len)
        return {c: other[c] for c in part}

    def _neighbourhood(self, cells, hops: int) -> set[Cell]:
        """`cells` and every cell within `hops` runs of them."""
        out = set(cells)
        for _ in range(hops):
            for cell in list(out):
                for run in self.member[cell]:
                    out.update(run)
        return out

    def _remove(self, other: Filling) -> bool:
        """Record the nogoods of alternative `other` and refill around it (one, two, then three
        hops); when no filling there meets every nogood, older nogoods near `other` are dropped
        and the nearest hop refilled again. False when even that fails."""
        for part in _independent_parts(list(other), self.runs):
            self.nogoods.append(Nogood(frozenset(part), {c: other[c] for c in part}))
        for hops in (1, 2, 3):
            if self._refill(self._neighbourhood(other, hops)):
                return True
        # the nogoods around `other` leave no filling there: forget those older than this one
        region = self._neighbourhood(other, 3)
        latest = self.nogoods[-1]
        self.nogoods = [n for n in self.nogoods if n is latest or not n.part & region]
        return self._refill(self._neighbourhood(other, 1))

    def _refill(self, region: set[Cell]) -> bool:
        """Refill `region` subject to every nogood (the filling is updated); False if none found."""
        touched = {tuple(run) for cell in region for run in self.member[cell]}
        refill = _refill_model([list(run) for run in touched], self.filling, region, self.nogoods, self.rng,
                               self.member)
        new = refill(REFILL_SECONDS) if refill is not None else None
        if new is None:
            return False
        self.filling.update(new)
        return True


def _refill_model(runs: list[list[Cell]], filling: Filling, region: set[Cell], nogoods: list[Nogood],
                  rng: random.Random, member: dict[Cell, list[list[Cell]]] | None = None):
    """A CP-SAT model giving new digits to the cells of `region` (the others keep `filling`'s),
    all different along `runs` (every run through the region), every nogood satisfied, run sums
    with few combinations preferred, hinted by `filling`. Returns a function seconds -> the new
    digits of the region (None when none found in time), or None when a nogood cannot be met."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    digit = {c: model.NewIntVar(DEFAULT_VALUES[0], DEFAULT_VALUES[1], "") for c in region}

    def value(c: Cell):
        return digit[c] if c in digit else filling[c]

    score = []
    for run in runs:
        free = [digit[c] for c in run if c in digit]
        fixed = {filling[c] for c in run if c not in digit}
        model.AddAllDifferent(free)
        if fixed:
            allowed = cp_model.Domain.FromValues([d for d in range(DEFAULT_VALUES[0], DEFAULT_VALUES[1] + 1) if d not in fixed])
            for var in free:
                model.AddLinearExpressionInDomain(var, allowed)
        total = sum(value(c) for c in run)
        for target, weight in _sum_weights(len(run)).items():
            b = model.NewBoolVar("")
            model.Add(total == target).OnlyEnforceIf(b)
            score.append((weight + rng.randrange(WEIGHT_NOISE), b))
    for nogood in nogoods:
        escapes = _escapes(model, nogood, digit, filling, member or {})
        if escapes is None:
            continue  # already met by fixed digits
        if not escapes:
            return None
        model.AddBoolOr(escapes)
    model.Maximize(sum(w * b for w, b in score))
    for c, var in digit.items():
        model.AddHint(var, filling[c])

    def solve(seconds: float) -> Filling | None:
        """Within `seconds`, else (when undecided, not infeasible) 4 times longer."""
        for factor in (1, 4):
            solver = cp_model.CpSolver()
            solver.parameters.max_deterministic_time = seconds * factor  # reproducible, unlike wall time
            solver.parameters.num_workers = 1
            solver.parameters.random_seed = rng.randrange(1 << 30)
            status = solver.Solve(model)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return {c: int(solver.Value(var)) for c, var in digit.items()}
            if status != cp_model.UNKNOWN:
                return None
        return None

    return solve


def _escapes(model, nogood: Nogood, digit, filling: Filling, member) -> list | None:
    """The literals of which one must hold for `nogood` to be met; None when the fixed digits
    already meet it."""
    from ortools.sat.python import cp_model

    escapes = []
    runs = {tuple(run) for cell in nogood.part for run in member[cell]}
    for run in runs:
        inside = [c for c in run if c in nogood.part]
        target = sum(nogood.other[c] for c in inside)
        if all(c not in digit for c in inside):
            if sum(filling[c] for c in inside) != target:
                return None
        else:
            b = model.NewBoolVar("")
            model.Add(sum(digit[c] if c in digit else filling[c] for c in inside) != target).OnlyEnforceIf(b)
            escapes.append(b)
        used = [nogood.other[c] for c in inside]
        for c in run:
            if c in nogood.part:
                continue
            if c not in digit:
                if filling[c] in used:
                    return None
            else:
                b = model.NewBoolVar("")
                model.AddLinearExpressionInDomain(digit[c], cp_model.Domain.FromValues(used)).OnlyEnforceIf(b)
                escapes.append(b)
    return escapes


def _sum_weights(length: int) -> dict[int, int]:
    """Objective weight of each rewarded sum of a `length`-cell run (see WEIGHTS)."""
    lo = sum(range(DEFAULT_VALUES[0], DEFAULT_VALUES[0] + length))
    hi = sum(range(DEFAULT_VALUES[1] - length + 1, DEFAULT_VALUES[1] + 1))
    weights = {}
    for total in range(lo, hi + 1):
        sets = len(combinations(length, total, DEFAULT_VALUES))
        if sets == 1:
            weights[total] = WEIGHTS["extreme"] if total in (lo, hi) else WEIGHTS["unique"]
        elif sets == 2:
            weights[total] = WEIGHTS["two"]
    return weights


def _independent_parts(cells: list[Cell], runs: list[list[Cell]]) -> list[set[Cell]]:
    """`cells` grouped into the classes of the relation "share a run" (transitively)."""
    parent = {c: c for c in cells}

    def root(c: Cell) -> Cell:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for run in runs:
        inside = [c for c in run if c in parent]
        for c in inside[1:]:
            parent[root(c)] = root(inside[0])
    parts: dict[Cell, set[Cell]] = {}
    for c in cells:
        parts.setdefault(root(c), set()).add(c)
    return list(parts.values())


def _interior(position: tuple[int, int]) -> Cell:
    return position[0] - 1, position[1] - 1
