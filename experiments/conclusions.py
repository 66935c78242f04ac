"""A comparison a paper can print: a campaign concluded by `kakuro report`, and every number of
its analysis recomputed from the results file by code that shares none of kakuro's.

    python experiments/conclusions.py [--quick] [--out FOLDER]

Runs `python -m kakuro.compare` with gac, cpsat, sat, nmcs and sampling on 35 puzzles (the 29 of
instances/classic, the 4 loose 30x30 grids and the 2 unsatisfiable 7x7 grids of instances/hard),
3 repeats, 10 s a run, 2 workers; then `python -m kakuro.report --json --cd-diagram` (both
in this process: their imports are paid once), and
recomputes the JSON's numbers (solved, PAR-2, SGM, Borda, average ranks, VBS and contributions,
Friedman p and the Nemenyi CD, Wilcoxon and Holm p-values, who was faster) with json, pandas and
scipy only: to 1e-6, p-values to 1e-4. Each backend's bootstrap interval must hold its PAR-2.
`--quick`: 3 backends, 7 puzzles, 2 repeats, 0.25 s. Prints the report's conclusions and the check;
exits 1 on a mismatch. The files stay in FOLDER (default: a new temporary folder).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import itertools
import json
import math
import shlex
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

ROOT = Path(__file__).resolve().parent.parent
FULL = {
    "paths": ["instances/classic", "instances/hard/loose-30x30.jsonl", "instances/hard/unsat-7x7-v8.jsonl"],
    "backends": ["gac", "cpsat", "sat", "nmcs", "sampling"], "repeat": 3, "limit": 10,
}
QUICK = {
    "paths": ["instances/classic/unique-6x6.jsonl", "instances/hard/unsat-7x7-v8.jsonl"],
    "backends": ["gac", "sat", "sampling"], "repeat": 2, "limit": 0.25,
}
ANSWERED = ("SOLVED", "UNSATISFIABLE")


def par2_table(lines: list[dict[str, Any]], limit: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (puzzle, backend), by the report's rules written out again: answered when most runs
    answered within the limit and none was WRONG; PAR-2 = the median answered time, else 2 x limit."""
    runs: dict[tuple[Any, str], list[dict[str, Any]]] = {}
    for line in lines:
        runs.setdefault(((line["source"], line["index"]), line["backend"]), []).append(line)
    par2, answered = {}, {}
    for (puzzle, backend), mine in runs.items():
        times = [r["time"] for r in mine if r["status"] in ANSWERED and r["time"] <= limit]
        ok = 2 * len(times) > len(mine) and not any(r["status"] == "WRONG" for r in mine)
        par2[(puzzle, backend)] = statistics.median(times) if ok else 2 * limit
        answered[(puzzle, backend)] = ok
    backends = list(dict.fromkeys(line["backend"] for line in lines))
    return pd.Series(par2).unstack()[backends], pd.Series(answered).unstack()[backends]


def holm(p: list[float]) -> list[float]:
    """Holm's step-down adjustment, written out."""
    out, running = [0.0] * len(p), 0.0
    for step, i in enumerate(np.argsort(p)):
        running = max(running, min(1.0, (len(p) - step) * p[i]))
        out[i] = running
    return out


def recomputed(lines: list[dict[str, Any]], limit: float, shift: float) -> dict[str, Any]:
    """The analysis of `kakuro report --json` (bootstrap intervals aside), from the results' lines."""
    par2, answered = par2_table(lines, limit)
    n, k = par2.shape
    backends = list(par2.columns)
    ranks = par2.rank(axis=1, method="average").mean()
    vbs = par2.min(axis=1).mean()
    out: dict[str, Any] = {"puzzles": n, "backends": {}, "vbs": {"solved": int(answered.any(axis=1).sum()), "par2": vbs}}
    for b in backends:
        borda = 0.0
        for puzzle, other in itertools.product(par2.index, backends):
            if other == b or not answered.at[puzzle, b]:
                continue
            t, u = par2.at[puzzle, b], par2.at[puzzle, other]
            borda += 1.0 if not answered.at[puzzle, other] else 0.5 if t + u == 0 else u / (t + u)
        out["backends"][b] = {
            "solved": int(answered[b].sum()), "par2": par2[b].mean(), "sgm": stats.gmean(par2[b] + shift) - shift,
            "borda": borda, "avg_rank": ranks[b], "vbs_contribution": par2.drop(columns=b).min(axis=1).mean() - vbs,
        }
    q = stats.studentized_range.ppf(0.95, k, np.inf) / math.sqrt(2)
    out["friedman"] = {"p": stats.friedmanchisquare(*(par2[b] for b in backends)).pvalue,
                       "cd": q * math.sqrt(k * (k + 1) / (6 * n))}
    pairs = list(itertools.combinations(backends, 2))
    raw = [1.0 if (par2[a] == par2[b]).all() else stats.wilcoxon(par2[a], par2[b]).pvalue for a, b in pairs]
    out["pairwise"] = [
        {"a": a, "b": b, "wilcoxon_p": p, "holm_p": h,
         "a_faster": int((par2[a] < par2[b]).sum()), "b_faster": int((par2[b] < par2[a]).sum())}
        for (a, b), p, h in zip(pairs, raw, holm(raw))
    ]
    return out


def mismatches(got: Any, expected: Any, where: str = "") -> list[str]:
    """Where `got` (the report's JSON) differs from `expected`: numbers to 1e-6, p-values to
    1e-4, counts and names exactly; keys only `got` has are not compared."""
    if isinstance(expected, dict):
        return [m for key, value in expected.items() for m in mismatches(got.get(key) if isinstance(got, dict) else None,
                                                                         value, f"{where}.{key}")]
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return [f"{where}: {got!r} against {expected!r}"]
        return [m for i, (g, e) in enumerate(zip(got, expected)) for m in mismatches(g, e, f"{where}[{i}]")]
    if isinstance(expected, str) or isinstance(expected, (int, np.integer)) and not isinstance(expected, bool):
        return [] if got == expected else [f"{where}: {got!r} against {expected!r}"]
    tolerance = 1e-4 if where.endswith("_p") or where.endswith(".p") else 1e-6
    return [] if isinstance(got, (int, float)) and abs(got - float(expected)) <= tolerance else [
        f"{where}: {got!r} against {float(expected)!r}"]


def program(name: str, argv: list[str]) -> str:
    """What `python -m kakuro.NAME ARGV` prints, run in this process (its imports are paid once);
    SystemExit with its exit code when that is not 0."""
    main = importlib.import_module(f"kakuro.cli.{name}").main
    with contextlib.chdir(ROOT), contextlib.redirect_stdout(io.StringIO()) as shown:  # sources as the repository names them
        code = main(argv)
    if code != 0:
        raise SystemExit(f"python -m kakuro.{name} {shlex.join(argv)} exited {code}")
    return shown.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 backends, 7 puzzles, 2 repeats, 0.25 s")
    parser.add_argument("--out", type=Path, help="folder for the results, the JSON and the diagram")
    args = parser.parse_args(argv)
    setup = QUICK if args.quick else FULL
    folder = (args.out or Path(tempfile.mkdtemp(prefix="kakuro-conclusions-"))).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    results, analysis, diagram = folder / "results.jsonl", folder / "analysis.json", folder / "cd-diagram.svg"
    campaign = [*setup["paths"], *(f"-b{b}" for b in setup["backends"]),
                "--repeat", str(setup["repeat"]), "--time-limit", str(setup["limit"]), "-j", "2", "-o", str(results),
                "--no-progress"]
    program("compare", campaign)
    shown = program("report", [str(results), "--json", str(analysis), "--cd-diagram", str(diagram)])
    print(shown[shown.index("### Conclusions"):shown.index("### Conclusions per")] if "### Conclusions per" in shown else shown)
    got = json.loads(analysis.read_text())
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    wrong = mismatches(got, recomputed(lines, got["time_limit"], got["sgm_shift"]))
    for name, mine in got["backends"].items():
        low_high = mine["par2_ci"]
        if low_high is not None and not low_high[0] <= mine["par2"] <= low_high[1]:
            wrong.append(f"{name}: PAR-2 {mine['par2']} outside its interval {low_high}")
    print(f"Recomputed from {results} with pandas and scipy: "
          + (f"{len(wrong)} mismatches\n" + "\n".join(wrong) if wrong else "every number equal")
          + f"; the diagram is {diagram}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
