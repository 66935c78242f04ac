"""Every complete backend on Jigsaw 4x4 to 9x9 and Sudoku X (issue 43), each puzzle built through
the public constructors (`Puzzle.jigsaw`, `Puzzle.sudoku(..., diagonals=True)`): each backend
solves it (the answer checked by `puzzle.check`) and counts its solutions to 2, and the counts
agree with a brute force (4x4) or with the unique puzzle's one solution; a puzzle with several
solutions counts 2 everywhere. Slow backends get the small puzzles only."""

from __future__ import annotations

import functools

import pytest

import kakuro
from kakuro import Puzzle, Status
from tests.conftest import AVAILABLE
from tests.reference import four_by_four_count

JIGSAWS = {
    4: "13..3...4.......1222111233343444",
    5: "3......1......2..51......1123311223412334425544555",
    6: "4.......32...6........2.....3.3.5...111222113324133224553344555664566664",
    7: ".....6....2....7..51.......6...7......3..........1112344112234411233445523346522376655577665777766",
    8: (".7..4...4....7......5........61...8...5....7.....3......2..38..7"
        "1112233341222233412253334155566741556667415566674488887748888777"),
    9: ("4....7...5.6......7..3.86......9..2........713.....25.............4..3..1.3...8.."
        "111122222111132224555133324555633334556677344588677449888677949886679949886677999"),
}
"""Unique Jigsaws (`unique_jigsaw(n, seed=n)`), one line each: n x n givens, then region labels."""
XS = {
    4: "........2....14.",
    9: "7........6.2....7...16..3...38.........1..8..........6..6.......9..85..4......7..",
}
"""Unique Sudoku X (`unique_sudoku(n, seed=7, diagonals=True)`)."""
JIGSAW_X_6 = "........2.............6.5...4....3..111122112223444233445533455663556666"
"""A unique 6x6 Jigsaw X (`unique_jigsaw(6, seed=2, diagonals=True)`)."""
SLOW = {"backtrack": 6}
"""Backends that take the small puzzles only, with the largest side they get: stack-based
backtracking without propagation takes seconds on a 9x9 Jigsaw."""
INFO = {info.name: info for info in kakuro.backend_info(*AVAILABLE)}
COMPLETE = [name for name in AVAILABLE if INFO[name].complete]


def grid(line: str, n: int) -> list[list[int]]:
    return [[0 if ch == "." else int(ch) for ch in line[r * n:(r + 1) * n]] for r in range(n)]


def jigsaw(line: str, diagonals: bool = False) -> Puzzle:
    """The Jigsaw of a one-line text, read here and built by `Puzzle.jigsaw`."""
    n = int((len(line) // 2) ** 0.5)
    regions: dict[str, list[tuple[int, int]]] = {}
    for i, label in enumerate(line[n * n:]):
        regions.setdefault(label, []).append(divmod(i, n))
    return Puzzle.jigsaw(grid(line, n), list(regions.values()), diagonals=diagonals)


@functools.cache
def unique_puzzles() -> tuple[Puzzle, ...]:
    return (*(jigsaw(line) for line in JIGSAWS.values()),
            *(Puzzle.sudoku(grid(line, n), diagonals=True) for n, line in XS.items()),
            jigsaw(JIGSAW_X_6, diagonals=True))


def test_the_puzzles_are_what_this_test_says() -> None:
    kinds = [p.kind for p in unique_puzzles()]
    assert kinds == ["jigsaw"] * 6 + ["sudoku-x"] * 2 + ["jigsaw-x"]
    assert [p.rows for p in unique_puzzles()] == [4, 5, 6, 7, 8, 9, 4, 9, 6]
    assert [four_by_four_count(p) for p in unique_puzzles() if p.rows == 4] == [1, 1]


@pytest.mark.parametrize("backend", COMPLETE)
def test_every_complete_backend_solves_and_counts_jigsaws_and_sudoku_x(backend: str) -> None:
    largest = SLOW.get(backend, 9)
    for puzzle in unique_puzzles():
        if puzzle.rows > largest:
            continue
        result = kakuro.solve(puzzle, backend, time_limit=60, seed=1)
        assert result.status is Status.SOLVED, (backend, puzzle, result.message)
        assert result.solution is not None and puzzle.check(result.solution) == []
        count = kakuro.count_solutions(puzzle, backend, limit=2, time_limit=60)
        assert (count.count, count.exhausted) == (1, True), (backend, puzzle, count.message)
        assert count.solutions[0].values == result.solution.values


SEVERAL = (Puzzle.jigsaw([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
                         [[(0, 0), (0, 1), (0, 2), (1, 0)], [(0, 3), (1, 1), (1, 2), (1, 3)],
                          [(2, 0), (2, 1), (3, 0), (3, 1)], [(2, 2), (2, 3), (3, 2), (3, 3)]]),
           Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], diagonals=True))
"""4x4 puzzles with several solutions, counted in full against the brute force."""


@pytest.mark.parametrize("backend", COMPLETE)
def test_counts_of_puzzles_with_several_solutions_agree_with_brute_force(backend: str) -> None:
    for puzzle in SEVERAL:
        expected = four_by_four_count(puzzle)
        assert expected > 2
        count = kakuro.count_solutions(puzzle, backend, limit=expected + 1, time_limit=60)
        assert (count.count, count.exhausted) == (expected, True), (backend, puzzle, count.message)
        assert all(puzzle.check(solution) == [] for solution in count.solutions)
        capped = kakuro.count_solutions(puzzle, backend, limit=2, time_limit=60)
        assert (capped.count, capped.exhausted) == (2, False), (backend, puzzle, capped.message)
