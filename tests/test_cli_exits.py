"""One exit-code table for the whole command line (issue 40, item 6; issue 41, one CLI package):
every subcommand, and `python -m kakuro.compare` / `python -m kakuro.report`, gets each kind of
usage error (a misspelt flag, a misspelt subcommand, a flag value out of its range, an unknown
backend) and must exit 2 with one error line and a "did you mean" where a name was misspelt;
an error that is a bug of kakuro is one line too, exit 1, and Ctrl-C is still 130."""

from __future__ import annotations

import argparse
import errno
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kakuro.cli
from kakuro.cli import build_parser, main
from kakuro.cli import compare as compare_cli
from kakuro.cli import report as report_cli
from kakuro.cli.exits import (
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_TABLE,
    EXIT_UNSATISFIABLE,
    EXIT_USAGE,
    EXIT_WRONG,
    LINE_BREAKS,
    say,
)
from tests.conftest import DOCS, EXAMPLES, ROOT

PUZZLE = EXAMPLES / "puzzlink-6x5.txt"
"""A file of one puzzle."""

REQUIRED = {
    ("solve",): ["{puzzle}"],
    ("count",): ["{puzzle}"],
    ("check",): ["{puzzle}", "{tmp}/solution.json"],
    ("convert",): ["{puzzle}", "{tmp}/out.jsonl"],
    ("render",): ["{puzzle}", "-o", "{tmp}/out.svg"],
    ("explain",): ["{puzzle}"],
    ("hint",): ["{puzzle}"],
    ("backends",): [],
    ("generate", "cazenave"): ["--size", "4", "--values", "5", "--holes", "50"],
    ("generate", "classic"): ["--rows", "6", "--cols", "6"],
    ("generate", "sudoku"): [],
    ("generate", "killer"): [],
    ("generate", "jigsaw"): [],
    ("compare",): ["{puzzle}", "-o", "{tmp}/results.jsonl"],
    ("report",): ["{tmp}/results.jsonl"],
    ("certify",): ["{puzzle}", "-o", "{tmp}/certificates"],
    ("verify",): ["{tmp}/x.cert"],
}
"""Each subcommand's words and the arguments it needs, so that the one mistake added is the
only one (argparse reports a missing argument before an unknown one)."""

OUT_OF_RANGE = {
    ("solve",): ["--time-limit", "-1"],
    ("count",): ["--limit", "0"],
    ("check",): ["--index", "0"],
    ("convert",): ["--index", "0"],
    ("render",): ["--cell-size", "0"],
    ("explain",): ["--step", "0"],
    ("hint",): ["--level", "4"],
    ("backends",): ["gca"],  # an unknown backend: the one NAME can be out of
    ("generate", "cazenave"): ["--holes", "101"],
    ("generate", "classic"): ["--density", "0.9"],
    ("generate", "sudoku"): ["--size", "99"],
    ("generate", "killer"): ["--largest", "0"],
    ("generate", "jigsaw"): ["--size", "0"],
    ("compare",): ["--memory", "0"],
    ("report",): ["--time-limit", "0"],
    ("certify",): ["--time-limit", "0"],
    ("verify",): ["--index", "0"],
}
"""A flag value out of its range for each subcommand."""

BACKEND_TAKERS = {
    ("solve",): ["-b", "gca"],
    ("count",): ["-b", "gca"],
    ("render",): ["--solution", "-b", "gca"],
    ("compare",): ["-b", "gca"],
}
"""The subcommands that take a backend, and a misspelt one."""


def leaves(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()) -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every leaf subcommand of the parser with its own parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {leaf: sub for name, command in action.choices.items()
                    for leaf, sub in leaves(command, (*words, name)).items()}
    return {words: parser}


LEAVES = leaves(build_parser())


def argv(words: tuple[str, ...], tmp_path: Path, *extra: str) -> list[str]:
    return [*words, *(a.format(puzzle=PUZZLE, tmp=tmp_path) for a in REQUIRED[words]), *extra]


def misspelt_option(parser: argparse.ArgumentParser) -> tuple[str, str]:
    """(a misspelling, the long option it misspells): two letters of the longest long option
    (not --help) swapped, so that it is no prefix argparse would accept as an abbreviation."""
    option = max((o for action in parser._actions for o in action.option_strings if o.startswith("--") and o != "--help"),
                 key=len)
    wrong = option[:3] + option[4] + option[3] + option[5:]
    assert wrong != option and not any(o.startswith(wrong) for o in parser._option_string_actions)
    return wrong, option


def run(capsys: pytest.CaptureFixture[str], argv: list[str], entry=main) -> tuple[int, str, str]:
    code = entry(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def usage_then_one_error(err: str, prog: str) -> str:
    """The error line of argparse's refusal: the usage first (its first line `usage: `, the rest
    indented), then exactly one line `PROG: error: ...`."""
    *usage, last = err.rstrip("\n").split("\n")
    assert usage and usage[0].startswith("usage: ") and all(line.startswith(" ") for line in usage[1:]), err
    assert last.startswith(f"{prog}: error: "), err
    return last


def one_line(err: str) -> str:
    assert err.endswith("\n") and err.count("\n") == 1 and err.startswith("kakuro: "), err
    return err.rstrip("\n")


# --------------------------------------------------------------------- the table covers every subcommand
def test_the_tables_here_name_every_subcommand() -> None:
    assert set(REQUIRED) == set(OUT_OF_RANGE) == set(LEAVES)
    assert {("certify",), ("verify",), ("compare",), ("report",), ("generate", "killer")} <= set(LEAVES)


# --------------------------------------------------------------------- each kind of usage error, each subcommand
@pytest.mark.parametrize("words", list(LEAVES), ids=" ".join)
def test_a_misspelt_flag_exits_2_with_did_you_mean(words: tuple[str, ...], tmp_path: Path, capsys) -> None:
    wrong, meant = misspelt_option(LEAVES[words])
    code, out, err = run(capsys, argv(words, tmp_path, f"{wrong}=1"))
    last = usage_then_one_error(err, "kakuro " + " ".join(words))
    assert code == EXIT_USAGE and out == ""
    assert last.endswith(f"unrecognized arguments: {wrong}=1; did you mean {meant}?")


@pytest.mark.parametrize(("argv", "prog", "said"), [
    (["--verison"], "kakuro", "--verison; did you mean --version?"),  # and no subcommand
    (["solve", "--tmie-limit", "5"], "kakuro solve", "--tmie-limit; did you mean --time-limit?"),  # and no FILE
])
def test_a_misspelt_flag_is_named_before_a_missing_argument(argv: list[str], prog: str, said: str, capsys) -> None:
    code, _, err = run(capsys, argv)
    assert code == EXIT_USAGE and usage_then_one_error(err, prog).endswith(f"unrecognized arguments: {said}")


@pytest.mark.parametrize("words", list(LEAVES), ids=" ".join)
def test_a_misspelt_subcommand_exits_2_with_did_you_mean(words: tuple[str, ...], tmp_path: Path, capsys) -> None:
    typo = words[-1][:-1] + "x"  # the last letter wrong
    parent = "kakuro " + " ".join(words[:-1]) if len(words) > 1 else "kakuro"
    code, _, err = run(capsys, [*words[:-1], typo, *argv(words, tmp_path)[len(words):]])
    last = usage_then_one_error(err, parent.strip())
    assert code == EXIT_USAGE and f"invalid choice: {typo!r}; did you mean {words[-1]!r}?" in last


@pytest.mark.parametrize("words", list(LEAVES), ids=" ".join)
def test_a_flag_value_out_of_range_exits_2(words: tuple[str, ...], tmp_path: Path, capsys) -> None:
    code, out, err = run(capsys, argv(words, tmp_path, *OUT_OF_RANGE[words]))
    assert code == EXIT_USAGE and out == "", err
    if words == ("backends",):
        assert one_line(err) == "kakuro: unknown backend 'gca'; did you mean 'gac'?"
    else:
        assert OUT_OF_RANGE[words][0] in usage_then_one_error(err, "kakuro " + " ".join(words))


@pytest.mark.parametrize("words", list(BACKEND_TAKERS), ids=" ".join)
def test_an_unknown_backend_exits_2_in_every_subcommand_that_takes_one(words: tuple[str, ...], tmp_path: Path,
                                                                     capsys) -> None:
    code, out, err = run(capsys, argv(words, tmp_path, *BACKEND_TAKERS[words]))
    assert code == EXIT_USAGE and one_line(err) == "kakuro: unknown backend 'gca'; did you mean 'gac'?"
    assert not (tmp_path / "results.jsonl").exists() and not (tmp_path / "out.svg").exists()


@pytest.mark.parametrize("argv", [
    ["generate", "classic", "--rows", "200", "--cols", "6"],  # the generator's own range
    ["generate", "cazenave", "--size", "5", "--values", "4", "--holes", "10"],  # values below the size
    ["generate", "sudoku", "--size", "9", "--box", "2x3"],  # boxes that do not tile the grid
    ["solve", str(PUZZLE), "--index", "2"],  # past the file's last puzzle
    ["solve", str(PUZZLE), "-b", "cpsat:modle=table"],  # a backend option misspelt
    ["solve", str(PUZZLE), "-b", "nmcs", "--time-limit", "none"],  # no limit for a search that may not end
    ["count", str(PUZZLE), "-b", "nmcs"],  # counting with an incomplete backend
    ["explain", str(PUZZLE), "--format", "png"],  # flags that do not go together
])
def test_ranges_the_command_checks_itself_are_usage_errors_too(argv: list[str], capsys) -> None:
    code, out, err = run(capsys, argv)
    assert code == EXIT_USAGE and out == ""
    one_line(err)


@pytest.mark.parametrize("argv", [
    ["generate", "killer", "--size", "16", "--unique", "--time-limit", "0.01"],  # 9x9: done in 10 ms at times
    ["generate", "classic", "--rows", "12", "--cols", "12", "--rate", "6", "--time-limit", "0.01"],
])
def test_a_generator_stopped_by_its_time_limit_exits_4_as_a_solve_does(argv: list[str], capsys) -> None:
    """The generators raised a plain error at their limit: exit 1, where `solve` exits 4."""
    code, out, err = run(capsys, argv)
    assert code == EXIT_LIMIT and out == "" and "within the time limit" in one_line(err)


def test_a_misspelt_backend_option_names_the_one_meant(capsys) -> None:
    _, _, err = run(capsys, ["solve", str(PUZZLE), "-b", "cpsat:modle=table"])
    assert "has no option 'modle'; did you mean 'model'?" in err
    _, _, err = run(capsys, ["solve", str(PUZZLE), "-b", "cpsat:model=tabel"])
    assert "got 'tabel'; did you mean 'table'?" in err


# --------------------------------------------------------------------- the programs of their own name
@pytest.mark.parametrize(("entry", "words"), [(compare_cli.main, ("compare",)), (report_cli.main, ("report",))])
def test_python_dash_m_entry_points_exit_as_the_subcommands(entry, words: tuple[str, ...], tmp_path: Path,
                                                           capsys) -> None:
    prog = f"python -m kakuro.{words[0]}"
    wrong, meant = misspelt_option(LEAVES[words])
    code, _, err = run(capsys, argv(words, tmp_path, f"{wrong}=1")[1:], entry)
    assert code == EXIT_USAGE and usage_then_one_error(err, prog).endswith(f"did you mean {meant}?")
    code, _, err = run(capsys, argv(words, tmp_path, *OUT_OF_RANGE[words])[1:], entry)
    assert code == EXIT_USAGE
    usage_then_one_error(err, prog)


def test_python_dash_m_compare_exits_2_for_an_unknown_backend(tmp_path: Path) -> None:
    """The real entry point, in a process of its own: `python -m kakuro.compare` exited 1 for
    what `kakuro solve` exits 2."""
    out = tmp_path / "r.jsonl"
    done = subprocess.run([sys.executable, "-m", "kakuro.compare", str(PUZZLE), "-b", "gca", "-o", str(out)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == EXIT_USAGE and done.stderr == "kakuro: unknown backend 'gca'; did you mean 'gac'?\n"
    assert not out.exists()


# --------------------------------------------------------------------- the table, stated once
def test_the_table_is_in_kakuro_help_and_in_the_guide(capsys) -> None:
    assert (EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_WRONG, EXIT_LIMIT, EXIT_UNSATISFIABLE, EXIT_INTERRUPTED) == (
        0, 1, 2, 3, 4, 5, 130)
    assert main(["--help"]) == 0
    assert " ".join(EXIT_CODES_HELP.split()) in " ".join(capsys.readouterr().out.split())
    guide = (DOCS / "guide" / "cli.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Exit codes"):]
    rows = re.findall(r"^\| ([0-9][0-9 +N]*) \|", section, re.MULTILINE)
    assert [row.replace(" ", "") for row in rows] == [code for code, _ in EXIT_TABLE]


# --------------------------------------------------------------------- what a bug looks like
def _raising(exc: BaseException):
    def fail(*args: object, **kwargs: object) -> object:
        raise exc

    return fail


def test_an_internal_error_is_one_line_that_says_so(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(kakuro.cli.solving, "read_puzzles", _raising(ZeroDivisionError("division by zero")))
    code, out, err = run(capsys, ["solve", str(PUZZLE)])
    assert code == EXIT_ERROR and out == ""
    assert one_line(err) == "kakuro: internal error: ZeroDivisionError: division by zero (please report)"


def test_a_failed_write_is_one_line_not_an_internal_error(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(kakuro.cli.solving, "read_puzzles", _raising(OSError(errno.ENOSPC, "No space left on device",
                                                                              "/full/disk")))
    code, _, err = run(capsys, ["solve", str(PUZZLE)])
    assert code == EXIT_ERROR and one_line(err) == "kakuro: /full/disk: No space left on device"


def test_memory_that_ran_out_is_one_line_not_an_internal_error(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(kakuro.cli.solving, "read_puzzles", _raising(MemoryError()))
    code, _, err = run(capsys, ["solve", str(PUZZLE)])
    assert code == EXIT_ERROR and one_line(err).startswith("kakuro: out of memory (MemoryError)")


def test_ctrl_c_is_never_taken_for_an_internal_error(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setattr(kakuro.cli.solving, "read_puzzles", _raising(KeyboardInterrupt()))
    code, _, err = run(capsys, ["solve", str(PUZZLE)])
    assert code == EXIT_INTERRUPTED and err == "kakuro: interrupted\n"
    monkeypatch.setattr(kakuro.cli.report, "_run_report", _raising(KeyboardInterrupt()))
    code, _, err = run(capsys, ["results.jsonl"], report_cli.main)
    assert code == EXIT_INTERRUPTED and err == "kakuro: interrupted\n"


def test_a_bug_in_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    """`python -m kakuro` with a plug-in (`--import`) that breaks the reading of puzzles: the
    real entry point, in a process of its own."""
    plugin = tmp_path / "breaks.py"
    plugin.write_text("import kakuro.cli.solving\n\n\ndef broken(*args, **kwargs):\n    return {}['no such key']\n\n\n"
                      "kakuro.cli.solving.read_puzzles = broken\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "kakuro", "solve", str(PUZZLE), "--import", str(plugin)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == EXIT_ERROR and done.stdout == ""
    assert done.stderr == "kakuro: internal error: KeyError: 'no such key' (please report)\n"


# --------------------------------------------------------------------- one command line package
def test_only_the_cli_package_parses_arguments() -> None:
    """Issue 41: `compare` and `report` built parsers and exit codes of their own; the command
    line is one package now, and `python -m kakuro.compare` / `kakuro.report` only call it."""
    outside = [path.relative_to(ROOT).as_posix() for path in (ROOT / "kakuro").rglob("*.py")
               if "argparse" in path.read_text(encoding="utf-8") and "cli" not in path.relative_to(ROOT).parts]
    assert outside == []
    for program in ("compare", "report"):
        entry = (ROOT / "kakuro" / program / "__main__.py").read_text(encoding="utf-8")
        assert f"from kakuro.cli.{program} import main" in entry and entry.count("\n") < 12


def test_the_report_choices_the_parser_offers_are_the_reports() -> None:
    from kakuro.report.plots import FORMATS
    from kakuro.report.summary import GROUPINGS

    assert (tuple(GROUPINGS), tuple(FORMATS)) == (report_cli.GROUPINGS, report_cli.PLOT_FORMATS)


@pytest.mark.parametrize("brk", list(LINE_BREAKS))
def test_a_line_break_inside_an_error_is_shown_escaped(brk: str, capsys: pytest.CaptureFixture[str]) -> None:
    """An error names what the input said (a backend a results file names "a\\nb"): every
    character `str.splitlines` breaks at is shown escaped, so the error stays one line."""
    say(f"nothing to compare: backends a{brk}b 1")
    err = capsys.readouterr().err
    assert err.splitlines() == [f"kakuro: nothing to compare: backends a{brk.encode('unicode_escape').decode()}b 1"]


@pytest.mark.parametrize("in_a_cycle", [False, True])
def test_after_ctrl_c_the_works_failing_finalizers_say_nothing(in_a_cycle: bool, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C cut an engine object's constructor short (pychoco's handle wrapper): its finalizer
    raises when the object goes, with the traceback or with the next collection (in a cycle).
    The command says `kakuro: interrupted` and nothing else; the hook is the caller's again."""
    import gc

    from kakuro.cli.exits import run_command

    class HalfBuilt:
        def __init__(self) -> None:
            self.me = self if in_a_cycle else None

        def __del__(self) -> None:
            raise AttributeError("'HalfBuilt' object has no attribute '_handle_'")

    def body() -> int:
        built = HalfBuilt()
        raise KeyboardInterrupt(built)

    said: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", said.append)
    assert run_command(body) == EXIT_INTERRUPTED
    gc.collect()
    assert said == [] and sys.unraisablehook == said.append
    assert capsys.readouterr().err == "kakuro: interrupted\n"
