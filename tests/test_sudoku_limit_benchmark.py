"""benchmarks/sudoku_limit.py runs anywhere in its --quick form (no tdoku: the column says how to
build it) with a row for each generated set, reads a puzzle file with `#` comments and trailing
text and a file of published Killers (`--killers`), and refuses a bad one with file, line and
column before any work. The script's `main` runs in this process (its exit code, stdout and
stderr as a run of the script gives them): a process each cost 1.5 s of imports."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import subprocess
from pathlib import Path

from kakuro.formats import dumps
from kakuro.generate.unique_sudoku import unique_killer, unique_sudoku
from tests.conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "sudoku_limit.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """`python benchmarks/sudoku_limit.py ARGS`: its exit code, stdout and stderr."""
    spec = importlib.util.spec_from_file_location("sudoku_limit", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = script.main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess([str(SCRIPT), *args], code, out.getvalue(), err.getvalue())


def test_quick_runs_without_tdoku_and_says_how_to_get_it() -> None:
    done = run("--quick", "--big", "0")
    assert done.returncode == 0, done.stderr
    assert "t-dillon/tdoku" in done.stdout and "make tdoku_shared" in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| generated")]
    assert [row.split("|")[4].strip() for row in rows] == ["`gac`", "`auto`"]
    assert all(row.rstrip(" |").endswith("3 solved") for row in rows)
    family = [line.split("|")[1:4] for line in done.stdout.splitlines()
              if line.startswith(("| killer", "| jigsaw", "| sudoku x"))]
    assert [[cell.strip() for cell in row] for row in family] == [
        [kind, "2", spec] for kind in ("killer 9x9", "jigsaw 9x9", "sudoku x 9x9") for spec in ("`gac`", "`auto`")]
    assert all(line.rstrip(" |").endswith("| 2") for line in done.stdout.splitlines()
               if line.startswith(("| killer", "| jigsaw", "| sudoku x")))
    assert "unsolved, or answers differing from tdoku's: 0" in done.stdout


def test_a_puzzle_file_with_comments_is_read(tmp_path: Path) -> None:
    lines = [dumps(unique_sudoku(9, seed=s), "sudoku").split()[-1] for s in range(2)]
    path = tmp_path / "two.txt"
    path.write_text(f"# two puzzles\n\n{lines[0]} // a note\n{lines[1].replace('.', '0')}\n")
    done = run("--puzzles", str(path), "--repeats", "1", "--big", "0", "--family", "0", "--backends", "gac")
    assert done.returncode == 0, done.stderr
    assert "| two.txt | 2 |" in done.stdout and "2 solved" in done.stdout


def test_a_bad_puzzle_file_is_refused_with_its_line_and_column(tmp_path: Path) -> None:
    good = dumps(unique_sudoku(9, seed=0), "sudoku").split()[-1]
    path = tmp_path / "bad.txt"
    path.write_text(f"{good}\n  {good[:10]}x{good[11:]}\n")
    done = run("--puzzles", str(path), "--big", "0")
    assert done.returncode == 2 and done.stdout == ""
    assert f"{path}:2:13: 'x' is neither a digit" in done.stderr
    path.write_text(good[:80] + "\n")
    done = run("--puzzles", str(path), "--big", "0")
    assert done.returncode == 2 and f"{path}:1:1: a puzzle is 81 characters, this one 80" in done.stderr


def test_published_killers_get_a_row_a_file(tmp_path: Path) -> None:
    made = [unique_killer(9, seed=s, largest=4) for s in range(4)]
    (tmp_path / "three.killer").write_text(dumps(made[:3], "killer"))
    (tmp_path / "one.killer").write_text(dumps(made[3:], "killer"))
    done = run("--quick", "--killers", str(tmp_path / "three.killer"), "--killers", str(tmp_path / "one.killer"),
               "--sample", "2", "--big", "0", "--family", "0", "--backends", "gac")
    assert done.returncode == 0, done.stderr
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in done.stdout.splitlines()
            if line.startswith("| published")]
    assert [row[:3] + row[-1:] for row in rows] == [
        ["published Killers: three.killer (sample of 2)", "2", "`gac`", "2"],
        ["published Killers: one.killer", "1", "`gac`", "1"]]
    assert not any(line.startswith(("| killer", "| 16x16")) for line in done.stdout.splitlines())


def test_a_bad_killer_file_is_refused_with_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.killer"
    good = dumps(unique_killer(9, seed=0, largest=4), "killer")
    lines = good.splitlines()
    line, column = next((n, found.start() + 1) for n, text in enumerate(lines, start=1)  # cage a's first cell
                        if "=" not in text and ":" not in text and (found := re.search(r"\ba\b", text)))
    path.write_text("\n".join(re.sub(r"\ba=[0-9]+ ?", "", text) for text in lines) + "\n")  # cage a loses its sum
    done = run("--quick", "--killers", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert f"{path}:{line}:{column}: cage a has no sum" in done.stderr and "Traceback" not in done.stderr
    sudoku = tmp_path / "plain.sdm"
    sudoku.write_text(dumps(unique_sudoku(9, seed=0), "sudoku"))
    done = run("--quick", "--killers", str(sudoku))
    assert done.returncode == 2 and f"{sudoku}: puzzle 1 is a sudoku, not a Killer Sudoku" in done.stderr
    done = run("--quick", "--killers", str(tmp_path / "missing.killer"))
    assert done.returncode == 2 and "missing.killer: no such file" in done.stderr
