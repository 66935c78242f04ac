"""The Sudoku family in the open (issue 43): `echo LINE | kakuro solve -` (and count, explain,
hint, render) reads the puzzle from standard input in any format `kakuro.read` detects; an
81-character line given as FILE is a path that does not exist, and the error says how to give
the line instead; `kakuro --help`, the README's first screen and the docs' front page name
Sudoku, Killer, Jigsaw and X."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import kakuro
from kakuro.cli import main
from tests.conftest import ROOT

LINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
"""A classic 9x9 as one line of 81 characters (a unique puzzle)."""
JIGSAW = ("4....7...5.6......7..3.86......9..2........713.....25.............4..3..1.3...8.."
          "111122222111132224555133324555633334556677344588677449888677949886679949886677999")
X = "7........6.2....7...16..3...38.........1..8..........6..6.......9..85..4......7.."
"""A unique Sudoku X."""
KILLER = "a a b b\nc c d d\ne e f f\ng g h h\na=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3\n"


def kakuro_with_stdin(data: bytes, *argv: str) -> subprocess.CompletedProcess[str]:
    """`python -m kakuro ARGV` on this checkout with `data` piped to its standard input."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    return subprocess.run([sys.executable, "-m", "kakuro", *argv], input=data.decode(), env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def run_with_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data: str,
                   *argv: str | Path) -> tuple[int, str, str]:
    """`kakuro ARGV` in this process with `data` as its standard input (not a terminal)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_echo_a_line_into_kakuro_solve_prints_the_solution() -> None:
    done = kakuro_with_stdin(f"{LINE}\n".encode(), "solve", "-")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "<stdin>#1: solved in " + done.stdout.splitlines()[0].split(" in ", 1)[1]
    rows = [[int(v) for v in line.split()] for line in done.stdout.splitlines()[1:10]]
    puzzle = kakuro.read(LINE)[0]
    assert puzzle.check(rows) == [] and rows[0][0] == 4


def test_what_stdin_holds_that_is_no_puzzle_is_one_line_naming_it() -> None:
    done = kakuro_with_stdin(LINE[:80].encode() + b"x\n", "solve", "-")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == "kakuro: <stdin>:1:81: 'x' is not a digit of a 9x9 Sudoku (1-9, '.' or '0' empty) (at 'x')", \
        done.stderr


@pytest.mark.parametrize(("data", "kind"), [(LINE, "sudoku"), (JIGSAW, "jigsaw"), ("# diagonals: yes\n" + X, "sudoku-x"),
                                            (KILLER, "killer")])
def test_count_explain_hint_and_render_read_stdin_in_any_format(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, data: str, kind: str) -> None:
    assert kakuro.read(data)[0].kind == kind
    code, out, _ = run_with_stdin(monkeypatch, capsys, data, "count", "-", "-b", "gac")
    assert code == 0 and out.startswith("<stdin>#1: ") and "solution" in out
    code, out, _ = run_with_stdin(monkeypatch, capsys, data, "explain", "-")
    assert code == 0 and "steps" in out.splitlines()[0]
    code, out, _ = run_with_stdin(monkeypatch, capsys, data, "hint", "-", "--level", "3")
    assert code == 0 and out.startswith("next:")
    code, out, _ = run_with_stdin(monkeypatch, capsys, data, "render", "-", "-o", tmp_path / "p.svg")
    assert code == 0 and (tmp_path / "p.svg").read_text().startswith("<svg")


def test_stdin_with_several_puzzles_and_with_none(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_with_stdin(monkeypatch, capsys, f"{LINE}\n{LINE}\n", "solve", "-", "--all")
    assert code == 0 and out.count("solved in") == 2 and "<stdin>#2" in out
    code, out, err = run_with_stdin(monkeypatch, capsys, f"{LINE}\n{LINE}\n", "count", "-")
    assert code == 0 and "puzzle 1 of 2 in <stdin>" in err
    code, out, err = run_with_stdin(monkeypatch, capsys, "", "solve", "-")
    assert code == 1 and "no puzzle found" in err and len(err.strip().splitlines()) == 1


def test_a_line_given_as_file_is_a_path_and_the_error_says_to_pipe_it(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["solve", LINE])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.strip() == f"kakuro: {LINE}: no such file (a puzzle written out is read from standard input: " \
                          "echo LINE | kakuro solve -)"
    code = main(["solve", "no-such-puzzle.txt"])
    assert code == 1 and capsys.readouterr().err.strip() == "kakuro: no-such-puzzle.txt: no such file"


def test_read_takes_a_binary_stream_and_refuses_a_text_one() -> None:
    assert kakuro.read(io.BytesIO(JIGSAW.encode()))[0].kind == "jigsaw"
    with pytest.raises(TypeError, match="binary stream"):
        kakuro.read(io.StringIO(LINE))  # type: ignore[arg-type]


FAMILY = ("Sudoku", "Killer", "Jigsaw", "Sudoku X")


def test_help_readme_and_docs_front_page_name_the_family(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert all(name in shown for name in FAMILY) and "kakuro solve -" in shown
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = readme.split("\n## ", 1)[0]  # what the title and the first paragraph say
    assert all(name in " ".join(first_screen.split()) for name in FAMILY)
    front = " ".join((ROOT / "docs" / "index.md").read_text(encoding="utf-8").split("```")[0].split())
    assert all(name in front for name in FAMILY)


def test_a_line_as_collections_publish_it_with_a_trailing_comment_is_read(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """top95.txt's first line ends in " // from https://...": a comment after the cells, '#' or
    '//', is read; any other words after them are refused at their own column, not at column 1."""
    for comment in ("  // from https://github.com/dimitri/sudoku", "\t# note"):
        code, out, err = run_with_stdin(monkeypatch, capsys, LINE + comment + "\n", "solve", "-")
        assert (code, err) == (0, ""), err
        assert [int(v) for v in out.splitlines()[1].split()][0] == 4
    code, out, err = run_with_stdin(monkeypatch, capsys, LINE + "  from somewhere\n", "solve", "-")
    assert code == 1 and out == ""
    assert err.strip().endswith(":1:84: after a one-line Sudoku's cells only blanks and a comment ('#' or '//') "
                           "may follow (at 'from somewhere')") and err.count("\n") == 1, err
