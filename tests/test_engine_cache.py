"""The compiled engine's disk cache and its compilation, on a fresh copy of the package (an
empty cache, as after an install): compilation is paid before the clock, so a cold solve
honours a one-second limit and reports solving time only; and the cache is keyed by every
engine source, so editing a function that another file's cached kernel inlines recompiles
that kernel."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "instances" / "examples" / "cazenave-2010-table1.txt"

SPEC = "fc:consistency=fc"
"""The native backend with the fewest kernels (the state's clock, root propagation and the
depth-first search at forward checking, the kernels `ASSIGNMENTS` runs too): every native
backend compiles through the same `NativeSolver.prepare_engine`."""

COLD_SOLVE = f"""
import json, time, kakuro
puzzle = kakuro.read({str(EXAMPLE)!r})[0]
solver = kakuro.get_solver({SPEC!r})
cold = solver.is_cold()
start = time.perf_counter()
result = solver.solve(puzzle, time_limit=1.0)
print(json.dumps({{"cold": cold, "status": result.status.value, "time": result.time,
                  "wall": time.perf_counter() - start, "cold_after": solver.is_cold()}}))
"""

ASSIGNMENTS = f"""
import kakuro
from kakuro.engine import propagate, state, tree
puzzle = kakuro.read({str(EXAMPLE)!r})[0]
st = state.build_state(puzzle, "fc")
state.arm(st, None, 0)
propagate.root_propagate(st)
tree.run_depth_first(st, "ascending", 2)
print(int(st.info[state.ASSIGNMENTS]))
"""


@pytest.fixture(scope="module")
def fresh_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package without any compiled cache."""
    folder = tmp_path_factory.mktemp("fresh")
    shutil.copytree(ROOT / "kakuro", folder / "kakuro", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def run(folder: Path, script: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(folder))
    done = subprocess.run([sys.executable, "-c", script], env=env, cwd=folder, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_cold_solve_compiles_before_the_clock(fresh_copy: Path) -> None:
    first = json.loads(run(fresh_copy, COLD_SOLVE))
    assert first["cold"] and not first["cold_after"]
    assert first["status"] == "solved"
    assert first["time"] < 0.5 < first["wall"]  # the compilation took the wall time, not the solve
    second = json.loads(run(fresh_copy, COLD_SOLVE))
    assert not second["cold"] and second["status"] == "solved"


def test_editing_an_engine_file_recompiles_the_kernels_that_inline_it(fresh_copy: Path) -> None:
    before = int(run(fresh_copy, ASSIGNMENTS))
    cached = list((fresh_copy / "kakuro" / "engine" / "__pycache__").glob("tree.depth_first-*.nbi"))
    assert before > 0 and cached  # tree.depth_first (which inlines propagate.assign) is on disk
    assert int(run(fresh_copy, ASSIGNMENTS)) == before  # loaded from the cache: the same code
    source = fresh_copy / "kakuro" / "engine" / "propagate.py"
    text = source.read_text()
    assert text.count("st.info[ASSIGNMENTS] += 1\n") == 1
    source.write_text(text.replace("st.info[ASSIGNMENTS] += 1\n", "st.info[ASSIGNMENTS] += 1000\n"))
    assert int(run(fresh_copy, ASSIGNMENTS)) == 1000 * before  # tree.py unchanged, its kernel recompiled
