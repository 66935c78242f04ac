"""A small complete backend: depth-first search, smallest domain first, pure Python."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import kakuro
from kakuro import Enumeration, Limits, Option, Puzzle, Status


class Stopped(Exception):
    """The search reached a limit: "time" or "nodes" (its first argument)."""


def fillings(puzzle: Puzzle, order: str, limits: Limits, nodes: list[int]) -> Iterator[list[int]]:
    """Every solution of `puzzle`, one value per white cell, by depth-first search, counting
    its nodes in `nodes[0]` and stopping at `limits` (its deadline and its budget of nodes)."""
    low, high = puzzle.values
    values: list[int | None] = [puzzle.givens.get(cell) for cell in range(puzzle.size)]

    def fits(cell: int, value: int) -> bool:
        """`value` in `cell` keeps every run of the cell able to reach its sum."""
        for r in puzzle.cell_groups[cell]:
            run = puzzle.groups[r]
            placed = [values[c] for c in run.cells if values[c] is not None and c != cell]
            if value in placed:
                return False
            total, free = sum(placed) + value, sum(1 for c in run.cells if values[c] is None and c != cell)
            smallest = total + free * (free + 1) // 2 + free * (low - 1)  # the free cells' least values
            largest = total + free * high - free * (free - 1) // 2
            if not smallest <= run.total <= largest:
                return False
        return True

    def search() -> Iterator[list[int]]:
        if nodes[0] == limits.budget.nodes:  # None: no budget
            raise Stopped("nodes")
        nodes[0] += 1
        if nodes[0] % 1000 == 0 and limits.deadline.expired():
            raise Stopped("time")
        free = [cell for cell in range(puzzle.size) if values[cell] is None]
        if not free:
            yield [value for value in values if value is not None]
            return
        options = {cell: [v for v in range(low, high + 1) if fits(cell, v)] for cell in free}
        cell = min(free, key=lambda c: len(options[c])) if order == "dom" else free[0]
        for value in options[cell]:
            values[cell] = value
            yield from search()
        values[cell] = None

    if all(fits(cell, value) for cell, value in puzzle.givens.items()):
        yield from search()


@kakuro.register("tutorial")
class Tutorial(kakuro.EnumeratingSolver):
    """Depth-first search with a choice of variable order: complete, so it proves
    unsatisfiability and counts; solving is counting up to one (`EnumeratingSolver`)."""

    description = "pure-Python depth-first search, smallest domain first (the plug-in tutorial)"
    paradigm = "backtracking"
    supports_seed = False      # nothing random in it
    budgets = {"nodes": "nodes"}  # it honours a budget of nodes, counted in its stats' "nodes"
    options = {"order": Option("dom", help="dom: smallest domain first; input: cell order", choices=("dom", "input"))}

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, limits: Limits,
               seed: int) -> Enumeration:
        found: list[list[int]] = []
        nodes = [0]
        try:
            for solution in fillings(puzzle, opts["order"], limits, nodes):
                found.append(solution)
                if len(found) == limit:
                    return Enumeration(found, exhausted=False, stats={"nodes": nodes[0]})
        except Stopped as stop:
            return Enumeration(found, exhausted=False, stats={"nodes": nodes[0]}, stopped_by=stop.args[0])
        return Enumeration(found, exhausted=True, stats={"nodes": nodes[0]})


if __name__ == "__main__":
    puzzle = kakuro.read("instances/examples/puzzlink-6x5.txt")[0]
    result = kakuro.solve(puzzle, "tutorial", time_limit=10)
    print(result.status, result.backend, result.solution is not None)
    assert result.status is Status.SOLVED             # and checked by puzzle.check, as for every backend
    print(kakuro.count_solutions(puzzle, "tutorial:order=input"))   # exactly 1 solution (...)
    print(kakuro.backend_info("tutorial")[0].options["order"].default)
    stopped = kakuro.solve(puzzle, "tutorial", time_limit=10, budget=kakuro.Budget(nodes=3))
    print(stopped.status, stopped.stopped_by, stopped.stats["nodes"], stopped.message)
