"""Shared fixtures: golden puzzles and the shared data folder; the suite's bytecode and its
scheduling on several workers (pytest-xdist)."""

from __future__ import annotations

import compileall
import functools
import importlib.util
import math
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import kakuro
from kakuro import Puzzle

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


def keep_bytecode() -> None:
    """Let this process and the programs the tests start keep their bytecode, and write the
    package's now (only what is missing or stale), even where PYTHONDONTWRITEBYTECODE is set (as
    on the CI machines): the suite starts several hundred `python -m kakuro` children, each of
    which would otherwise compile every module it imports from source (about 0.3 s of CPU a
    process), and every worker would rewrite every test module's asserts again. The caches go
    where Python keeps them (`__pycache__`, ignored by git); a checkout that cannot be written
    is left as it is and only runs slower."""
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(ROOT / "kakuro", quiet=2)


keep_bytecode()
EXAMPLES = ROOT / "instances" / "examples"
DOCS = ROOT / "docs"


@functools.cache
def load_module(path: Path) -> ModuleType:
    """The Python file at `path` imported as a module named after it, once per process (a
    script or the docs' extension, which are not in a package)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def docs_markdown() -> list[Path]:
    """Every Markdown file of docs/ (its own README.md included), not the built site's."""
    return sorted(path for path in DOCS.rglob("*.md") if "_build" not in path.relative_to(DOCS).parts)


def tree_env(*paths: Path) -> dict[str, str]:
    """This process's environment with PYTHONPATH set to this tree (then `paths`): what a child
    `python` needs to import the kakuro under test."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(str(path) for path in (ROOT, *paths))}

CAZENAVE_TABLE2 = [
    [1, 7, 5, 3, 2],
    [4, 5, 3, 8, 6],
    [5, 6, 7, 2, 8],
    [8, 4, 1, 6, 7],
    [6, 3, 4, 7, 1],
]
"""The solution Cazenave (2010) prints in Table 2 for the grid of Table 1."""

TWO_SOLUTIONS = """
#   3\\  3\\
\\3  _   _
\\3  _   _
"""
UNSATISFIABLE = """
#   4\\  4\\
\\3  _   _
\\3  _   _
"""


PUZZLINK_URL = "https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG"

AVAILABLE = [info.name for info in kakuro.backend_info() if info.available]
"""The registered backends whose engine can run here."""


SWEEP_EVERY = 1 if os.environ.get("KAKURO_SWEEP_ALL") else 3
"""The sweeps that solve or explain the shared puzzles take every SWEEP_EVERY-th puzzle of each
set (every third: the suite's time; `KAKURO_SWEEP_ALL=1 pytest -q` takes every one). Loading,
checking and counting still cover every puzzle."""


def shared_data_or_skip() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared puzzle data is absent: {SHARED_DATA} does not exist")
    return SHARED_DATA


def shared_set(name: str) -> list[Puzzle]:
    """Every puzzle of the shared set `name` (`janko`, `krazydad`, ...), in file order, read once
    per test process (janko's 999 take about a second to read; puzzles are immutable, the list is
    the caller's own); skips, saying why, when the shared data is absent."""
    return list(_read_shared_set(shared_data_or_skip() / f"{name}.jsonl"))


@functools.cache
def _read_shared_set(path: Path) -> tuple[Puzzle, ...]:
    return tuple(kakuro.read(path))


@pytest.fixture(scope="session")
def cazenave() -> Puzzle:
    return kakuro.read(EXAMPLES / "cazenave-2010-table1.txt")[0]


@pytest.fixture(scope="session")
def two_solutions() -> Puzzle:
    return kakuro.read(TWO_SOLUTIONS)[0]


@pytest.fixture(scope="session")
def unsatisfiable() -> Puzzle:
    return kakuro.read(UNSATISFIABLE)[0]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; skips the test (saying why) when it is absent."""
    return shared_data_or_skip()


@pytest.fixture(scope="session")
def puzzlink_url() -> str:
    return PUZZLINK_URL


@pytest.fixture(scope="session")
def puzzlink() -> Puzzle:
    """The puzz.link test vector of issue 2 (6x5 inside its clue frame): exactly one solution."""
    return kakuro.read(PUZZLINK_URL)[0]


@pytest.fixture(scope="session")
def janko() -> list[Puzzle]:
    return shared_set("janko")


def hard_for_gac(size: int = 12) -> Puzzle:
    """An empty all-white grid over 1..size+1 whose sums are moved so that no filling exists
    while the row sums still add up to the column sums (`cazenave(..., unsatisfiable=True)`):
    neither run-level reasoning nor the totals check sees it, so the native search works for
    minutes; SAT refutes the 12x12 in about 0.3 s, not the 16x16 in 10 s."""
    from kakuro.generate import cazenave as generate

    return generate(size, size + 1, 100, count=1, seed=1, unsatisfiable=True)[0]


@pytest.fixture(scope="session")
def hard() -> Puzzle:
    """An empty 9x9 all-white grid, values 1..10, with unsatisfiable sums: every row sums to
    45 but the column sums are shifted (still 9 distinct values each), so the totals disagree
    (405 vs 406) and a search must work to find out."""
    rows = [45] * 9
    cols = [45] * 8 + [46]
    return Puzzle.all_white(rows, cols, values=(1, 10), id="hard-unsat")


# ===================================================================== parallel runs (pytest-xdist)
TIMED = "timed"
"""The marker of the tests that bound a wall time: each test function's (all its parameters), or
the tests of `timed("UNIT")` (those of one module fixture, such as a campaign under a memory
limit), are an xdist group `timed:FILE::FUNCTION` or `timed:FILE::UNIT`, run once the parallel
tests are done, one per worker (a worker more than the cores, as in the parallel phase). Their
bounds are stated as on an idle core (`tests.timing`), so they hold on a machine busy with other
work too: three of them on 2 cores make CPU work at most 1.5 times slower, less than the two
CPU-bound processes beside them that `pytest -m timed` is checked with."""
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
"""The cores this process may run on."""


UNIT_SECONDS = "kakuro/unit-seconds"
"""The pytest cache key (.pytest_cache) of each unit of work's test seconds in its last run."""
_SCHEDULERS: list[Any] = []
"""The controller's `QuietLast` (none in a worker or without xdist), for the report hooks, which
get no config to find it by."""


def _cache(config: pytest.Config) -> Any:
    """pytest's cache (`config.cache`), None where there is none (`-p no:cacheprovider`)."""
    return getattr(config, "cache", None)


def phase(scope: str) -> int:
    """When a unit of work runs: 0 with the parallel tests, 1 in the timed phase after them."""
    return 1 if scope.startswith(TIMED + ":") else 0


try:
    from xdist.remote import Producer
    from xdist.scheduler import LoadGroupScheduling
    from xdist.workermanage import WorkerController
except ImportError:  # pytest-xdist absent: every test runs in this one process, in order
    pass
else:
    def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
        """`-n auto`: a worker more than the cores. Many parallel tests spend seconds waiting
        (a campaign's time limits, a child's start, a killed worker's replacement), and the
        extra worker's tests use the core meanwhile (2 cores: 7 min 12 s with 2 workers, 6 min
        33 s with 3, 2026-11-28); `QuietLast` runs at most this many timed tests at once."""
        return CORES + 1

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
        """Put every `timed` test in its function's xdist group `timed:FILE::FUNCTION`, or in
        `timed:FILE::UNIT` for `timed("UNIT")` (the tests of one module fixture), before xdist's
        own hook names the groups of `--dist loadgroup`; `QuietLast` runs them after the others.
        A function, not a file: one file's timed tests (30 s in tests/test_limits_and_hints.py)
        would be the whole timed phase of one worker while the others wait."""
        for item in items:
            if (timed := item.get_closest_marker(TIMED)) is not None:
                file, function = item.nodeid.split("[", 1)[0].split("::", 1)
                item.add_marker(pytest.mark.xdist_group(f"{TIMED}:{file}::{timed.args[0] if timed.args else function}"))

    class QuietLast(LoadGroupScheduling):
        """`--dist loadgroup` in two phases. A test file is one unit of work (its module
        fixtures, such as a whole compare campaign, are built once). The parallel units go
        first, on every worker; the `timed` units wait until no worker runs a parallel test,
        then go one per worker, to at most `CORES + 1` workers at once, so that the timing tests
        see a machine without the parallel tests' load."""

        def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
            super().__init__(config, log)
            cache = _cache(config)
            self.seconds: dict[str, float] = dict(cache.get(UNIT_SECONDS, {})) if cache else {}
            """Each unit's seconds of test time in the last run that ran it (`UNIT_SECONDS`)."""
            self.measured: dict[str, float] = {}
            """Each unit's seconds of test time in this run."""
            self.waiting: list[WorkerController] = []
            """Workers that asked for work while the next unit's phase could not start yet."""

        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)  # the group's name, or the test's own id
            return scope if scope != nodeid else nodeid.split("::", 1)[0]

        def _assign_work_unit(self, node: WorkerController) -> None:
            for scope in sorted(self.workqueue, key=self._order):
                self.workqueue.move_to_end(scope)
            if phase(next(iter(self.workqueue))) == 0:
                super()._assign_work_unit(node)
                return
            if node not in self.waiting:
                self.waiting.append(node)
            self._release()

        def _order(self, scope: str) -> tuple[int, float]:
            """Phase first; within a phase the longest units of the last run first (longest
            processing time first, so that no long file starts last and leaves the other workers
            idle), units not seen before first of all, then collection order (a stable sort)."""
            return phase(scope), -self.seconds.get(scope, math.inf)

        def _pending_in(self, node: WorkerController, unit_phase: int) -> int:
            """Tests `node` has yet to run of its units of `unit_phase` (`phase`)."""
            work = self.assigned_work.get(node, {})
            return self._pending_of({scope: unit for scope, unit in work.items() if phase(scope) == unit_phase})

        def _release(self) -> None:
            """Hand waiting workers the next timed units once they may start: when no worker has a
            parallel test left but the last one it holds (a worker runs its last test only when
            given more, or told to stop), to at most `CORES + 1` workers at once."""
            while self.waiting and self.workqueue:
                if any(self._pending_in(node, 0) > 1 for node in self.assigned_work):
                    return
                if self._timed_running() > CORES:
                    return
                super()._assign_work_unit(self.waiting.pop(0))

        def _timed_running(self) -> int:
            """Workers running a timed unit: those with more than its last test pending (a
            worker holds its last test until it is given more work or told to stop)."""
            return sum(1 for node in self.assigned_work if self._pending_in(node, 1) > 1)

        def mark_test_complete(self, node: WorkerController, item_index: int, duration: float = 0) -> None:
            super().mark_test_complete(node, item_index, duration)
            self._release()

        def remove_node(self, node: WorkerController) -> str | None:
            if node in self.waiting:
                self.waiting.remove(node)
            return super().remove_node(node)

    def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> LoadGroupScheduling | None:
        """`QuietLast` for `--dist loadgroup` (the default, set in pyproject.toml); the other
        `--dist` modes are xdist's own and run the `timed` tests alongside the others."""
        if config.getvalue("dist") != "loadgroup":
            return None
        scheduler = QuietLast(config, log)
        _SCHEDULERS[:] = [scheduler]
        return scheduler

    def pytest_runtest_logreport(report: pytest.TestReport) -> None:
        """Add each phase of a test (setup, call, teardown) to its unit's seconds, in the controller."""
        for scheduler in _SCHEDULERS:
            scope = scheduler._split_scope(report.nodeid)
            scheduler.measured[scope] = scheduler.measured.get(scope, 0.0) + report.duration

    def pytest_sessionfinish(session: pytest.Session) -> None:
        """Keep each unit's test time for the next run's order (units not run this time keep
        their last time)."""
        cache = _cache(session.config)
        for scheduler in _SCHEDULERS:
            if cache is not None and scheduler.measured:
                cache.set(UNIT_SECONDS, {**scheduler.seconds, **scheduler.measured})
