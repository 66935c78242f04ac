"""What a newcomer meets first on the command line (issue #27, items 12 and 13): misspelt
backends and flags, option specs, several puzzles in a file, unnamed puzzles, files that are
not puzzles, a closed pipe, the generator's defaults, wide value ranges, picture sizes and a
printed solution. Each test injects the mistake and checks the one-line answer."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kakuro
from kakuro.cli import main
from kakuro.cli.compare import main as compare_main
from kakuro.cli.compare import parser as compare_parser
from kakuro.cli.exits import EXIT_USAGE
from kakuro.clock import MAX_TIME_LIMIT
from kakuro.errors import BackendOptionError, UnknownBackendError
from kakuro.formats import text
from kakuro.formats.solution import read_solution
from kakuro.generate import cazenave
from kakuro.records.files import read_results

ROOT = Path(__file__).resolve().parent.parent
SIX = ROOT / "instances" / "classic" / "unique-6x6.jsonl"
"""Five unique 6x6 classic puzzles, each with an id."""
NO_ID = "#   4\\  3\\\n\\4  _   _\n\\3  _   _\n"
"""A 2x2 puzzle without an id (text format): 3 1 / 1 2."""
RESULT_RECORD = {
    "schema": 3, "source": "instances/classic/unique-6x6.jsonl", "index": 1, "digest": "cb6429dc8aa82dc4",
    "backend": "gac", "seed": 0, "repeat": 0, "status": "SOLVED", "time_limit": 10.0, "time": 0.01,
}
"""One record of a compare results file, as `python -m kakuro.compare` appends it."""


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --------------------------------------------------------------------- backends and specs
@pytest.mark.parametrize(("typed", "meant"), [("cp-sat", "cpsat"), ("CPSAT", "cpsat"), ("ortools", "cpsat"),
                                              ("pysat", "sat"), ("choco-solver", "choco"), ("gca", "gac")])
def test_unknown_backend_is_a_usage_error_with_did_you_mean(capsys: pytest.CaptureFixture[str], typed: str, meant: str) -> None:
    code, out, err = run(capsys, "solve", SIX, "-b", typed)
    assert code == 2 and out == ""
    assert err == f"kakuro: unknown backend {typed!r}; did you mean {meant!r}?\n"
    with pytest.raises(UnknownBackendError) as caught:
        kakuro.get_solver(typed)
    assert caught.value.suggestion == meant


def test_unknown_backend_with_nothing_close_lists_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "count", SIX, "-b", "zzzz")
    assert code == 2
    assert "known backends: " in err and "cpsat" in err and "did you mean" not in err


def test_a_typo_in_a_subcommand_flag_prints_that_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "solve", SIX, "--time-limt", "5")
    assert code == 2
    assert err.startswith("usage: kakuro solve ") and "unrecognized arguments: --time-limt 5" in err
    code, _, err = run(capsys, "generate", "classic", "--rows", "6", "--cols", "6", "--uniqe")
    assert code == 2
    assert err.startswith("usage: kakuro generate classic ") and "--uniqe" in err


@pytest.mark.parametrize(("spec", "words"), [("nmcs:level=x", "takes an integer"),
                                             ("flat:playouts=1.5", "takes an integer"), ("uct:c=high", "takes a number")])
def test_an_option_of_the_wrong_type_is_named_in_words(spec: str, words: str) -> None:
    with pytest.raises(BackendOptionError) as caught:
        kakuro.get_solver(spec)
    assert words in str(caught.value) and "a int" not in str(caught.value)


def test_options_separated_by_colons_get_the_comma_spelling() -> None:
    with pytest.raises(BackendOptionError) as caught:
        kakuro.get_solver("nmcs:level=2:workers=2")
    assert "options are separated by commas: nmcs:level=2,workers=2" in str(caught.value)


def test_compare_takes_time_limit_none_as_solve_does(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`none` means the same to both parsers: no limit, which a campaign runs as the library
    does (the longest limit, MAX_TIME_LIMIT), and refuses for an incomplete backend."""
    assert compare_parser().parse_args(["x", "--time-limit", " 2.5 "]).time_limit == 2.5
    assert compare_parser().parse_args(["x", "--time-limit", "None"]).time_limit is None
    out = tmp_path / "r.jsonl"
    code = compare_main([str(SIX), "-b", "cpsat", "--time-limit", "none", "-j", "1", "-o", str(out), "--no-progress"])
    assert code == 0
    assert [r.time_limit for r in read_results(out)] == [MAX_TIME_LIMIT] * 5
    capsys.readouterr()
    code = compare_main([str(SIX), "-b", "nmcs", "--time-limit", "none", "-o", str(tmp_path / "n.jsonl")])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and "nmcs could search forever" in err and not (tmp_path / "n.jsonl").exists()


# --------------------------------------------------------------------- which puzzles, named how
def test_the_first_of_several_puzzles_is_solved_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", SIX)
    assert code == 0
    assert err == f"kakuro: puzzle 1 of 5 in {SIX}; --all for every puzzle or --index K\n"
    assert out.startswith(f"{kakuro.read(SIX)[0].id}: solved in ")
    for chosen in (["--index", "1"], ["--index", "2"], ["--all"]):
        code, _, err = run(capsys, "solve", SIX, *chosen)
        assert code == 0 and err == ""


def test_puzzles_without_an_id_are_named_by_file_and_index(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "two.txt"
    path.write_text(NO_ID + "\n" + NO_ID, encoding="utf-8")
    code, out, _ = run(capsys, "solve", path, "--all")
    assert code == 0
    assert [line.split(":")[0] for line in out.splitlines() if " solved in " in line] == [f"{path}#1", f"{path}#2"]
    code, out, _ = run(capsys, "count", path, "--index", "2", "--format", "json")
    assert json.loads(out)["id"] == f"{path}#2"
    code, out, _ = run(capsys, "solve", path, "--format", "json")
    assert json.loads(out)["id"] == f"{path}#1"


def test_a_closed_pipe_ends_the_command_quietly_with_141() -> None:
    """`kakuro solve FILE --all | head -1`: the reader is gone before the first line."""
    child = subprocess.Popen([sys.executable, "-m", "kakuro", "solve", str(SIX), "--all"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 141
    assert err == ""


# --------------------------------------------------------------------- files that are not puzzles
def test_a_readme_is_not_a_puzzle_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Kakuro\n\nEach run is one constraint:\n\nconstraint sum(run) = total;\n", encoding="utf-8")
    code, _, err = run(capsys, "solve", readme)
    assert code == 1
    assert err.startswith(f"kakuro: {readme}: not a puzzle file (no known format matches: ")
    assert "export format" not in err and err.count("\n") == 1


@pytest.mark.parametrize("name", ["results.jsonl", "results.txt"])
def test_a_compare_results_file_is_named_as_such(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(json.dumps(RESULT_RECORD) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "solve", path)
    assert code == 1
    assert err == (f'kakuro: {path}: looks like a compare results file (records with "backend"/"status"), not '
                   "puzzles; give it to `python -m kakuro.report`\n")


# --------------------------------------------------------------------- generation
def test_generate_classic_is_unique_by_default_as_the_library(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "six.jsonl"
    code, _, _ = run(capsys, "generate", "classic", "--rows", "6", "--cols", "6", "-o", out)
    assert code == 0
    [puzzle] = kakuro.read(out)
    assert puzzle.meta["unique"] is True
    assert kakuro.count_solutions(puzzle, "gac", limit=2).unique
    several = tmp_path / "several.jsonl"
    code, _, _ = run(capsys, "generate", "classic", "--rows", "6", "--cols", "6", "--no-unique", "-o", several)
    assert code == 0
    assert kakuro.read(several)[0].meta["unique"] is False


@pytest.mark.skipif(importlib.util.find_spec("ortools") is None, reason="needs OR-Tools (cpsat)")
def test_the_default_backend_solves_a_wide_value_range_the_generator_makes() -> None:
    """An empty 8x8 Cazenave grid over 1..62: its runs have millions of combinations, too many
    for the GAC tables; `auto` hands it to cpsat instead of refusing."""
    [puzzle] = cazenave(size=8, values=62, holes=100, seed=3)
    result = kakuro.solve(puzzle, time_limit=60)
    assert result.solved, result.message
    assert result.stats["path"] == "cpsat"
    assert puzzle.check(result.solution) == []
    assert kakuro.count_solutions(puzzle, limit=2, time_limit=60).count == 2


# --------------------------------------------------------------------- pictures and printing
def _svg_size(path: Path) -> tuple[float, float]:
    found = re.search(r'<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"', path.read_text(encoding="utf-8"))
    assert found is not None
    return float(found[1]), float(found[2])


def test_render_takes_a_cell_size(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    default, small = tmp_path / "default.svg", tmp_path / "small.svg"
    assert run(capsys, "render", SIX, "--index", "1", "-o", default)[0] == 0
    assert run(capsys, "render", SIX, "--index", "1", "-o", small, "--cell-size", "20")[0] == 0
    (width, height), (w, h) = _svg_size(default), _svg_size(small)
    assert (w, h) == (width / 2, height / 2)
    code, _, err = run(capsys, "render", SIX, "-o", tmp_path / "zero.svg", "--cell-size", "0")
    assert code == 2 and "--cell-size" in err and not (tmp_path / "zero.svg").exists()


def test_a_solution_prints_as_its_grid(tmp_path: Path) -> None:
    puzzle = kakuro.read(SIX)[0]
    solution = kakuro.solve(puzzle).solution
    assert solution is not None
    grid = puzzle.to_grid()
    for (r, c), value in zip(puzzle.cells, solution.values):
        grid[r][c] = value
    assert str(solution) == "\n".join(text.render_grid(grid, solved=True))
    assert repr(solution) == f"Solution(values={solution.values!r})"
    path = tmp_path / "printed.txt"
    path.write_text(f"{solution}\n", encoding="utf-8")
    assert puzzle.check(read_solution(path)) == []


@pytest.mark.parametrize(("name", "content"), [
    ("anonymous.txt", "".join((ROOT / "instances" / "examples" / "puzzlink-6x5.txt").read_text().splitlines(True)[2:])),
    ("anonymous.sdm", "1.....3........2\n"),
])
def test_what_solve_prints_for_a_puzzle_without_an_id_is_read_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, content: str
) -> None:
    """`kakuro solve` names a puzzle without an id FILE#K; its line above the grid is no header
    a reader knew, so `check` and `hint --progress` refused the solve's own output."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and out.startswith(f"{path}#1: solved in "), out
    (tmp_path / "printed.txt").write_text(out, encoding="utf-8")
    assert kakuro.read(path)[0].check(read_solution(tmp_path / "printed.txt")) == []
    code, out, _ = run(capsys, "hint", path, "--progress", tmp_path / "printed.txt")
    assert code == 0 and out.startswith("solved")
