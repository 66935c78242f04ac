"""Smoke tests of the Cazenave experiment scripts: a tiny configuration of each runs, exits 0 and
prints its tables with the paper's numbers beside ours."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


@pytest.fixture(scope="module")
def scripts():
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        yield importlib.import_module("cazenave_tables"), importlib.import_module("cazenave_figures")
    finally:
        sys.path.remove(str(EXPERIMENTS))


def test_tables_tiny_run(scripts, capsys, tmp_path):
    tables, _ = scripts
    log = tmp_path / "t.jsonl"
    code = tables.main(["--tables", "3,5", "--values", "9,12", "--problems", "1", "--time-limit", "0.05", "--json", str(log)])
    out = capsys.readouterr().out
    assert code == 0
    assert "| Algorithm | backend | Problems solved | Total time |" in out
    assert "| Algorithm | backend | Possible Values | Problems solved |" in out
    assert "| [1,12] |" in out and "| [1,10] |" not in out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 9 + 2 * 2
    assert all(r["valid"] == (r["status"] == "solved") for r in records)


def test_paper_numbers_of_table_5(scripts):
    tables, _ = scripts
    if not tables.PAPER.is_file():
        pytest.skip(f"{tables.PAPER} is absent")
    paper = tables.paper_numbers(tables.PAPER)
    assert paper[3]["Nested Level 2"] == ("100 out of 100", "0.91 s")
    assert paper[4]["Forward Checking"] == ("8 out of 100", "92,131.18 s")
    assert sorted(paper[5], key=int) == [str(v) for v in range(9, 19)]
    assert paper[5]["13"] == ("99 out of 100", "1,688.51 s")


def test_json_file_is_never_overwritten(scripts, tmp_path):
    tables, figures = scripts
    existing = tmp_path / "old.jsonl"
    existing.write_text("keep\n")
    for main in (tables.main, figures.main):
        with pytest.raises(SystemExit, match="exists"):
            main(["--problems", "1", "--time-limit", "0.05", "--json", str(existing)])
    assert existing.read_text() == "keep\n"


def test_figures_tiny_run(scripts, capsys, tmp_path):
    _, figures = scripts
    code = figures.main(["--holes", "0,60", "--problems", "1", "--time-limit", "0.05", "--plot-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "| holes | Nested Level 2 | Nested Level 1 | Forward Checking | Iterative Sampling |" in out
    assert out.count("| 0% | ") == 2 and out.count("| 60% | ") == 2
    # A 0% grid is complete: every algorithm solves it.
    assert "| 0% | 1 | 1 | 1 | 1 |" in out
    assert "invalid answers or backend errors: 0" in out
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert sorted(p.name for p in tmp_path.glob("*.png")) == [
        "cazenave-fig1-solved-p1-t0.05s.png", "cazenave-fig2-time-p1-t0.05s.png"]


def test_invalid_answer_makes_exit_code_1(scripts, capsys, monkeypatch, tmp_path):
    tables, figures = scripts
    import kakuro

    def wrong(self, puzzle, **kwargs):
        grid = [list(row) for row in puzzle.meta["solution"]]
        grid[1][1] = grid[1][2]
        return kakuro.Result(kakuro.Status.SOLVED, grid, 0.0, {}, "", "wrong")

    monkeypatch.setattr(kakuro.Solver, "solve", wrong)
    assert figures.main(["--holes", "0", "--problems", "1", "--time-limit", "0.05", "--plot-dir", str(tmp_path)]) == 1
    assert "| 0% | 0 | 0 | 0 | 0 |" in capsys.readouterr().out
    assert tables.main(["--tables", "5", "--values", "9", "--problems", "1", "--time-limit", "0.05"]) == 1
    assert "invalid answers or backend errors: 2" in capsys.readouterr().out


def test_rdv_comparison_tiny_run(capsys, tmp_path):
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        rdv = importlib.import_module("rdv_comparison")
    finally:
        sys.path.remove(str(EXPERIMENTS))
    log = tmp_path / "r.jsonl"
    argv = ["--sizes", "2,3", "--densities", "0.3", "--count", "1", "--time-limit", "0.2", "--short-limit", "0.05",
            "--json", str(log)]
    code = rdv.main(argv)
    out = capsys.readouterr().out
    assert code == 0
    assert ("| n | `plain` | `run-ordering` | `value-ordering` | `decisive` | `projected-pruning` | "
            "`rdv:search=false` | `rdv:consistency=fc` | `gac` | grades | black |") in out
    assert "| 2x2 |" in out and "| 3x3 |" in out
    assert "invalid answers or backend errors: 0" in out
    assert len(log.read_text().splitlines()) == 2 * 8
    with pytest.raises(SystemExit):
        rdv.main(argv)


@pytest.fixture(scope="module")
def chan():
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        yield importlib.import_module("chan_sudoku")
    finally:
        sys.path.remove(str(EXPERIMENTS))


def test_chan_paper_numbers_are_read_row_by_row(chan):
    if not chan.PAPER.is_file():
        pytest.skip(f"{chan.PAPER} is absent")
    paper = chan.paper_numbers(chan.PAPER)
    # 15 flat and 30 UCT configurations, 10 nested, each on the 50 % and 66 % sets.
    assert len(paper) == 2 * (15 + 30 + 10)
    assert paper[(1, 50, "5", "priority", "priority")] == (15, 3.151)
    assert paper[(1, 66, "10", "priority", "priority")] == (14, 955.921)
    # The first UCT row is split over two lines in the paper's text; the UCT row typeset in bold too.
    assert paper[(2, 50, "c 0.2, 2000", "max-inference", "cells")] == (13, 2750.998)
    assert paper[(2, 50, "c 0.4, 4000", "max-inference", "values")] == (10, 3049.847)
    assert paper[(3, 66, "2", "priority", "priority")] == (41, 5255.274)


def test_chan_paper_rows_out_of_order_are_left_out(chan, tmp_path):
    if not chan.PAPER.is_file():
        pytest.skip(f"{chan.PAPER} is absent")
    lines = chan.PAPER.read_text(encoding="utf-8").splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("| Nested | 1 | yes | cells"))
    lines[first], lines[first + 4] = lines[first + 4], lines[first]  # a priority row where a cells row belongs
    text = tmp_path / "paper.txt"
    text.write_text("\n".join(lines), encoding="utf-8")
    paper = chan.paper_numbers(text)
    assert not any(key[0] == 3 for key in paper)
    assert len(paper) == 2 * (15 + 30)


def test_chan_tiny_run(chan, capsys, tmp_path):
    log = tmp_path / "c.jsonl"
    code = chan.main(["--tables", "3,complete", "--problems", "1", "--time-limit", "0.05", "--complete", "gac",
                      "--json", str(log)])
    out = capsys.readouterr().out
    assert code == 0
    assert "| level | maximum inference | random move function | 50 %: paper | 50 %: ours | 66 %: paper | 66 %: ours |" in out
    assert "| `gac` | 1/1, " in out
    assert "invalid answers or backend errors: 0" in out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 2 * 10 + 2
    assert all(r["valid"] == (r["status"] == "solved") for r in records)
    with pytest.raises(SystemExit, match="exists"):
        chan.main(["--tables", "complete", "--problems", "1", "--complete", "gac", "--json", str(log)])


def test_chan_invalid_answer_makes_exit_code_1(chan, capsys, monkeypatch):
    import kakuro

    def wrong(self, puzzle, **kwargs):
        return kakuro.Result(kakuro.Status.SOLVED, [[1] * puzzle.cols for _ in range(puzzle.rows)], 0.0, {}, "", "wrong")

    monkeypatch.setattr(kakuro.Solver, "solve", wrong)
    assert chan.main(["--tables", "complete", "--problems", "1", "--complete", "gac,fc"]) == 1
    out = capsys.readouterr().out
    assert "| `gac` | 0/1, " in out
    assert "invalid answers or backend errors: 4" in out


def test_chan_unknown_backend_is_a_usage_error(chan, capsys):
    with pytest.raises(SystemExit) as stop:
        chan.main(["--tables", "complete", "--problems", "1", "--complete", "gac,nope"])
    assert stop.value.code == 2 and "unknown backend 'nope'" in capsys.readouterr().err


@pytest.mark.parametrize("script, option", [
    ("choco_models", "--out"), ("mcts_strategies", "--json"), ("sat_csp", "--out"),
    ("propagation_strength", "-o"), ("cazenave_tables", "--json"), ("chan_sudoku", "--json"),
])
def test_no_experiment_appends_to_or_replaces_an_existing_output(script: str, option: str, tmp_path: Path,
                                                                  shared_data: Path) -> None:
    """An experiment's output file must be new: an existing one (a finished run's results) used
    to be appended to (choco_models), replaced (mcts_strategies, sat_csp, propagation_strength);
    now the run ends with one line, before any work, and the file is as it was."""
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        main = importlib.import_module(script).main
    finally:
        sys.path.remove(str(EXPERIMENTS))
    existing = tmp_path / "results.jsonl"
    existing.write_text("a finished run's results\n")
    with pytest.raises(SystemExit, match=f"{existing} exists; choose another {option} file"):
        main(["--quick", option, str(existing)] if script != "chan_sudoku" else
             ["--tables", "complete", "--problems", "1", "--complete", "gac", option, str(existing)])
    assert existing.read_text() == "a finished run's results\n"
