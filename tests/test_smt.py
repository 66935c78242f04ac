"""The `smt` backend (Z3, issue 30): both models, from both starting domains, solve the
examples and the shared puzzles, count as `gac` does on generated puzzles (unsatisfiable and
multi-solution ones included), accept wide value ranges, honour time limits and Ctrl-C.
Skipped as a whole when z3 is not installed (`pip install z3-solver`, or the `test` extra)."""

from __future__ import annotations

import pytest

try:
    import z3  # noqa: F401
except ImportError:
    pytest.skip("z3 is not installed (pip install z3-solver, or the 'test' extra)", allow_module_level=True)

import kakuro
from kakuro import Puzzle, Status
from kakuro.clock import Deadline
from kakuro.solvers.smt import DOMAINS, MODELS, initial_domains
from tests.backend_checks import (
    counts_agree_with_gac,
    interrupted_after,
    janko_sample_is_solved,
    limit_is_honoured,
    solves_the_examples,
    unavailable_without,
    wide_range_puzzle,
)
from tests.conftest import hard_for_gac
from tests.timing import timed

SPECS = [f"smt:model={m},domains={d}" for m in MODELS for d in DOMAINS]


def test_integer_from_rdv_domains_is_the_default() -> None:
    assert kakuro.get_solver("smt").full_spec == "smt:model=integer,domains=rdv"


@pytest.mark.parametrize("spec", SPECS)
def test_solves_the_examples(spec: str) -> None:
    solves_the_examples(spec, {"num_vars", "num_constraints", "decisions", "conflicts", "build_time"})


@pytest.mark.parametrize("spec", SPECS)
def test_counts_agree_with_gac_on_generated_puzzles(spec: str) -> None:
    assert {count.count for count in counts_agree_with_gac(spec)} == {0, 1, 2}  # unsatisfiable, unique, several


@pytest.mark.parametrize("spec", ["smt", "smt:model=onehot"])
def test_janko_sample_has_no_wrong_answer(spec: str) -> None:
    janko_sample_is_solved(spec)


def test_wide_ranges_start_from_the_bounds() -> None:
    """Millions of combinations per run: domains=rdv does not list them, and both models solve."""
    puzzle = wide_range_puzzle()
    with timed() as t:
        assert initial_domains(puzzle, "rdv", Deadline()) == initial_domains(puzzle, "bounds", Deadline())
    assert t.quiet(t.wall) < 0.5, t
    for spec in ("smt", "smt:model=onehot"):
        count = kakuro.count_solutions(puzzle, spec, limit=2, time_limit=30)
        assert count.status is Status.SOLVED and count.count == 2, (spec, count)


@pytest.mark.parametrize("spec", ["smt", "smt:model=onehot"])
def test_a_wipe_out_of_the_domain_reduction_is_unsatisfiable(spec: str, unsatisfiable: Puzzle) -> None:
    assert initial_domains(unsatisfiable, "rdv", Deadline()) == [0] * unsatisfiable.size
    assert kakuro.solve(unsatisfiable, spec, time_limit=30).status is Status.UNSATISFIABLE


@pytest.mark.timed  # a bound on wall time: the parallel tests' load would break it
@pytest.mark.parametrize("spec", ["smt", "smt:model=onehot"])
def test_time_limit_is_honoured_on_a_hard_instance(spec: str) -> None:
    limit_is_honoured(spec)
    assert kakuro.solve(hard_for_gac(12), spec, time_limit=0.2).message == "time limit reached"


@pytest.mark.timed  # SIGINT to a child mid-search, the seconds to its exit bounded
def test_ctrl_c_stops_a_solve_without_a_limit() -> None:
    seconds, done = interrupted_after("smt")
    assert done.stdout.strip() == "interrupted", done.stderr[-1500:]
    assert seconds < 2.0  # Z3 stops 0.01 to 0.7 s after the interrupt; the interpreter exit takes about 0.5 s more


def test_listed_as_unavailable_without_z3(monkeypatch: pytest.MonkeyPatch) -> None:
    info = unavailable_without(monkeypatch, "z3", "smt")
    assert not info.available and "pip install z3-solver" in info.reason
