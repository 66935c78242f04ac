"""The write-only exports: DIMACS CNF, MiniZinc, PyCSP3/XCSP3 JSON data."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import kakuro
from kakuro import KakuroError, Puzzle, PuzzleFormatError
from kakuro.formats import FORMATS, dimacs, minizinc, xcsp
from tests.conftest import shared_data_or_skip

EXPORTS = {"dimacs": ".cnf", "minizinc": ".mzn", "xcsp": ".json"}


def with_givens() -> Puzzle:
    return Puzzle.all_white([6, 15, 24], [12, 15, 18], values=(1, 9), givens={(0, 0): 1, (2, 2): 9})


def wide_range() -> Puzzle:
    return Puzzle.all_white([13, 50], [21, 42], values=(1, 30), id="wide")


def solve_cnf(text: str) -> list[int] | None:
    """Solve DIMACS text with a PySAT solver, as an outside user would: the model or None."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    cnf = CNF(from_string=text)
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        return solver.get_model() if solver.solve() else None


def grid_of(puzzle: Puzzle, values: dict[tuple[int, int], int]) -> list[list[object]]:
    return [[values.get((r, c), "#") for c in range(puzzle.cols)] for r in range(puzzle.rows)]


# ----------------------------------------------------------------------------- DIMACS
@pytest.mark.parametrize("make", ["cazenave", "with_givens", "wide_range", "two_solutions"])
def test_dimacs_round_trip_solves_to_a_checked_solution(make: str, request: pytest.FixtureRequest) -> None:
    puzzle = request.getfixturevalue(make) if make in ("cazenave", "two_solutions") else globals()[make]()
    text = kakuro.formats.dumps(puzzle, "dimacs")
    model = solve_cnf(text)
    assert model is not None
    values = dimacs.decode(text, model)
    assert set(values) == set(puzzle.cells)
    assert puzzle.check(grid_of(puzzle, values)) == []


def test_dimacs_of_an_unsatisfiable_puzzle_is_unsatisfiable(unsatisfiable: Puzzle) -> None:
    assert solve_cnf(kakuro.formats.dumps(unsatisfiable, "dimacs")) is None


def test_dimacs_header_maps_every_value_variable(cazenave: Puzzle) -> None:
    text = kakuro.formats.dumps(cazenave, "dimacs")
    lines = text.splitlines()
    problem = [line for line in lines if line.startswith("p cnf ")]
    assert len(problem) == 1
    num_vars, num_clauses = map(int, problem[0].split()[2:])
    assert num_clauses == sum(1 for line in lines if line and not line.startswith(("c", "p")))
    mapped = [tuple(map(int, line.split()[2:])) for line in lines if line.startswith(dimacs.MAP_PREFIX)]
    assert len(mapped) == cazenave.size * 9 and len({m[0] for m in mapped}) == len(mapped)
    assert {(r, c) for _, r, c, _ in mapped} == set(cazenave.cells)
    assert all(1 <= var <= num_vars and 1 <= value <= 9 for var, _, _, value in mapped)


# ----------------------------------------------------------------------------- MiniZinc
def test_minizinc_model_lists_every_run(cazenave: Puzzle) -> None:
    text = kakuro.formats.dumps(with_givens(), "minizinc")
    assert 'include "alldifferent.mzn";' in text and "solve satisfy;" in text
    assert "int: n_runs = 6;" in text and "given_value = [1, 9];" in text
    totals = "array[1..n_runs] of int: total = [24, 25, 20, 26, 24, 18, 26, 28, 26, 21];"
    assert totals in kakuro.formats.dumps(cazenave, "minizinc")


@pytest.mark.skipif(shutil.which("minizinc") is None, reason="the minizinc executable is not installed")
@pytest.mark.parametrize("make", ["cazenave", "with_givens", "wide_range"])
def test_minizinc_solves_the_export(make: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    puzzle = request.getfixturevalue(make) if make == "cazenave" else globals()[make]()
    path = kakuro.write(puzzle, tmp_path / "puzzle.mzn")
    run = subprocess.run(["minizinc", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines() if line and not line.startswith("-")]
    grid = [[int(token) if token != "#" else "#" for token in row] for row in rows]
    assert puzzle.check(grid) == []


# ----------------------------------------------------------------------------- XCSP3 / PyCSP3 JSON
def runs_as_pycsp3_reads_them(data: dict) -> set[tuple[str, int, tuple[tuple[int, int], ...]]]:
    """The runs the PyCSP3-models Kakuro model builds from the data (its h_scope / v_scope):
    from a clue, cells continue while the next position's own clue value is 0 (white)."""
    clues, rows, cols = data["clues"], data["nRows"], data["nCols"]
    runs = set()
    for i in range(rows):
        for j in range(cols):
            if clues[i][j]["x"] > 0:
                cells = tuple((i, k) for k in range(j + 1, cols) if all(clues[i][m]["x"] == 0 for m in range(j + 1, k + 1)))
                runs.add(("across", clues[i][j]["x"], cells))
            if clues[i][j]["y"] > 0:
                cells = tuple((k, j) for k in range(i + 1, rows) if all(clues[m][j]["y"] == 0 for m in range(i + 1, k + 1)))
                runs.add(("down", clues[i][j]["y"], cells))
    return runs


def expected_runs(puzzle: Puzzle) -> set[tuple[str, int, tuple[tuple[int, int], ...]]]:
    return {(run.direction, run.total, tuple(puzzle.cells[c] for c in run.cells)) for run in puzzle.groups}


def test_xcsp_data_describes_the_same_runs(cazenave: Puzzle) -> None:
    puzzles = [cazenave]
    try:
        root = shared_data_or_skip()
    except pytest.skip.Exception:
        root = None
    if root is not None:
        puzzles += kakuro.read(root / "simonis_easy.jsonl")[:3] + kakuro.read(root / "krazydad.jsonl")[:3]
    for puzzle in puzzles:
        data = json.loads(kakuro.formats.dumps(puzzle, "xcsp"))
        assert (data["nRows"], data["nCols"]) == (puzzle.rows, puzzle.cols)
        assert runs_as_pycsp3_reads_them(data) == expected_runs(puzzle), puzzle.id
        white = {(r, c) for r, line in enumerate(data["clues"]) for c, cell in enumerate(line) if cell == {"x": 0, "y": 0}}
        assert white == set(puzzle.cells)


def test_xcsp_refuses_what_the_pycsp3_model_cannot_express() -> None:
    with pytest.raises(KakuroError, match="given"):
        xcsp.dumps([with_givens()])
    with pytest.raises(KakuroError, match="1..9"):
        xcsp.dumps([wide_range()])


# ----------------------------------------------------------------------------- write-only behaviour
@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_exports_are_written_by_extension_and_never_read(name: str, cazenave: Puzzle, tmp_path: Path) -> None:
    module = FORMATS[name]
    assert module.parse is None
    path = kakuro.write(cazenave, tmp_path / f"puzzle{EXPORTS[name]}")
    assert path.read_text() == module.dumps([cazenave])
    for source in (path, path.read_text()):
        with pytest.raises(PuzzleFormatError, match="export format"):
            kakuro.read(source)
    with pytest.raises(PuzzleFormatError, match="export format"):
        kakuro.read(kakuro.formats.dumps(cazenave, "text"), format=name)


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_an_export_holds_one_puzzle(name: str, cazenave: Puzzle, two_solutions: Puzzle) -> None:
    with pytest.raises(KakuroError, match="exactly one puzzle"):
        kakuro.formats.dumps([cazenave, two_solutions], name)


def test_detection_still_reads_puzzles(cazenave: Puzzle, tmp_path: Path) -> None:
    for name in ("text", "jsonl"):
        assert kakuro.read(kakuro.formats.dumps(cazenave, name)) == [cazenave]
    lines = tmp_path / "puzzles.json"  # JSON lines under a .json name are still read
    lines.write_text(kakuro.formats.dumps(cazenave, "jsonl"))
    assert kakuro.read(lines) == [cazenave]
    assert minizinc.sniff(kakuro.formats.dumps(cazenave, "text")) is False
