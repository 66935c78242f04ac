"""A small complete backend: depth-first search, smallest domain first, pure Python."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import kakuro
from kakuro import Deadline, Enumeration, Option, Puzzle, Status


class TimeUp(Exception):
    """The deadline passed during the search."""


def fillings(puzzle: Puzzle, order: str, deadline: Deadline) -> Iterator[list[int]]:
    """Every solution of `puzzle`, one value per white cell, by depth-first search."""
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

    def search(nodes: list[int]) -> Iterator[list[int]]:
        nodes[0] += 1
        if nodes[0] % 1000 == 0 and deadline.expired():
            raise TimeUp
        free = [cell for cell in range(puzzle.size) if values[cell] is None]
        if not free:
            yield [value for value in values if value is not None]
            return
        options = {cell: [v for v in range(low, high + 1) if fits(cell, v)] for cell in free}
        cell = min(free, key=lambda c: len(options[c])) if order == "dom" else free[0]
        for value in options[cell]:
            values[cell] = value
            yield from search(nodes)
        values[cell] = None

    if all(fits(cell, value) for cell, value in puzzle.givens.items()):
        yield from search([0])


@kakuro.register("tutorial")
class Tutorial(kakuro.EnumeratingSolver):
    """Depth-first search with a choice of variable order: complete, so it proves
    unsatisfiability and counts; solving is counting up to one (`EnumeratingSolver`)."""

    description = "pure-Python depth-first search, smallest domain first (the plug-in tutorial)"
    paradigm = "backtracking"
    supports_seed = False      # nothing random in it
    options = {"order": Option("dom", help="dom: smallest domain first; input: cell order", choices=("dom", "input"))}

    def _count(self, puzzle: Puzzle, opts: Mapping[str, Any], limit: int, deadline: Deadline,
               seed: int) -> Enumeration:
        found: list[list[int]] = []
        try:
            for solution in fillings(puzzle, opts["order"], deadline):
                found.append(solution)
                if len(found) == limit:
                    return Enumeration(found, exhausted=False)
        except TimeUp:
            return Enumeration(found, exhausted=False, message="time limit reached")
        return Enumeration(found, exhausted=True)


if __name__ == "__main__":
    puzzle = kakuro.read("instances/examples/puzzlink-6x5.txt")[0]
    result = kakuro.solve(puzzle, "tutorial", time_limit=10)
    print(result.status, result.backend, result.solution is not None)
    assert result.status is Status.SOLVED             # and checked by puzzle.check, as for every backend
    print(kakuro.count_solutions(puzzle, "tutorial:order=input"))   # exactly 1 solution (...)
    print(kakuro.backend_info("tutorial")[0].options["order"].default)
