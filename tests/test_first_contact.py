"""First contact: nothing hangs (default time limits, incomplete backends need a limit), options
can be discovered (`kakuro backends [NAME]`, docstrings), uniqueness can be asked (`kakuro
count`), one overwrite flag (`--force`, `overwrite=`) named by every refusal, `convert --index`,
and the package ships `py.typed`."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import kakuro
import kakuro.report
from kakuro import BackendOptionError, Puzzle
from kakuro.cli import DEFAULT_GENERATE_LIMIT, DEFAULT_TIME_LIMIT, main
from kakuro.cli.exits import EXIT_LIMIT, EXIT_UNSATISFIABLE, EXIT_USAGE
from kakuro.errors import OutputExistsError
from kakuro.formats import dumps
from kakuro.outcome import STATS, Count
from tests.conftest import shared_set

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "instances" / "examples"
INCOMPLETE = ("sampling", "nmcs", "flat", "uct", "sahs")


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --------------------------------------------------------------------- nothing hangs
@pytest.mark.parametrize("command", ["solve", "count", "render"])
def test_the_default_time_limit_is_shown_in_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert f"(default: {DEFAULT_TIME_LIMIT:g}; 'none' for no limit)" in " ".join(out.split())


def test_generate_classic_has_a_default_limit_too(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "generate", "classic", "--help")
    assert f"(default: {DEFAULT_GENERATE_LIMIT:g};" in " ".join(out.split())


@pytest.mark.parametrize("name", INCOMPLETE)
def test_incomplete_backends_refuse_no_limit_in_the_library(cazenave: Puzzle, name: str) -> None:
    with pytest.raises(BackendOptionError, match="incomplete.*might never return.*time_limit="):
        kakuro.solve(cazenave, name)
    assert kakuro.backend_info(name)[0].needs_time_limit
    assert not kakuro.backend_info("gac")[0].needs_time_limit


def test_incomplete_backends_run_under_the_cli_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", EXAMPLES / "puzzlink-6x5.txt", "-b", "sampling")
    assert code == 0 and " solved in " in out.splitlines()[0]
    code, _, err = run(capsys, "solve", EXAMPLES / "puzzlink-6x5.txt", "-b", "sampling", "--time-limit", "none")
    assert code == EXIT_USAGE and "incomplete" in err and "--time-limit" in err


def test_complete_backends_accept_no_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", EXAMPLES / "puzzlink-6x5.txt", "-b", "gac", "--time-limit", "none")
    assert code == 0 and " solved in " in out


# --------------------------------------------------------------------- defaults are the strongest
@pytest.mark.parametrize("name", ["fc", "sampling", "nmcs", "flat", "uct", "rdv"])
def test_native_searches_default_to_run_level_reasoning(name: str) -> None:
    assert kakuro.get_solver(name).settings["consistency"] == "gac"


def test_other_measured_defaults() -> None:
    assert kakuro.get_solver("fc").settings["values"] == "ascending"
    assert kakuro.get_solver("backtrack").settings["variant"] == "run-ordering"
    assert kakuro.get_solver("choco").settings["model"] == "mdd"
    assert kakuro.get_solver("cpsat").settings["model"] == "decomposition"


def test_nmcs_default_solves_hard_published_puzzles(shared_data: Path) -> None:
    """Published puzzles that need shaving (12x12 to 14x14): the default decides each at once."""
    wanted = {"janko-329", "janko-350", "janko-380", "janko-460"}
    puzzles = [p for p in shared_set("janko") if p.id in wanted]
    assert len(puzzles) == len(wanted)
    for puzzle in puzzles:
        assert kakuro.solve(puzzle, "nmcs", time_limit=5, seed=0).solved, puzzle.id


# --------------------------------------------------------------------- discoverable options
def test_backends_lists_options_with_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "backends")
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[:5] == ["name", "paradigm", "available", "version", "complete"]
    nmcs = next(line for line in lines if line.startswith("nmcs "))
    assert "level=2" in nmcs and "consistency=gac" in nmcs
    assert "kakuro backends NAME" in out


def test_backends_name_shows_each_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "backends", "nmcs")
    assert code == 0
    assert "complete:    no" in out and "time limit:  required" in out
    assert "level = 2  (an integer from 1 to 5)" in out
    assert "consistency = gac  (one of gac, fc)" in out
    for key, option in kakuro.backend_info("nmcs")[0].options.items():
        assert option.help and option.help in out, key
    code, out, _ = run(capsys, "backends", "cpsat")
    assert code == 0 and re.search(r"engine:\s+available, version \d", out)
    code, _, err = run(capsys, "backends", "nope")
    assert code == 2 and "known backends" in err  # a usage error, as a misspelt flag


def test_every_option_of_every_backend_says_what_it_means() -> None:
    for info in kakuro.backend_info():
        for key, option in info.options.items():
            assert len(option.help) > 10, f"{info.name}:{key}"


def test_docstrings_list_arguments_statuses_and_stats() -> None:
    for function in (kakuro.solve, kakuro.count_solutions):
        doc = function.__doc__ or ""
        for word in ("time_limit", "seed", "backend", "SOLVED", "UNSATISFIABLE", "UNKNOWN", "ERROR"):
            assert word in doc, (function.__name__, word)
    for key in STATS:
        assert f"`{key}`" in (kakuro.solve.__doc__ or ""), key
    assert "limit" in (kakuro.count_solutions.__doc__ or "") and "at least" in (kakuro.count_solutions.__doc__ or "")


def test_py_typed_is_shipped() -> None:
    assert (ROOT / "kakuro" / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["kakuro"]


# --------------------------------------------------------------------- counting
def test_count_makes_at_least_visible(two_solutions: Puzzle, cazenave: Puzzle) -> None:
    found = kakuro.count_solutions(two_solutions, "cpsat", limit=2)
    assert (found.count, found.bound) == (2, "at least 2")
    assert "at least 2" in repr(found) and str(found).startswith("at least 2 solutions")
    exact = kakuro.count_solutions(two_solutions, "cpsat", limit=3)
    assert (exact.count, exact.bound) == (2, "exactly 2") and "exactly 2" in repr(exact)
    assert isinstance(found, Count) and found.count == 2  # `count` itself is unchanged


def test_count_command(capsys: pytest.CaptureFixture[str], tmp_path: Path, two_solutions: Puzzle,
                       unsatisfiable: Puzzle) -> None:
    code, out, _ = run(capsys, "count", EXAMPLES / "puzzlink-6x5.txt")
    assert code == 0 and "exactly 1 solution: unique" in out
    path = tmp_path / "several.txt"
    path.write_text(dumps([two_solutions, unsatisfiable], "text"))
    code, out, _ = run(capsys, "count", path)
    assert code == 0 and "at least 2 solutions (stopped at --limit 2)" in out
    code, out, _ = run(capsys, "count", path, "--limit", "5", "-b", "gac")
    assert code == 0 and "exactly 2 solutions" in out
    code, out, _ = run(capsys, "count", path, "--index", "2")
    assert code == EXIT_UNSATISFIABLE and "no solution" in out
    code, out, _ = run(capsys, "count", path, "--all", "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == EXIT_UNSATISFIABLE and [r["bound"] for r in records] == ["at least 2", "exactly 0"]
    code, _, err = run(capsys, "count", path, "-b", "nmcs")
    assert code == EXIT_USAGE and "incomplete" in err


def test_count_reports_a_time_limit(capsys: pytest.CaptureFixture[str], tmp_path: Path, hard: Puzzle) -> None:
    path = tmp_path / "hard.txt"
    path.write_text(dumps([hard], "text"))
    code, out, _ = run(capsys, "count", path, "-b", "fc:consistency=fc", "--time-limit", "0.05")
    assert code == EXIT_LIMIT and "unknown: the time limit came before the first solution" in out


# --------------------------------------------------------------------- convert --index
def test_convert_index_exports_one_puzzle_of_many(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  cazenave: Puzzle, two_solutions: Puzzle) -> None:
    many = tmp_path / "many.jsonl"
    kakuro.write([cazenave, two_solutions], many)
    code, _, err = run(capsys, "convert", many, tmp_path / "all.cnf")
    assert code == 1 and "exactly one puzzle" in err
    code, out, _ = run(capsys, "convert", many, tmp_path / "second.mzn", "--index", "2")
    assert code == 0 and "wrote 1 puzzle" in out
    code, _, err = run(capsys, "convert", many, tmp_path / "third.mzn", "--index", "3")
    assert code == EXIT_USAGE and "holds 2 puzzle(s)" in err


# --------------------------------------------------------------------- one overwrite flag
def test_library_refusals_name_overwrite(tmp_path: Path, cazenave: Puzzle) -> None:
    from kakuro.render import render

    path = kakuro.write(cazenave, tmp_path / "p.txt")
    with pytest.raises(OutputExistsError, match=r"--force \(overwrite=True in Python\)"):
        kakuro.write(cazenave, path)
    picture = render(cazenave, tmp_path / "p.svg")
    with pytest.raises(OutputExistsError, match="overwrite=True"):
        render(cazenave, picture)


def test_render_refuses_an_existing_file_before_solving(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "exists.svg"
    target.write_text("keep")

    def no_solving(*args: object, **kwargs: object) -> None:
        raise AssertionError("render solved before refusing")

    monkeypatch.setattr(kakuro, "solve", no_solving)
    code, _, err = run(capsys, "render", EXAMPLES / "puzzlink-6x5.txt", "--solution", "-o", target)
    assert code == 1 and "--force" in err and target.read_text() == "keep"


@pytest.mark.parametrize(
    "argv",
    [
        ["convert", str(EXAMPLES / "puzzlink-6x5.txt"), "{out}"],
        ["generate", "cazenave", "--size", "3", "--values", "4", "--holes", "50", "-o", "{out}"],
        ["generate", "classic", "--rows", "5", "--cols", "5", "-o", "{out}"],
    ],
)
def test_cli_refusals_name_force(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    out = tmp_path / "exists.txt"
    out.write_text("keep")
    code, _, err = run(capsys, *[a.replace("{out}", str(out)) for a in argv])
    assert code == 1 and "--force" in err and out.read_text() == "keep"
    code, _, _ = run(capsys, *[a.replace("{out}", str(out)) for a in argv], "--force")
    assert code == 0 and out.read_text() != "keep"


def test_report_takes_force_and_still_the_old_overwrite() -> None:
    from kakuro.cli.report import parser as report_parser

    parser = report_parser()
    assert parser.parse_args(["r.jsonl", "--force"]).force
    assert parser.parse_args(["r.jsonl", "--overwrite"]).force
    assert "--force" in parser.format_help() and "--overwrite" not in parser.format_help()


def test_compare_skip_bad_skips_bad_lines_too(tmp_path: Path, cazenave: Puzzle) -> None:
    from kakuro import compare

    path = tmp_path / "mixed.jsonl"
    path.write_text(dumps([cazenave], "jsonl") + "not json\n" + dumps([cazenave], "jsonl"))
    with pytest.raises(kakuro.KakuroError, match="mixed.jsonl:2"):
        compare.collect([path])
    warned: list[str] = []
    instances = compare.collect([path], skip_bad=True, warn=warned.append)
    assert len(instances) == 2 and len(warned) == 1 and "mixed.jsonl:2" in warned[0]
