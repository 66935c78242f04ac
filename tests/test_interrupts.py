"""Ctrl-C stops the compiled engine within a fraction of a second, with no limit set: the
library raises KeyboardInterrupt, the command line prints one line and exits 130 (fault
injection: SIGINT sent to a child process deep inside a search)."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

import kakuro
from tests.conftest import AVAILABLE, hard_for_gac, tree_env
from tests.doc_runner import WarmChild
from tests.timing import timed

# Timed: SIGINT to a child mid-search, the seconds to its exit bounded: the parallel tests' load would break it.
pytestmark = pytest.mark.timed

ROOT = Path(__file__).resolve().parent.parent
SEARCH_SECONDS = 0.5
"""How long the child searches before it is interrupted (its search would take far longer)."""


def interrupt(script: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run `script` in a child forked from this worker's warm interpreter (`tests.doc_runner`:
    `kakuro` imported, the common kernels loaded) with Python's own SIGINT handler, wait for its
    "go" line, let it search SEARCH_SECONDS, send SIGINT; (seconds from the signal to its exit
    as on an idle core, `tests.timing`: what the child does then is work, slower on a busy
    machine; its output)."""
    _, seconds, done = interrupt_timed(script)
    return seconds, done


def interrupt_timed(script: str) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """`interrupt`, and the seconds from the signal to the moment the script printed
    `stopped_at()` (a line "stopped <perf_counter>": the clock is the system's, the same in every
    process), before the interpreter's exit (0.5 to 1 s with the command line's and the engines'
    modules loaded): (seconds to that line, seconds to the exit, its output; "stopped ..." lines
    taken off its stdout), both as on an idle core (`tests.timing`). NaN when it printed none."""
    prologue = "import signal, sys, time; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    child = WarmChild(prologue + script, ROOT, tree_env())
    assert child.readline().strip() == "go", child.communicate(60)
    time.sleep(SEARCH_SECONDS)
    assert child.poll() is None, "the search ended before the interrupt"
    with timed() as t:
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    stops = [t.quiet(float(line.split()[1]) - sent) for line in out.splitlines() if line.startswith("stopped ")]
    out = "".join(line + "\n" for line in out.splitlines() if not line.startswith("stopped "))
    return (stops[0] if stops else float("nan")), t.quiet(t.wall), subprocess.CompletedProcess(
        script, child.returncode or 0, out, err)


STOPPED_AT = "print('stopped', time.perf_counter(), flush=True)"
"""The line a script of `interrupt_timed` runs where the interrupt has stopped it."""


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hard") / "hard.jsonl"
    kakuro.write(hard_for_gac(), path)
    return path


CHOCO = [pytest.param("choco", marks=pytest.mark.skipif("choco" not in AVAILABLE, reason="pychoco is not installed"))]


@pytest.mark.parametrize("spec", ["gac", "fc", "nmcs", "backtrack", *CHOCO])
def test_ctrl_c_stops_a_library_solve_without_a_limit(spec: str, puzzle_file: Path) -> None:
    limit = "None" if kakuro.get_solver(spec).complete else "3600"
    script = (
        "import kakuro\n"
        f"puzzle = kakuro.read({str(puzzle_file)!r})[0]\n"
        f"solver = kakuro.get_solver({spec!r})\n"
        "solver.ensure_warm()\n"
        "print('go', flush=True)\n"
        "try:\n"
        f"    solver.solve(puzzle, time_limit={limit})\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    seconds, done = interrupt(script)
    assert done.stdout.strip() == "interrupted", done.stderr[-1500:]
    assert seconds < 1.5  # a fraction of a second, with slack for a loaded machine and the exit


@pytest.mark.parametrize("spec", ["gac", *CHOCO])
def test_ctrl_c_on_the_command_line_prints_one_line_and_exits_130(spec: str, puzzle_file: Path) -> None:
    """Issue 19, item 5: gac and choco ran to their 30 s limit after Ctrl-C, with a traceback."""
    script = (
        "import kakuro\n"
        "from kakuro.cli import main\n"
        f"kakuro.get_solver({spec!r}).ensure_warm()\n"
        "print('go', flush=True)\n"
        f"sys.exit(main(['solve', {str(puzzle_file)!r}, '-b', {spec!r}, '--time-limit', '30']))\n"
    )
    seconds, done = interrupt(script)
    assert done.returncode == 130 and seconds < 1.5
    assert done.stderr.strip() == "kakuro: interrupted"


def test_ctrl_c_stops_the_explanation_kernel() -> None:
    """The contradiction step's kernel (every candidate assumed and propagated in one compiled
    call: about 30 s on this 16x16 grid of values 1..25) stops on Ctrl-C and raises."""
    script = (
        "from kakuro import Puzzle\n"
        "from kakuro.combos import range_mask\n"
        "from kakuro.engine import compile\n"
        "from kakuro.engine.reasons import refuted_values\n"
        "puzzle = Puzzle.all_white([208] * 16, [208] * 15 + [209], values=(1, 25))\n"
        "compile.ensure('root:gac', 'refute:gac')\n"
        "print('go', flush=True)\n"
        "try:\n"
        "    refuted_values(puzzle, [range_mask((1, 25))] * puzzle.size)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    seconds, done = interrupt(script)
    assert done.stdout.strip() == "interrupted", done.stderr[-1500:]
    assert seconds < 1.5
