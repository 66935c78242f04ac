"""Budgets beyond time (issue 42): the template holds every backend to the budget of nodes and
fails it was given (`kakuro.Budget`, `kakuro.limits`), the command line takes them
(`--node-limit`, `--fail-limit`), and `kakuro compare` records a run its budget stopped as
BUDGET with what it used. Each backend's own honouring is in the contract suite
(tests/test_contract.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import kakuro
from kakuro import BackendOptionError, BackendUnavailableError, Budget, Enumeration, Outcome, Puzzle, Status
from kakuro.cli import main
from kakuro.cli.exits import EXIT_ERROR, EXIT_LIMIT, EXIT_USAGE
from kakuro.compare.attempt import Attempt
from kakuro.compare.jobs import Backend, Instance, Limits, make_jobs
from kakuro.compare.worker import Reply
from kakuro.reasoning.pysat_search import CONFLICT_BUDGET_SOLVERS, SOLVER_NAMES, pysat_name
from kakuro.records.files import read_results
from kakuro.records.record import SCHEMA, JobStatus, Record
from kakuro.records.verdict import Witnesses, judge
from kakuro.registry import register, registry_restored
from kakuro.report import sections
from kakuro.report.summary import ALL, Row, summarize
from kakuro.solver import EnumeratingSolver, Solver
from tests.conftest import EXAMPLES, ROOT, hard_for_gac
from tests.test_report import rec, records


@pytest.fixture(scope="module")
def solution(cazenave: Puzzle) -> tuple[int, ...]:
    return kakuro.solve(cazenave, "gac").solution.values


def reporting(answer: Outcome | Enumeration) -> type[Solver]:
    """A backend that honours budgets of nodes (its stats' "nodes") and of fails (its stats'
    "conflicts") and answers `answer` whatever it is given."""

    class Reporting(EnumeratingSolver):  # solving is counting up to one
        budgets = {"nodes": "nodes", "fails": "conflicts"}

        def _count(self, puzzle, opts, limit, limits, seed):
            return answer

    class Answering(Reporting):
        def _solve(self, puzzle, opts, limits, seed):
            return answer

    return Answering if isinstance(answer, Outcome) else Reporting


@pytest.mark.parametrize("budget", [{"nodes": 0}, {"fails": -1}, {"nodes": 2.0}, {"nodes": True}, {"fails": "3"}])
def test_a_budget_is_positive_whole_numbers(budget: dict) -> None:
    with pytest.raises(BackendOptionError, match="must be a positive whole number"):
        Budget(**budget)


def test_a_budget_is_a_budget(cazenave: Puzzle) -> None:
    with pytest.raises(BackendOptionError, match="budget must be a kakuro.Budget or None, not dict"):
        kakuro.solve(cazenave, "gac", budget={"nodes": 3})
    assert str(Budget(nodes=20, fails=3)) == "20 nodes, 3 fails" and str(Budget()) == "no budget"


def test_an_answer_within_its_budget_stands(cazenave: Puzzle, solution) -> None:
    with registry_restored():
        register("reporting")(reporting(Outcome(Status.SOLVED, solution, {"nodes": 5, "conflicts": 9})))
        result = kakuro.solve(cazenave, "reporting", budget=Budget(nodes=5))
        assert (result.status, result.stopped_by, result.stats["nodes"]) == (Status.SOLVED, None, 5)
        assert kakuro.solve(cazenave, "reporting", budget=Budget(fails=9)).solved


def test_an_answer_past_its_budget_is_no_answer_within_it(cazenave: Puzzle, solution) -> None:
    """A backend that counts past its budget and then answers is held to the budget: UNKNOWN,
    stopped by that budget, the count kept; a count past it is not exhausted."""
    with registry_restored():
        register("reporting")(reporting(Outcome(Status.SOLVED, solution, {"nodes": 6, "conflicts": 9})))
        result = kakuro.solve(cazenave, "reporting", budget=Budget(nodes=5))
        assert (result.status, result.stopped_by, result.solution, result.stats["nodes"]) == (Status.UNKNOWN, "nodes", None, 6)
        assert result.message == "answered after 6 nodes, past its budget of 5 nodes: no answer within it"
        assert kakuro.solve(cazenave, "reporting", budget=Budget(fails=8)).stopped_by == "fails"
        register("counting")(reporting(Enumeration([], True, {"nodes": 6, "conflicts": 0})))
        count = kakuro.count_solutions(cazenave, "counting", budget=Budget(nodes=5))
        assert (count.status, count.exhausted, count.stopped_by) == (Status.UNKNOWN, False, "nodes")
        assert kakuro.count_solutions(cazenave, "counting", budget=Budget(nodes=6)).status is Status.UNSATISFIABLE


def test_a_run_stopped_by_its_budget_says_so_with_its_count(cazenave: Puzzle) -> None:
    with registry_restored():
        register("reporting")(reporting(Outcome(Status.UNKNOWN, None, {"nodes": 2, "conflicts": 7}, stopped_by="fails")))
        result = kakuro.solve(cazenave, "reporting", time_limit=30, budget=Budget(fails=7))
        assert (result.status, result.stopped_by) == (Status.UNKNOWN, "fails")
        assert result.message == "stopped by its budget of fails (conflicts: 7 of 7)"
        assert json.loads(json.dumps(result.to_dict()))["stopped_by"] == "fails"


@pytest.mark.parametrize(("answer", "budget", "said"), [
    (Outcome(Status.SOLVED, None, {}), Budget(nodes=5), "reports no nodes count"),
    (Outcome(Status.UNKNOWN, None, {"nodes": 1.5}, stopped_by="nodes"), Budget(nodes=5), "reports no nodes count"),
    (Outcome(Status.UNKNOWN, None, {"nodes": 1}, stopped_by="fails"), Budget(nodes=5), "the run had no such limit"),
    (Outcome(Status.UNKNOWN, None, {}, stopped_by="time"), None, "the run had no such limit"),
    (Outcome(Status.UNKNOWN, None, {}, stopped_by="moves"), None, "not None or one of time, nodes, fails"),
    (Enumeration([], True, {"conflicts": True}), Budget(fails=5), "reports no conflicts count"),
])
def test_a_backend_that_cannot_be_held_to_its_budget_is_an_error(cazenave: Puzzle, answer, budget, said: str) -> None:
    """The template must see a budget's count to hold a run to it; a backend that says a limit
    stopped it which the run did not have is wrong too. Either is an ERROR result saying so."""
    with registry_restored():
        register("reporting")(reporting(answer))
        result = kakuro.solve(cazenave, "reporting", budget=budget)
        assert result.status is Status.ERROR and said in result.message, result.message


def test_a_time_stop_is_named(cazenave: Puzzle) -> None:
    with registry_restored():
        register("reporting")(reporting(Outcome(Status.UNKNOWN, None, {"nodes": 1})))
        stopped = kakuro.solve(cazenave, "reporting", time_limit=1e-9)
        assert (stopped.stopped_by, stopped.message) == ("time", "time limit reached")
        assert kakuro.solve(cazenave, "reporting").stopped_by is None  # gave up: no limit stopped it


def test_a_budget_a_backend_does_not_declare_is_refused_before_it_runs(cazenave: Puzzle) -> None:
    ran = []

    class Plain(Solver):
        complete = True

        def _solve(self, puzzle, opts, limits, seed):
            ran.append(limits)
            return Outcome(Status.UNKNOWN)

    with registry_restored():
        register("plain")(Plain)
        with pytest.raises(BackendOptionError) as refused:
            kakuro.solve(cazenave, "plain", budget=Budget(nodes=3))
        assert str(refused.value) == ("backend 'plain' cannot honour a budget of nodes (it honours: time); "
                                      "`kakuro backends NAME` lists the budgets each backend honours")
        assert ran == []
        kakuro.solve(cazenave, "plain", time_limit=5)
        assert ran[0].budget == Budget() and ran[0].deadline.remaining() <= 5


def test_options_can_narrow_the_budgets(cazenave: Puzzle) -> None:
    """Glucose ignores PySAT's conflict budget and CP-SAT's limit does not stop several workers:
    those settings refuse a budget of fails their defaults honour."""
    for spec in ("sat:solver=glucose4", "cpsat:workers=2", "rdv:search=false"):
        with pytest.raises(BackendOptionError, match="cannot honour a budget of"):
            kakuro.solve(cazenave, spec, time_limit=5, budget=Budget(fails=3))


@pytest.mark.parametrize("solver", SOLVER_NAMES)
def test_each_sat_solver_stops_at_a_conflict_budget_or_refuses_it(solver: str) -> None:
    """The solvers of CONFLICT_BUDGET_SOLVERS stop within a few conflicts of a budget on a grid
    that needs hundreds (they check it between conflicts); the others refuse it."""
    try:
        pysat_name(solver)
    except BackendUnavailableError as missing:
        pytest.skip(str(missing))
    grid = hard_for_gac(12)
    if solver not in CONFLICT_BUDGET_SOLVERS:
        with pytest.raises(BackendOptionError, match="cannot honour a budget of fails"):
            kakuro.solve(grid, f"sat:solver={solver}", time_limit=30, budget=Budget(fails=5))
        return
    result = kakuro.solve(grid, f"sat:solver={solver}", time_limit=30, budget=Budget(fails=5))
    assert (result.status, result.stopped_by) == (Status.UNKNOWN, "fails") and 5 <= result.stats["conflicts"] <= 10, result


def test_solve_and_count_take_node_and_fail_limits(capsys) -> None:
    grid = str(GRIDS_31)
    assert main(["solve", grid, "-b", "fc", "--node-limit", "7", "--format", "json"]) == EXIT_LIMIT
    said = json.loads(capsys.readouterr().out)
    assert (said["status"], said["stopped_by"], said["stats"]["nodes"]) == ("unknown", "nodes", 7)
    assert main(["count", grid, "-b", "gac", "--fail-limit", "1", "--node-limit", "50"]) == EXIT_LIMIT
    assert "unknown: stopped by its budget of nodes (nodes: 50 of 50) before the first solution" in capsys.readouterr().out


def test_a_budget_the_backend_cannot_honour_is_one_line_before_the_file_is_read(capsys) -> None:
    assert main(["solve", "no-such-file.txt", "-b", "csp", "--node-limit", "7"]) == EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err == ("kakuro: backend 'csp' cannot honour a budget of nodes (it honours: time); "
                   "`kakuro backends NAME` lists the budgets each backend honours")


def test_backends_name_lists_the_budgets(capsys) -> None:
    assert main(["backends", "sat"]) == 0
    shown = capsys.readouterr().out
    assert "budgets:     time, fails (--fail-limit, counted as its conflicts); some options narrow them" in shown
    assert main(["backends", "nmcs"]) == 0
    assert "budgets:     time only (--node-limit and --fail-limit are refused)" in capsys.readouterr().out
    assert main(["backends", "gac"]) == 0
    assert "budgets:     time, nodes (--node-limit), fails (--fail-limit)\n" in capsys.readouterr().out


def test_the_budget_is_exported_with_the_plugin_types() -> None:
    assert Path(kakuro.__file__).parent.name == "kakuro"
    assert kakuro.Budget is Budget and kakuro.Limits().budget == Budget()


# ---------------------------------------------------------------- kakuro compare and its records
GRIDS_31 = ROOT / "instances" / "hard" / "empty-30x30-v31.jsonl"
"""The 31x31 grids of instances/ (30x30 white cells over 1..31, with the clue row and column)."""
DECIDED_AT_ONCE = ROOT / "instances" / "classic" / "unique-30x30.jsonl"
PLAIN_FC = "fc:learning=false,restarts=none"


def compare(argv: list[str]) -> int:
    """`kakuro compare ARGV` in this process, from the repository's folder."""
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        return main(["compare", *argv])
    finally:
        os.chdir(old)


@pytest.mark.parametrize("nodes", [20, 770])
def test_compare_records_the_runs_a_node_limit_stopped_and_answers_the_others(nodes: int, tmp_path: Path) -> None:
    """Issue 42's example: plain forward checking under --node-limit on the 31x31 grids (and on
    30x30 grids root propagation decides). A puzzle whose unbounded search needs at most the
    budget is SOLVED with the same nodes; every other one is BUDGET, having used exactly the
    budget, recorded with it, counted in the report as unanswered."""
    out = tmp_path / "r.jsonl"
    assert compare([str(GRIDS_31), str(DECIDED_AT_ONCE), "-b", PLAIN_FC, "--node-limit", str(nodes), "-j", "1",
                    "--time-limit", "60", "-o", str(out)]) == 0
    records = {(Path(r.source).name, r.index): r for r in read_results(out)}
    assert len(records) == 5
    stopped = 0
    for (_, index), record in records.items():
        unbounded = kakuro.solve(kakuro.read(record.source)[index], PLAIN_FC, time_limit=60)
        assert unbounded.solved and record.budget == {"nodes": nodes}
        if unbounded.stats["nodes"] <= nodes:
            assert (record.status, record.stats["nodes"]) == (JobStatus.SOLVED, unbounded.stats["nodes"]), record
        else:
            stopped += 1
            assert (record.status, record.stats["nodes"]) == (JobStatus.BUDGET, nodes), record
            assert record.message == f"stopped by its budget of nodes (nodes: {nodes} of {nodes})"
    assert stopped == {20: 2, 770: 1}[nodes]  # 775 and 758 nodes decide the two 31x31 grids
    row = only_row(read_results(out))
    assert (row.counts["budget"], row.answered, row.par2) == (stopped, 5 - stopped, pytest.approx(
        (sum(r.time for r in records.values() if r.answered) + stopped * 2 * 60) / 5))


def only_row(records: list[Record]) -> Row:
    (section,) = sections(records)
    return next(row for row in summarize(section) if row.group == ALL)


def test_compare_refuses_a_budget_a_backend_cannot_honour_before_any_job(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    assert compare([str(EXAMPLES), "-b", "gac", "-b", "csp", "--fail-limit", "5", "-o", str(out)]) == EXIT_USAGE
    assert capsys.readouterr().err.strip() == (
        "kakuro: backend 'csp' cannot honour a budget of fails (it honours: time); "
        "`kakuro backends NAME` lists the budgets each backend honours")
    assert not out.exists()


def test_resuming_with_another_budget_is_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "r.jsonl"
    puzzle = str(EXAMPLES / "cazenave-2010-table1.txt")
    assert compare([puzzle, "-b", "gac", "-j", "1", "--node-limit", "50", "-o", str(out)]) == 0
    before = out.read_text()
    assert compare([puzzle, "-b", "gac", "-j", "1", "--resume", "-o", str(out)]) == EXIT_ERROR
    assert "holds results with 50 nodes" in capsys.readouterr().err and out.read_text() == before
    assert compare([puzzle, "-b", "gac", "-j", "1", "--node-limit", "50", "--resume", "-o", str(out)]) == 0


def test_a_reply_its_budget_stopped_is_budget_only_with_that_budget(two_solutions: Puzzle) -> None:
    job = make_jobs([Instance.of("x.txt", 0, two_solutions)], [Backend("gac", "gac", "gac")],
                    limits=Limits(10.0, 1.0, budget=Budget(nodes=5)))[0]
    said = "stopped by its budget of nodes (nodes: 5 of 5)"
    assert judge(job, Attempt("reply", Reply(Status.UNKNOWN, message=said, stopped_by="nodes")), Witnesses()) == (
        JobStatus.BUDGET, said)
    for stopped_by in ("time", "fails", None):
        assert judge(job, Attempt("reply", Reply(Status.UNKNOWN, stopped_by=stopped_by)), Witnesses())[0] is JobStatus.TIMEOUT


def test_budget_records_round_trip_and_bad_budgets_are_skipped(tmp_path: Path) -> None:
    line = {"schema": SCHEMA, "source": "a.txt", "index": 0, "digest": "d", "backend": "fc", "seed": 0, "repeat": 0,
            "status": "BUDGET", "time": 0.1, "time_limit": 10, "stats": {"nodes": 20}, "budget": {"nodes": 20},
            "message": "stopped by its budget of nodes (nodes: 20 of 20)"}
    record = Record.from_json(line)
    assert (record.status, record.budget, record.answered) == (JobStatus.BUDGET, {"nodes": 20}, False)
    assert Record.from_json(json.loads(json.dumps(record.to_json()))) == record
    older = Record.from_json({k: v for k, v in line.items() if k != "budget"} | {"schema": 3, "status": "TIMEOUT"})
    assert older.budget == {}  # schema 3 had no budgets
    path = tmp_path / "r.jsonl"
    bad = [{**line, "budget": {"moves": 3}}, {**line, "budget": {"nodes": 0}}, {**line, "budget": [20]},
           {**line, "budget": {"fails": 2.5}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in [line, *bad]))
    warnings: list[str] = []
    assert [r.budget for r in read_results(path, warn=warnings.append)] == [{"nodes": 20}]
    assert len(warnings) == 5 and all("budget" in w for w in warnings[:4]), warnings


def test_the_report_notes_runs_under_different_budgets() -> None:
    lines = [rec("a", p, "BUDGET", None, budget={"nodes": 20}) for p in range(2)]
    lines += [rec("b", p, "SOLVED", 1.0) for p in range(2)]
    (section,) = sections(records(lines))
    note = section.settings_note()
    assert note is not None and "budget (20 nodes: a; none: b)" in note and "BUDGET counts" in note
    (shared,) = sections(records(lines[:2]))
    assert shared.budget_note() == "Every run had a budget of 20 nodes: the column budget counts the puzzles it stopped."
    assert shared.budget_note() in shared.notes() and only_row(records(lines[:2])).counts["budget"] == 2
    assert section.budget_note() is None
