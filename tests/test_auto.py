"""`auto`, the default backend: root propagation decides what it can, then the native search
and SAT race on the shaved domains; its stats say which path decided, and every path gives
the same, checked answers."""

from __future__ import annotations

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.generate import cazenave, classic
from kakuro.reasoning import root
from tests.conftest import hard_for_gac, shared_set
from tests.timing import timed


def test_auto_is_what_a_user_gets_without_naming_a_backend() -> None:
    puzzle = kakuro.read("instances/examples/puzzlink-6x5.txt")[0]
    result = kakuro.solve(puzzle)
    assert result.status is Status.SOLVED and result.backend == "auto"
    assert kakuro.count_solutions(puzzle).backend == "auto"


def test_published_puzzles_end_at_the_root() -> None:
    puzzles = shared_set("janko")[:40]
    paths = [kakuro.solve(p, "auto", time_limit=30).stats["path"] for p in puzzles]
    assert paths.count("root") >= 35


def test_each_path_answers_and_names_itself() -> None:
    loose = classic(16, 16, density=0.25, count=1, seed=5, unique=False)[0]  # many solutions: a search is needed
    unsat = cazenave(6, 7, 100, count=1, seed=3, unsatisfiable=True)[0]  # no solution, though the sums add up
    for search, path in (("native", "native"), ("sat", "sat")):
        solved = kakuro.solve(loose, f"auto:search={search}", time_limit=60)
        assert solved.status is Status.SOLVED and solved.stats["path"] == path
        assert loose.check(solved.solution) == []
    raced = kakuro.solve(loose, "auto", time_limit=60)
    assert raced.status is Status.SOLVED and raced.stats["path"] in ("native", "sat")
    counted = kakuro.solve(unsat, "auto", time_limit=60)
    assert counted.status is Status.UNSATISFIABLE and counted.stats["path"] == "root"
    assert "across runs but in" in counted.message
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(root, "values_refutation", lambda puzzle, st: "")  # the race refutes it without the count
        refuted = kakuro.solve(unsat, "auto", time_limit=60)
    assert refuted.status is Status.UNSATISFIABLE and refuted.stats["path"] in ("native", "sat")
    assert refuted.stats["removed_gac"] >= 0 and refuted.stats["search_time"] > 0


@pytest.fixture
def without_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The root without the count of each value: the grids of `hard_for_gac` need a search."""
    monkeypatch.setattr(root, "values_refutation", lambda puzzle, st: "")


@pytest.mark.timed  # a bound on wall time in one process (its race's engines included): the parallel tests' load would break it
def test_sat_answering_first_stops_the_native_search(without_counting: None) -> None:
    """The native search cannot refute this grid in minutes, SAT does in a fraction of a
    second: the race's answer is SAT's, long before the limit."""
    result = kakuro.solve(hard_for_gac(8), "auto", time_limit=60)
    assert result.status is Status.UNSATISFIABLE and result.stats["path"] == "sat"
    assert result.time < 10


@pytest.mark.timed  # a bound on wall time in one process (its race's engines included): the parallel tests' load would break it
def test_the_root_counts_the_whole_grid() -> None:
    """Row sums that do not add up to the column sums: refuted before any search."""
    disagreeing = Puzzle.all_white([96] * 12, [96] * 11 + [97], values=(1, 15))
    for spec in ("auto", "gac"):
        with timed() as t:
            result = kakuro.solve(disagreeing, spec, time_limit=60)
        assert result.status is Status.UNSATISFIABLE and t.quiet(result.time) < 1, t
        assert "the across clues add up to 1152 and the down clues to 1153" in result.message
    assert kakuro.solve(disagreeing, "auto").stats["path"] == "root"


def test_counts_agree_between_the_paths() -> None:
    for puzzle in cazenave(4, 6, 100, count=3, seed=9) + cazenave(5, 6, 70, count=3, seed=9):
        counts = {spec: kakuro.count_solutions(puzzle, spec, limit=3, time_limit=60)
                  for spec in ("auto", "auto:search=native", "auto:search=sat", "cpsat")}
        assert len({(c.count, c.exhausted) for c in counts.values()}) == 1, (puzzle.id, counts)


@pytest.mark.timed  # a bound on wall time in one process (its race's engines included): the parallel tests' load would break it
def test_the_time_limit_holds_when_neither_finishes(without_counting: None) -> None:
    hard = hard_for_gac(16)  # unsatisfiable, hard for both
    with timed() as t:
        result = kakuro.solve(hard, "auto", time_limit=0.5)
    assert result.status is Status.UNKNOWN and t.quiet(result.time - 0.5) < 1.0, (result.time, t)
    assert result.stats["path"] == "none"


def test_the_root_counts_each_value() -> None:
    """Empty grids over 1..N+1 whose rows leave out other values than their columns (sums
    moved, the totals still equal): the count of each value refutes them, no search needed;
    the same grids unmoved, and every loose grid, are left to the search."""
    for size in (5, 7, 9, 12):
        unsat = cazenave(size, size + 1, 100, count=2, seed=size, unsatisfiable=True)
        for puzzle in unsat:
            result = kakuro.solve(puzzle, "auto", time_limit=30)
            assert result.status is Status.UNSATISFIABLE and result.stats["path"] == "root", puzzle.id
            assert "though every cell is in one of each" in result.message
        for puzzle in cazenave(size, size + 1, 100, count=2, seed=size):
            assert kakuro.solve(puzzle, "auto", time_limit=30).status is Status.SOLVED, puzzle.id


def test_a_wide_open_grid_gets_playouts_first() -> None:
    """Empty Cazenave grids leave every cell most of its range after root GAC: a few random
    playouts solve them before any shaving or search; a loose classic grid, a count of
    solutions and playouts=0 go the other way."""
    empty = cazenave(12, 13, 100, count=2, seed=8)
    for puzzle in empty:
        result = kakuro.solve(puzzle, "auto", time_limit=30)
        assert result.status is Status.SOLVED and result.stats["path"] == "playout", puzzle.id
        assert result.stats["samples"] >= 1
    assert kakuro.solve(empty[0], "auto:playouts=0", time_limit=30).stats["path"] == "native"
    assert kakuro.count_solutions(empty[0], "auto", limit=2, time_limit=30).stats["path"] == "native"
    loose = classic(16, 16, density=0.25, count=1, seed=5, unique=False)[0]
    assert kakuro.solve(loose, "auto", time_limit=60).stats["path"] in ("native", "sat")


def test_a_playout_that_solves_pays_no_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole-grid counts come after the playouts: a grid a playout solves never pays them,
    and a grid the playouts leave (unsatisfiable) still gets them."""
    def counted(puzzle: Puzzle, *args: object) -> str:
        raise AssertionError("counted")

    empty = cazenave(12, 13, 100, count=1, seed=8)[0]  # as in test_a_wide_open_grid_gets_playouts_first
    unsat = cazenave(6, 7, 100, count=1, seed=3, unsatisfiable=True)[0]
    with monkeypatch.context() as patch:
        patch.setattr(root, "values_refutation", counted)
        patch.setattr(root, "totals_refutation", counted)
        solved = kakuro.solve(empty, "auto", time_limit=30)
        assert solved.status is Status.SOLVED and solved.stats["path"] == "playout"
        assert kakuro.solve(unsat, "auto", time_limit=30).status is Status.ERROR  # the count was asked for
    assert kakuro.solve(unsat, "auto", time_limit=30).stats["path"] == "root"


def test_the_rival_is_chosen_by_what_the_root_saw() -> None:
    """SAT beside the native search where every run's values are known (an empty grid over
    1..N+1: counting decides), the native search with another seed on a loose grid."""
    from kakuro.solvers.auto import choose_rival

    tight = cazenave(6, 7, 100, count=1, seed=3)[0]
    loose = classic(16, 16, density=0.25, count=1, seed=5, unique=False)[0]
    for puzzle, rival in ((tight, "sat"), (loose, "native")):
        st, reduction = root.prepare(puzzle, "none", kakuro.Deadline())
        assert st is not None and reduction is not None and not reduction.solved
        assert choose_rival(puzzle, st) == rival


def test_the_reseeded_rival_answers_on_its_own() -> None:
    """The native rival (run here, not forked) finds checked solutions from where the native
    search paused, with counters and a stop flag of its own."""
    from kakuro.engine.state import NODES
    from kakuro.native_solver import DEFAULT_TREE, ResumableSearch
    from kakuro.solvers.auto import rival_native

    loose = classic(16, 16, density=0.25, count=1, seed=5, unique=False)[0]
    st, _ = root.prepare(loose, "bounded", kakuro.Deadline())
    native = ResumableSearch(st, loose, DEFAULT_TREE, kakuro.Deadline(), 1)
    solutions, exhausted = rival_native(native.variant(7), 2)
    assert len(solutions) == 2 and not exhausted
    assert all(loose.check(kakuro.Solution(loose, tuple(values))) == [] for values in solutions)
    assert native.state.info[NODES] == 0  # the original's counters untouched


@pytest.mark.slow  # 1.6-6 s: the race needs a grid of thousands of conflicts
def test_the_race_against_the_reseeded_rival_answers_right() -> None:
    """A loose grid that needs thousands of conflicts: the race with the native rival starts,
    and whichever side answers, the answer is a checked solution (a rival copied while the
    native search ran on once answered "unsatisfiable" here)."""
    puzzle = kakuro.read("instances/hard/loose-31x101.jsonl")[0]
    result = kakuro.solve(puzzle, "auto:rival=native,head_start=0,rival_after=0", time_limit=60)
    assert result.status is Status.SOLVED and result.stats["rival"] == "native"
    assert result.stats["path"] in ("native", "native-reseeded")
