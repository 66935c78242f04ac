"""benchmarks/sudoku_limit.py runs anywhere in its --quick form (no tdoku: the column says how to
build it), reads a puzzle file with `#` comments and trailing text, and refuses a bad one with
file, line and column before any work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kakuro.formats import dumps
from kakuro.generate.unique_sudoku import unique_sudoku
from tests.conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "sudoku_limit.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)


def test_quick_runs_without_tdoku_and_says_how_to_get_it() -> None:
    done = run("--quick", "--big", "0")
    assert done.returncode == 0, done.stderr
    assert "t-dillon/tdoku" in done.stdout and "make tdoku_shared" in done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("| generated")]
    assert [row.split("|")[4].strip() for row in rows] == ["`gac`", "`auto`"]
    assert all(row.rstrip(" |").endswith("3 solved") for row in rows)
    assert "answers missing or differing from tdoku's: 0" in done.stdout


def test_a_puzzle_file_with_comments_is_read(tmp_path: Path) -> None:
    lines = [dumps(unique_sudoku(9, seed=s), "sudoku").split()[-1] for s in range(2)]
    path = tmp_path / "two.txt"
    path.write_text(f"# two puzzles\n\n{lines[0]} // a note\n{lines[1].replace('.', '0')}\n")
    done = run("--puzzles", str(path), "--repeats", "1", "--big", "0", "--backends", "gac")
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
