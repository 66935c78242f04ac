"""Budgets beyond time (issue 42): the template holds every backend to the budget of nodes and
fails it was given (`kakuro.Budget`, `kakuro.limits`), the command line takes them
(`--node-limit`, `--fail-limit`), and `kakuro compare` records a run its budget stopped as
BUDGET with what it used. Each backend's own honouring is in the contract suite
(tests/test_contract.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kakuro
from kakuro import BackendOptionError, Budget, Enumeration, Outcome, Puzzle, Status
from kakuro.cli import main
from kakuro.cli.exits import EXIT_LIMIT, EXIT_USAGE
from kakuro.registry import register, registry_restored
from kakuro.solver import EnumeratingSolver, Solver
from tests.conftest import EXAMPLES


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


def test_solve_and_count_take_node_and_fail_limits(capsys) -> None:
    grid = str(EXAMPLES.parent / "hard" / "empty-30x30-v31.jsonl")
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
