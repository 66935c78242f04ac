"""The Solver template method, options, spec strings and registry."""

from __future__ import annotations

import time

import pytest

import kakuro
from kakuro import (
    BackendOptionError,
    BackendUnavailableError,
    Puzzle,
    Status,
    UnknownBackendError,
    UnsupportedOperationError,
)
from kakuro.engines import Engine
from kakuro.options import Option, parse_spec, spec_value
from kakuro.outcome import Outcome
from kakuro.registry import register, registry_restored
from kakuro.solver import Solver


@pytest.fixture
def temporary_backends():
    with registry_restored():
        yield register


def test_spec_strings_parse() -> None:
    assert parse_spec("nmcs:level=2, consistency = gac") == ("nmcs", {"level": "2", "consistency": "gac"})
    assert parse_spec("cpsat") == ("cpsat", {})
    with pytest.raises(BackendOptionError, match="key=value"):
        parse_spec("cpsat:workers")


@pytest.mark.parametrize(("spec", "options"), [
    ('dimacs:cmd="/opt/my solver/kissat"', {"cmd": "/opt/my solver/kissat"}),
    ("dimacs:cmd='/a,b:c=d' , x=1", {"cmd": "/a,b:c=d", "x": "1"}),
    (r'dimacs:cmd="say \"hi\"\\"', {"cmd": 'say "hi"\\'}),
    ('dimacs:cmd=""', {"cmd": ""}),
])
def test_a_quoted_value_holds_commas_colons_and_spaces(spec: str, options: dict[str, str]) -> None:
    assert parse_spec(spec) == ("dimacs", options)


@pytest.mark.parametrize("value", ["/opt/my solver/kissat", "a,b", "k:v=1", 'q"\'', "back\\slash", "", " pad ", "plain"])
def test_spec_value_quotes_what_parse_spec_would_split(value: str) -> None:
    assert parse_spec(f"x:v={spec_value(value)}") == ("x", {"v": value})
    assert spec_value("plain") == "plain"


@pytest.mark.parametrize(("spec", "words"), [
    ('dimacs:cmd="abc', "not closed"), ('dimacs:cmd="a"b', "separate options with commas"),
    ('dimacs:cmd=x"a"', "before its quoted value"),
])
def test_a_broken_quote_is_one_clear_error(spec: str, words: str) -> None:
    with pytest.raises(BackendOptionError, match=words):
        parse_spec(spec)


def test_unknown_backend_lists_the_known_ones() -> None:
    with pytest.raises(UnknownBackendError, match="cpsat"):
        kakuro.get_solver("no-such-backend")


def test_unknown_option_lists_the_accepted_ones() -> None:
    with pytest.raises(BackendOptionError, match="model, workers"):
        kakuro.get_solver("cpsat:speed=11")


@pytest.mark.parametrize("spec", ["cpsat:workers=0", "cpsat:workers=two", "cpsat:workers=٣", "cpsat:model=magic"])
def test_bad_option_values_are_refused(spec: str) -> None:
    with pytest.raises(BackendOptionError):
        kakuro.get_solver(spec)


def test_spec_round_trips_non_default_options() -> None:
    assert kakuro.get_solver("cpsat:workers=2").spec == "cpsat:workers=2"
    assert kakuro.get_solver("cpsat:workers=1").spec == "cpsat"


@pytest.mark.parametrize("limit", [0, -1, float("nan"), "1", True])
def test_bad_time_limits_are_refused(cazenave: Puzzle, limit) -> None:
    with pytest.raises(BackendOptionError):
        kakuro.solve(cazenave, "cpsat", time_limit=limit)


def test_bad_seed_is_refused(cazenave: Puzzle) -> None:
    with pytest.raises(BackendOptionError):
        kakuro.solve(cazenave, "cpsat", seed=-3)


def test_missing_engine_names_the_pip_command(temporary_backends, cazenave: Puzzle) -> None:
    @temporary_backends("needs-missing-engine")
    class Missing(Solver):
        engine = Engine("no_such_module_for_kakuro", pip="no-such-package")

    with pytest.raises(BackendUnavailableError, match="pip install no-such-package"):
        kakuro.solve(cazenave, "needs-missing-engine", time_limit=10)
    info = {i.name: i for i in kakuro.backend_info()}
    assert not info["needs-missing-engine"].available and "pip install" in info["needs-missing-engine"].reason


def test_wrong_answers_become_wrong_not_solutions(temporary_backends, cazenave: Puzzle) -> None:
    @temporary_backends("liar")
    class Liar(Solver):
        def _solve(self, puzzle, opts, deadline, seed):
            return Outcome(Status.SOLVED, [1] * puzzle.size)

    result = kakuro.solve(cazenave, "liar", time_limit=10)
    assert result.status is Status.WRONG and result.solution is None
    assert "checker rejected" in result.message


def test_backend_crashes_become_error_results(temporary_backends, cazenave: Puzzle) -> None:
    @temporary_backends("crasher")
    class Crasher(Solver):
        def _solve(self, puzzle, opts, deadline, seed):
            raise RuntimeError("boom")

    result = kakuro.solve(cazenave, "crasher", time_limit=10)
    assert result.status is Status.ERROR and "boom" in result.message


def test_options_reach_the_backend_and_time_is_measured(temporary_backends, cazenave: Puzzle) -> None:
    seen = {}

    @temporary_backends("sleeper")
    class Sleeper(Solver):
        options = {"nap": Option(0.05, minimum=0.0), "flag": Option(False)}

        def _solve(self, puzzle, opts, deadline, seed):
            seen.update(opts, seed=seed, remaining=deadline.remaining())
            time.sleep(opts["nap"])
            return Outcome(Status.UNKNOWN, stats={"nodes": 3})

    result = kakuro.solve(cazenave, "sleeper:flag=yes", time_limit=5, seed=9, nap=0.1)
    assert seen["flag"] is True and seen["nap"] == 0.1 and seen["seed"] == 9 and 4 < seen["remaining"] <= 5
    assert result.status is Status.UNKNOWN and result.time >= 0.1 and result.stats == {"nodes": 3}
    assert result.backend == "sleeper:nap=0.1,flag=true"
    with pytest.raises(UnsupportedOperationError):
        kakuro.count_solutions(cazenave, "sleeper")


def test_result_is_frozen(cazenave: Puzzle) -> None:
    result = kakuro.solve(cazenave, "cpsat")
    with pytest.raises(AttributeError):
        result.status = Status.ERROR  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.stats["nodes"] = 1  # type: ignore[index]


def test_every_name_kakuro_solver_exported_is_still_importable_from_it_and_is_its_homes() -> None:
    import importlib

    import kakuro.solver

    homes = [importlib.import_module(f"kakuro.{m}") for m in ("clock", "outcome", "options", "engines", "registry")]
    for name in kakuro.solver.__all__:
        value = getattr(kakuro.solver, name)
        found = [home for home in homes if getattr(home, name, None) is value]
        assert found or name in ("Solver", "EnumeratingSolver"), name
    with pytest.raises(AttributeError):
        kakuro.solver.no_such_name  # noqa: B018


def test_time_registered_as_not_solving_is_taken_off_the_clock_and_moves_a_deadline() -> None:
    from kakuro import clock

    spent = [0.0]
    clock.exclude(lambda: spent[0])  # only grows; constant after this test, so it moves no later clock
    watch = clock.Stopwatch()
    deadline = clock.Deadline.after(10.0)
    time.sleep(0.2)
    spent[0] += 0.2  # as if all of it had been compiling
    assert watch.elapsed() < 0.1
    assert watch.off_clock() == pytest.approx(0.2)
    assert deadline.postponed(watch).end == pytest.approx(deadline.end + 0.2)
    assert clock.Deadline().postponed(watch) == clock.Deadline()
