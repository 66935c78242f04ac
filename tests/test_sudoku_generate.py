"""Unique Sudoku and Killer Sudoku generators (`kakuro.generate.unique_sudoku`) and `kakuro
generate sudoku` / `kakuro generate killer`: every puzzle made unique is checked unique by a
backend other than the one that made it, a minimal Sudoku needs each of its givens, and bad
parameters get one clear error."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import kakuro
from kakuro import KakuroError, Puzzle
from kakuro.cli import main
from kakuro.errors import LimitReachedError
from kakuro.generate import unique_sudoku as module
from kakuro.generate.sudoku_grids import full_grid
from kakuro.generate.unique_sudoku import unique_killer, unique_sudoku
from kakuro.reasoning import root

CHECKER = "sat"
"""Another engine than the generator's `gac` confirms uniqueness."""


def givens_grid(puzzle: Puzzle) -> list[list[int]]:
    n = puzzle.rows
    grid = [[0] * n for _ in range(n)]
    for cell, digit in puzzle.givens.items():
        r, c = puzzle.cells[cell]
        grid[r][c] = digit
    return grid


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_a_unique_sudoku_is_unique_and_minimal() -> None:
    puzzle = unique_sudoku(9, seed=1)
    assert kakuro.count_solutions(puzzle, CHECKER, limit=2).unique
    grid, full = givens_grid(puzzle), full_grid(9, seed=1)
    assert all(v in (0, full[r][c]) for r, row in enumerate(grid) for c, v in enumerate(row))
    assert puzzle.meta["minimal"] == "yes" and int(puzzle.meta["givens"]) == len(puzzle.givens) < 30
    for cell in random.Random(0).sample(sorted(puzzle.givens), 6):  # any given emptied: a second solution
        r, c = puzzle.cells[cell]
        fewer = [list(row) for row in grid]
        fewer[r][c] = 0
        assert kakuro.count_solutions(Puzzle.sudoku(fewer), CHECKER, limit=2).count == 2


def test_a_unique_sudoku_stops_at_the_share_asked_and_takes_rectangular_boxes() -> None:
    puzzle = unique_sudoku(9, seed=2, empty=0.5)
    assert 81 - len(puzzle.givens) == round(0.5 * 81) and puzzle.meta["minimal"] == "no"
    assert kakuro.count_solutions(puzzle, CHECKER, limit=2).unique
    six = unique_sudoku(6, seed=3, box=(2, 3))
    assert six.box == (2, 3) and kakuro.count_solutions(six, CHECKER, limit=2).unique


def test_a_sudoku_share_beyond_uniqueness_or_time_is_one_clear_error() -> None:
    with pytest.raises(KakuroError, match=r"every given left is needed at \d+ empty"):
        unique_sudoku(9, seed=0, empty=0.9)
    with pytest.raises(KakuroError, match="the time limit ran out"):
        unique_sudoku(9, seed=0, empty=0.6, time_limit=1e-9)
    with pytest.raises(KakuroError, match="empty must be a share"):
        unique_sudoku(9, empty=60)
    with pytest.raises(KakuroError, match="incomplete"):
        unique_sudoku(4, backend="nmcs")


def test_a_unique_killer_is_unique_with_connected_cages_of_the_full_grid() -> None:
    for seed in (0, 1):
        puzzle = unique_killer(6, seed=seed, box=(2, 3))
        assert kakuro.count_solutions(puzzle, CHECKER, limit=2).unique
        full = full_grid(6, (2, 3), seed)
        assert not puzzle.givens and sorted(c for cage in puzzle.cages for c in cage.cells) == list(range(36))
        for cage in puzzle.cages:
            cells = {puzzle.cells[i] for i in cage.cells}
            assert len(cells) <= 6 and cage.total == sum(full[r][c] for r, c in cells)
            assert connected(cells)
    assert int(unique_killer(6, seed=0, box=(2, 3)).meta["splits"]) > 0  # the grown cages alone were not unique


def test_a_unique_killer_runs_out_of_time_with_one_clear_error() -> None:
    with pytest.raises(KakuroError, match="within the time limit"):
        unique_killer(9, seed=0, time_limit=1e-9)


def test_a_deadline_passed_between_its_check_and_a_count_is_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock may pass the deadline between `expired()` and the count: the count then had a
    limit of 0 s, which a solve refuses (BackendOptionError: exit 2 on the command line, a
    usage error, under load). Injected: the first look says there is time, none is left."""
    looks = iter([False])

    class Racing(module.Deadline):
        def expired(self) -> bool:
            return next(looks, True)

        def remaining(self) -> float | None:
            return 0.0

    monkeypatch.setattr(module.Deadline, "after", classmethod(lambda cls, seconds: Racing(0.0)))
    with pytest.raises(LimitReachedError, match="within the time limit"):
        unique_killer(9, seed=0, time_limit=10)


def connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for step in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if step in cells and step not in seen:
                seen.add(step)
                todo.append(step)
    return seen == cells


@pytest.mark.parametrize("seed", range(20))
def test_a_split_cage_gives_connected_parts_covering_it(seed: int) -> None:
    rng = random.Random(seed)
    cage = [(0, 0)]
    while len(cage) < rng.randint(2, 9):
        r, c = rng.choice(cage)
        step = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
        if step not in cage:
            cage.append(step)
    parts = module._split(cage, rng.choice(cage), rng)
    assert len(parts) >= 2 and sorted(cell for part in parts for cell in part) == sorted(cage)
    assert all(connected(set(part)) for part in parts)


def test_generate_sudoku_and_killer_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "generate", "sudoku", "--size", "4", "--count", "2", "--seed", "3")
    assert code == 0 and [len(p.givens) for p in kakuro.read(out, format="sudoku")] == [8, 8]
    target = tmp_path / "six.sudoku"
    code, out, _ = run(capsys, "generate", "sudoku", "--size", "6", "--box", "2x3", "--unique", "-o", target)
    assert code == 0 and "wrote 1 puzzle" in out
    made = kakuro.read(target)[0]
    assert made.box == (2, 3) and kakuro.count_solutions(made, CHECKER, limit=2).unique
    before = target.read_text()
    code, _, err = run(capsys, "generate", "sudoku", "--size", "4", "-o", target)
    assert code != 0 and "already exists" in err and target.read_text() == before
    code, out, _ = run(capsys, "generate", "killer", "--size", "4", "--unique", "--seed", "1")
    killer = kakuro.read(out, format="killer")[0]
    assert code == 0 and killer.kind == "killer" and kakuro.count_solutions(killer, CHECKER, limit=2).unique


@pytest.mark.parametrize(("argv", "message"), [
    (("sudoku", "--size", "7"), "no square boxes"),
    (("sudoku", "--size", "6", "--box", "2x2"), "do not tile"),
    (("sudoku", "--box", "3y3"), "must be a box shape"),
    (("sudoku", "--unique", "--empty", "90"), "every given left is needed"),
    (("killer", "--size", "4", "--largest", "7"), "largest must be a cage size"),
])
def test_generate_sudoku_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str) -> None:
    code, _, err = run(capsys, "generate", *argv)
    assert code != 0 and message in err and len(err.strip().splitlines()) in (1, 4)  # 4: argparse's usage + error


SHAVED_KILLER = """\
a a j | i i r | r r e
a a a | i b r | b b b
s a a | b b b | b h h
------+-------+------
s m m | m b n | n q h
s m m | p p q | q q q
s l l | p p q | q g g
------+-------+------
s o l | c p g | g g g
o o l | c c f | f f k
o o o | c c f | d d d
a=32 b=45 c=30 d=18 e=6 f=17 g=27 h=16 i=14 j=9
k=4 l=17 m=24 n=7 o=24 p=26 q=35 r=23 s=31
"""
"""A Killer that `unique_killer(9, seed=2)` counts on its way (two solutions): shaving bounded
as for Kakuro (100 dry revisions per run) stopped before the fixpoint's 40 removals and left gac's
count past 10 s, so `kakuro generate killer --unique --seed 2` ran into its 600 s."""


def test_a_killer_is_shaved_to_the_fixpoint(tmp_path: Path) -> None:
    """The default shaving reaches the fixpoint's domains on it (what the search starts from; the
    count's time is the search's luck: 0.1 to 4 s by seed, so no time is asserted)."""
    path = tmp_path / "shaved.killer"
    path.write_text(SHAVED_KILLER, encoding="utf-8")
    puzzle = kakuro.read(path)[0]
    default = root.reduce(puzzle, kakuro.get_solver("gac").settings["shaving"])
    fixpoint = root.reduce(puzzle, "fixpoint")
    assert fixpoint.removed_shaving > 0 and not default.cut
    assert default.domains == fixpoint.domains
    count = kakuro.count_solutions(puzzle, "sat", limit=2)
    assert (count.count, count.exhausted) == (2, False), count.message
