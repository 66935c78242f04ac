"""The `kakuro` command line, called through `main([...])` as the console script does."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.cli import main
from kakuro.cli.exits import EXIT_ERROR, EXIT_LIMIT, EXIT_UNSATISFIABLE, EXIT_USAGE, EXIT_WRONG
from kakuro.formats import dumps
from kakuro.formats.solution import read_solution
from kakuro.limits import Limits
from kakuro.outcome import Outcome
from kakuro.registry import register, registry_restored
from kakuro.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "instances" / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def write_text(tmp_path: Path, name: str, content: str) -> Path:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


# --------------------------------------------------------------------- solve
def test_solve_prints_the_unique_solution_of_the_puzzlink_vector(
    capsys: pytest.CaptureFixture[str], puzzlink: Puzzle, puzzlink_url: str, tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "solve", puzzlink_url)
    assert code == 0
    first, *grid = out.splitlines()
    assert first.startswith(f"{puzzlink_url}#1: solved in ") and first.endswith(f"({kakuro.DEFAULT_BACKEND})")
    assert grid[1].split() == ["#", "23\\12", "3", "9", "17\\4", "3", "1"]
    solution = read_solution(write_text(tmp_path, "solution.txt", "\n".join(grid) + "\n"))
    assert puzzlink.check(solution) == []
    assert kakuro.count_solutions(puzzlink, "cpsat", limit=2).solutions[0].to_grid() == [
        [cell if isinstance(cell, int) else "#" for cell in row] for row in solution
    ]


@pytest.mark.parametrize("example", ["cazenave-2010-table1.txt", "puzzlink-6x5.txt"])
def test_solve_every_example(capsys: pytest.CaptureFixture[str], example: str) -> None:
    code, out, _ = run(capsys, "solve", EXAMPLES / example, "--time-limit", "30", "--seed", "1")
    assert code == 0, out
    assert " solved in " in out.splitlines()[0]


def test_solve_json_output(capsys: pytest.CaptureFixture[str], cazenave: Puzzle) -> None:
    code, out, _ = run(capsys, "solve", EXAMPLES / "cazenave-2010-table1.txt", "--format", "json", "-b", "cpsat:workers=1")
    record = json.loads(out)
    assert code == 0 and record["status"] == "solved" and record["id"] == "cazenave-2010-table1"
    assert set(record) == {"id", "status", "time", "backend", "stats", "solution", "message", "stopped_by"}
    assert cazenave.check(record["solution"]) == [] and record["time"] > 0


def test_solve_all_and_index(capsys: pytest.CaptureFixture[str], tmp_path: Path, cazenave: Puzzle, unsatisfiable: Puzzle) -> None:
    path = write_text(tmp_path, "two.txt", dumps([cazenave, unsatisfiable]))
    code, out, _ = run(capsys, "solve", path, "--all", "--format", "json")
    assert code == EXIT_UNSATISFIABLE  # the worst outcome: one puzzle is unsatisfiable
    assert [json.loads(line)["status"] for line in out.splitlines()] == ["solved", "unsatisfiable"]
    assert run(capsys, "solve", path, "--index", "2")[0] == EXIT_UNSATISFIABLE
    code, _, err = run(capsys, "solve", path, "--index", "3")
    assert code == EXIT_USAGE and "no puzzle 3" in err


def test_unsatisfiable_exits_5(capsys: pytest.CaptureFixture[str], tmp_path: Path, unsatisfiable: Puzzle) -> None:
    code, out, _ = run(capsys, "solve", write_text(tmp_path, "u.txt", dumps(unsatisfiable)))
    assert code == EXIT_UNSATISFIABLE == 5 and "unsatisfiable" in out


class _Fixed(Solver):
    """A stand-in backend that answers a fixed status (registered only inside a test)."""

    status = Status.UNKNOWN
    supports_seed = False

    def _solve(self, puzzle: Puzzle, opts: Mapping[str, Any], limits: Limits, seed: int) -> Outcome:
        return Outcome(self.status, message="gave up")


@pytest.mark.parametrize(("status", "code"), [(Status.UNKNOWN, EXIT_LIMIT), (Status.ERROR, EXIT_ERROR)])
def test_limit_and_backend_error_exit_codes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, status: Status, code: int
) -> None:
    with registry_restored():
        register("fixed")(type("Fixed", (_Fixed,), {"status": status}))
        path = EXAMPLES / "cazenave-2010-table1.txt"
        got, out, _ = run(capsys, "solve", path, "-b", "fixed", "--time-limit", "0.5")
    assert got == code and status.value in out and "gave up" in out


def test_bad_input_exits_1_with_the_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write_text(tmp_path, "bad.txt", "#   3\\  3\\\n\\3  _   _\n\\3  ?   _\n")
    code, out, err = run(capsys, "solve", path)
    assert code == 1 and out == ""
    assert err.startswith(f"kakuro: {path}:3:5: ") and "'?'" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "missing.txt"],
        ["solve", "mistyped.txtt"],
    ],
)
def test_errors_exit_1_without_traceback(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    write_text(tmp_path, "x.txt", "#  3\\\n\\3 _\n")
    code, _, err = run(capsys, *[str(tmp_path / a) if a.endswith(".txt") else a for a in argv])
    assert code == 1 and err.startswith("kakuro: ")


@pytest.mark.parametrize(
    "argv",
    [[], ["solve"], ["frobnicate"], ["solve", "x.txt", "--time-limit", "-1"], ["solve", "x.txt", "--seed", "٣"],
     ["solve", "x.txt", "--all", "--index", "2"], ["generate"], ["generate", "cazenave", "--size", "5"],
     ["solve", "x.txt", "-b", "cpsat:colour=blue"]],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert run(capsys, *argv)[0] == 2


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "solve" in out and "exit codes" in out


# --------------------------------------------------------------------- check
def test_check_accepts_what_solve_prints(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    puzzle = EXAMPLES / "puzzlink-6x5.txt"
    _, text_out, _ = run(capsys, "solve", puzzle)
    text_solution = write_text(tmp_path, "solution.txt", text_out.split("\n", 1)[1])
    _, json_out, _ = run(capsys, "solve", puzzle, "--format", "json")
    json_solution = write_text(tmp_path, "solution.json", json_out)
    for solution in (text_solution, json_solution):
        code, out, _ = run(capsys, "check", puzzle, solution)
        assert code == 0 and out.startswith("valid")


def test_check_lists_the_violations(capsys: pytest.CaptureFixture[str], tmp_path: Path, cazenave: Puzzle) -> None:
    solution = kakuro.solve(cazenave, "cpsat").solution.to_grid()
    solution[1][1] = 10
    solution[2][2] = None
    path = write_text(tmp_path, "wrong.json", json.dumps(solution))
    code, out, _ = run(capsys, "check", EXAMPLES / "cazenave-2010-table1.txt", path)
    assert code == EXIT_WRONG and out.startswith("invalid:")
    assert "outside 1..9" in out and "missing a digit" in out and "sums to" in out


def test_check_reports_a_malformed_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write_text(tmp_path, "bad.json", '{"solution": [[1, 2],')
    code, _, err = run(capsys, "check", EXAMPLES / "cazenave-2010-table1.txt", path)
    assert code == 1 and f"{path}:1:" in err
    path = write_text(tmp_path, "bad.txt", "1 2\n3 x4\n")
    code, _, err = run(capsys, "check", EXAMPLES / "cazenave-2010-table1.txt", path)
    assert code == 1 and f"{path}:2:3:" in err


# --------------------------------------------------------------------- convert
def test_convert_round_trip_and_overwrite(capsys: pytest.CaptureFixture[str], tmp_path: Path, puzzlink: Puzzle) -> None:
    source = EXAMPLES / "puzzlink-6x5.txt"
    steps = [tmp_path / "p.jsonl", tmp_path / "p.ecl", tmp_path / "p.puzzlink", tmp_path / "p.txt"]
    previous: Path = source
    for target in steps:
        code, out, _ = run(capsys, "convert", previous, target)
        assert code == 0 and "wrote 1 puzzle" in out
        previous = target
    back = kakuro.read(steps[-1])
    assert back == [puzzlink] and back[0].id == "puzzlink-6x5"
    before = steps[0].read_text()
    code, _, err = run(capsys, "convert", EXAMPLES / "cazenave-2010-table1.txt", steps[0])
    assert code == 1 and "already exists" in err and steps[0].read_text() == before
    assert run(capsys, "convert", EXAMPLES / "cazenave-2010-table1.txt", steps[0], "--force")[0] == 0
    assert kakuro.read(steps[0])[0].id == "cazenave-2010-table1"


def test_convert_with_explicit_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path, puzzlink_url: str) -> None:
    url_file = write_text(tmp_path, "vector.dat", puzzlink_url + "\n")
    code, _, _ = run(capsys, "convert", url_file, tmp_path / "out.dat", "--from", "puzzlink", "--to", "simonis")
    assert code == 0 and (tmp_path / "out.dat").read_text().startswith("data(generated,1,-,6,7,")


def test_convert_refuses_what_the_target_cannot_hold(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = write_text(tmp_path, "wide.txt", "values: 1..12\n#   11\\\n\\11  _\n")
    code, _, err = run(capsys, "convert", source, tmp_path / "wide.puzzlink")
    assert code == 1 and "puzz.link" in err and not (tmp_path / "wide.puzzlink").exists()


# --------------------------------------------------------------------- backends
def test_backends_lists_every_backend(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "backends")
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["name", "paradigm", "available", "version", "complete", "options"]
    listed = {line.split()[0] for line in lines[1 : lines.index("")]}
    assert listed == set(kakuro.backends())
    assert any(line.split()[:3] == ["cpsat", "CP-SAT", "yes"] for line in lines)


# --------------------------------------------------------------------- generate
def test_generate_cazenave(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    if importlib.util.find_spec("kakuro.generate") is None:
        pytest.skip("kakuro.generate is not written yet")
    target = tmp_path / "grids.jsonl"
    argv = ["generate", "cazenave", "--size", "4", "--values", "6", "--holes", "50", "--count", "3", "--seed", "2"]
    code, out, _ = run(capsys, *argv, "-o", target)
    assert code == 0 and "wrote 3 puzzle(s)" in out
    puzzles = kakuro.read(target)
    assert len(puzzles) == 3 and all(p.is_all_white and p.values == (1, 6) and (p.rows, p.cols) == (5, 5) for p in puzzles)
    code, out, _ = run(capsys, *argv)
    assert code == 0 and kakuro.read(out) == puzzles
    assert run(capsys, *argv, "-o", target)[0] == 1


def test_generate_classic_unique_writes_grade_and_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "classic.jsonl"
    code, out, _ = run(capsys, "generate", "classic", "--rows", "8", "--cols", "9", "--unique", "--seed", "4", "-o", target)
    assert code == 0 and "wrote 1 puzzle(s)" in out
    (puzzle,) = kakuro.read(target)
    assert (puzzle.rows, puzzle.cols) == (8, 9) and puzzle.meta["grade"] in ("rdv", "gac", "gac+shaving", "search")
    assert kakuro.count_solutions(puzzle, "cpsat", limit=2).unique
    assert run(capsys, "generate", "classic", "--rows", "8", "--cols", "9", "--density", "0.9")[0] == 2
    assert run(capsys, "generate", "classic", "--rows", "8", "--cols", "9", "--longest", "3")[0] == 2
    code, out, _ = run(capsys, "generate", "classic", "--rows", "6", "--cols", "6", "--seed", "1")
    assert code == 0 and kakuro.read(out)[0].meta["generator"] == "classic"


def test_generate_classic_with_a_grade(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "generate", "classic", "--rows", "9", "--cols", "9", "--unique", "--grade", "gac+shaving")
    assert code == 0
    (puzzle,) = kakuro.read(out)
    assert puzzle.meta["grade"] == "gac+shaving" and kakuro.count_solutions(puzzle, "gac", limit=2).unique
    code, _, err = run(capsys, "generate", "classic", "--rows", "9", "--cols", "9", "--unique", "--grade", "search")
    assert code == 2 and "rdv, gac, gac+shaving" in err
    code, out, _ = run(capsys, "generate", "classic", "--rows", "9", "--cols", "9", "--grade", "gac")  # implies --unique
    assert code == 0 and kakuro.read(out)[0].meta["grade"] == "gac"


# --------------------------------------------------------------------- render
def test_render_svg_and_png_with_a_found_or_given_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    puzzle_file = ROOT / "instances" / "examples" / "puzzlink-6x5.txt"
    svg = tmp_path / "p.svg"
    code, out, _ = run(capsys, "render", puzzle_file, "--solution", "-o", svg)
    assert code == 0 and svg.read_text().startswith("<svg")
    puzzle = kakuro.read(puzzle_file)[0]
    digits = kakuro.solve(puzzle, "cpsat").solution.values
    assert all(f">{d}<" in svg.read_text() for d in set(digits))
    assert run(capsys, "render", puzzle_file, "-o", svg)[0] == 1  # never overwritten
    bare = tmp_path / "bare.svg"
    assert run(capsys, "render", puzzle_file, "-o", bare)[0] == 0
    assert svg.read_text().count("<text") - bare.read_text().count("<text") == puzzle.size  # one digit per cell
    wrong = tmp_path / "wrong.json"
    grid = kakuro.solve(puzzle, "cpsat").solution.to_grid()
    r, c = puzzle.cells[0]
    grid[r][c] = grid[r][c] % 9 + 1
    wrong.write_text(json.dumps(grid))
    code, _, err = run(capsys, "render", puzzle_file, "--solution", wrong, "-o", tmp_path / "w.svg")
    assert code == 1 and "does not solve" in err and not (tmp_path / "w.svg").exists()
    assert run(capsys, "render", puzzle_file, "-o", tmp_path / "p.gif")[0] == EXIT_USAGE


# --------------------------------------------------------------------- entry points
def test_python_dash_m() -> None:
    done = subprocess.run([sys.executable, "-m", "kakuro", "--version"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("kakuro ")
