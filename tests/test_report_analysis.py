"""`kakuro report --json` against an independent recomputation from the results file itself
(plain json, loops, scipy and pandas: none of kakuro.report's code), the runs-table reader, the
critical-difference diagram and the analysis in every output."""

from __future__ import annotations

import importlib
import itertools
import json
import statistics
import sys
from pathlib import Path

import numpy as np
import pytest

from kakuro.cli.report import main
from kakuro.report.analysis import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED
from tests.test_report import rec, write

LIMIT = 10.0
BACKENDS = ("gac", "cpsat", "sat", "nmcs:level=2", "sampling")
EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


@pytest.fixture(scope="module")
def conclusions():
    """experiments/conclusions.py: the recomputation from a results file with pandas and scipy."""
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        yield importlib.import_module("conclusions")
    finally:
        sys.path.remove(str(EXPERIMENTS))


SPEED = {"gac": 0.02, "cpsat": 0.05, "sat": 0.3, "nmcs:level=2": 0.8, "sampling": 1.5}


def campaign(seed: int, puzzles: int = 35, repeats: int = 3) -> list[dict]:
    """Results lines of 5 backends x `puzzles` x `repeats`: random times around each backend's
    speed, a share of timeouts growing with it, a few memouts, crashes and one WRONG run."""
    rng = np.random.default_rng(seed)
    lines = []
    for puzzle, backend, repeat in itertools.product(range(puzzles), BACKENDS, range(repeats)):
        time = float(rng.exponential(SPEED[backend]) * (1 + puzzle / 10))
        roll = rng.random()
        if time > LIMIT or roll < SPEED[backend] / 10:
            status, time = "TIMEOUT", None
        elif roll > 0.995:
            status, time = rng.choice(["MEMOUT", "CRASH"]), None
        else:
            status = "UNSATISFIABLE" if puzzle % 7 == 3 else "SOLVED"
        lines.append(rec(backend, puzzle, str(status), time, limit=LIMIT, seed=repeat))
    lines[7]["status"] = "WRONG"  # one wrong run makes its pair unanswered
    return lines


def test_every_number_of_the_json_equals_an_independent_recomputation(tmp_path: Path, conclusions) -> None:
    lines = campaign(1)
    results = write(tmp_path / "r.jsonl", lines)
    out = tmp_path / "analysis.json"
    assert main([str(results), "--json", str(out), "--sgm-shift", "0.5", "--cd-diagram", str(tmp_path / "cd.svg")]) == 0
    got = json.loads(out.read_text())
    assert got["time_limit"] == LIMIT and got["sgm_shift"] == 0.5
    expected = conclusions.recomputed(lines, LIMIT, 0.5)
    assert list(expected["backends"]) == list(BACKENDS) and expected["puzzles"] == 35
    assert conclusions.mismatches(got, expected) == []
    assert (tmp_path / "cd.svg").read_bytes().startswith(b"<?xml")


def test_the_recomputation_sees_a_changed_number(tmp_path: Path, conclusions) -> None:
    lines = campaign(1)
    out = tmp_path / "analysis.json"
    assert main([str(write(tmp_path / "r.jsonl", lines)), "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    got["backends"]["sat"]["borda"] += 1e-5
    got["pairwise"][3]["holm_p"] += 1e-3
    got["vbs"]["solved"] -= 1
    assert len(conclusions.mismatches(got, conclusions.recomputed(lines, LIMIT, got["sgm_shift"]))) == 3


def runs_of(lines: list[dict]) -> dict[tuple[str, str], list[dict]]:
    runs: dict[tuple[str, str], list[dict]] = {}
    for line in lines:
        runs.setdefault((line["instance"], line["backend"]), []).append(line)
    return runs


def bootstrap_by_loops(runs: dict[tuple[str, str], list[dict]], backend: str, puzzles: list[str]) -> tuple[float, float]:
    """The percentile interval, resampling each puzzle's runs in plain loops (the same seeded
    draws as the report's: one (resamples x runs) block per puzzle, in the puzzles' order)."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    totals = [0.0] * BOOTSTRAP_RESAMPLES
    for puzzle in puzzles:
        mine = runs[(puzzle, backend)]
        picks = rng.integers(0, len(mine), size=(BOOTSTRAP_RESAMPLES, len(mine)))
        for b, pick in enumerate(picks):
            drawn = [mine[i] for i in pick]
            times = [r["time"] for r in drawn if r["status"] in ("SOLVED", "UNSATISFIABLE")]
            ok = 2 * len(times) > len(drawn) and not any(r["status"] == "WRONG" for r in drawn)
            totals[b] += statistics.median(times) if ok else 2 * LIMIT
    means = np.array(totals) / len(puzzles)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def test_the_bootstrap_interval_holds_its_par2_and_is_the_textbook_percentile_interval(tmp_path: Path) -> None:
    lines = campaign(2, puzzles=12)
    results = write(tmp_path / "r.jsonl", lines)
    out = tmp_path / "a.json"
    assert main([str(results), "--json", str(out)]) == 0
    got = json.loads(out.read_text())["backends"]
    runs = runs_of(lines)
    puzzles = list(dict.fromkeys(line["instance"] for line in lines))
    for backend in ("nmcs:level=2", "gac"):
        low, high = got[backend]["par2_ci"]
        assert low <= got[backend]["par2"] <= high
        assert (low, high) == pytest.approx(bootstrap_by_loops(runs, backend, puzzles), abs=1e-6)


def test_single_runs_have_no_interval(tmp_path: Path) -> None:
    results = write(tmp_path / "r.jsonl", campaign(3, puzzles=5, repeats=1))
    assert main([str(results), "--json", str(tmp_path / "a.json")]) == 0
    assert all(b["par2_ci"] is None for b in json.loads((tmp_path / "a.json").read_text())["backends"].values())


RUNS_CSV = """Solver,Instance,Status,Time,Memory
A,p1,solved,1.0,10
A,p2,TIMEOUT,,10
A,p3,unsat,2.0,10
B,p1,sat,3.0,10
B,p2,solved,4.0,10
B,p3,error,,10
"""


def test_a_runs_table_gives_par2_and_vbs_by_hand_checkable_arithmetic(tmp_path: Path, capsys) -> None:
    table = tmp_path / "runs.csv"
    table.write_text(RUNS_CSV)
    out = tmp_path / "a.json"
    assert main([str(table), "--time-limit", "5", "--json", str(out)]) == 0
    got = json.loads(out.read_text())
    # A: 1 + 2*5 + 2 = 13 over 3; B: 3 + 4 + 2*5 = 17 over 3; VBS: min per puzzle 1, 4, 2 = 7 over 3.
    assert got["backends"]["A"]["par2"] == pytest.approx(13 / 3)
    assert got["backends"]["B"]["par2"] == pytest.approx(17 / 3)
    assert got["vbs"] == {"solved": 3, "par2": pytest.approx(7 / 3)}
    assert got["backends"]["A"]["vbs_contribution"] == pytest.approx((3 + 4 + 10) / 3 - 7 / 3)
    assert got["backends"]["A"]["solved"] == 2 and got["backends"]["B"]["solved"] == 2
    assert "Conclusions" in capsys.readouterr().out


@pytest.mark.parametrize(("text", "argv", "message"), [
    (RUNS_CSV, [], "is a runs table, which holds no time limit"),
    (RUNS_CSV.replace("TIMEOUT", "lost"), ["--time-limit", "5"], "runs.csv:3: status 'lost' is not one of"),
    (RUNS_CSV.replace("1.0,10", "fast,10"), ["--time-limit", "5"], "runs.csv:2: time 'fast' is not a number"),
    (RUNS_CSV.replace("A,p3,unsat,2.0", "A,p3,unsat,"), ["--time-limit", "5"], "runs.csv:4: an answered run needs its time"),
])
def test_a_bad_runs_table_is_one_line_naming_file_and_line(tmp_path: Path, capsys, text: str, argv: list[str],
                                                           message: str) -> None:
    table = tmp_path / "runs.csv"
    table.write_text(text)
    assert main([str(table), *argv]) in (1, 2)
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and "Traceback" not in "\n".join(err)


def test_a_run_answered_after_the_limit_is_a_timeout(tmp_path: Path, capsys) -> None:
    table = tmp_path / "runs.csv"
    table.write_text(RUNS_CSV.replace("B,p2,solved,4.0", "B,p2,solved,40.0"))
    assert main([str(table), "--time-limit", "5", "--json", str(tmp_path / "a.json")]) == 0
    assert json.loads((tmp_path / "a.json").read_text())["backends"]["B"]["solved"] == 1
    assert "1 answered run(s) took longer than the time limit" in capsys.readouterr().err


def test_the_analysis_is_in_every_output_with_its_sentence(tmp_path: Path) -> None:
    results = write(tmp_path / "r.jsonl", campaign(4, puzzles=8))
    outputs = {kind: tmp_path / f"report.{kind}" for kind in ("md", "tex", "html")}
    assert main([str(results), "--markdown", str(outputs["md"]), "--latex", str(outputs["tex"]),
                 "--html", str(outputs["html"]), "--group", "source"]) == 0
    for path in outputs.values():
        text = path.read_text()
        for expected in ("Conclusions, time limit 10 s", "Pairwise tests", "Conclusions per source",
                         "Friedman", "critical difference", "virtual best"):
            assert expected in text, (path, expected)
