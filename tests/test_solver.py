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
from kakuro.availability import Engine
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
        def _solve(self, puzzle, opts, limits, seed):
            return Outcome(Status.SOLVED, [1] * puzzle.size)

    result = kakuro.solve(cazenave, "liar", time_limit=10)
    assert result.status is Status.WRONG and result.solution is None
    assert "checker rejected" in result.message


def test_backend_crashes_become_error_results(temporary_backends, cazenave: Puzzle) -> None:
    @temporary_backends("crasher")
    class Crasher(Solver):
        def _solve(self, puzzle, opts, limits, seed):
            raise RuntimeError("boom")

    result = kakuro.solve(cazenave, "crasher", time_limit=10)
    assert result.status is Status.ERROR and "boom" in result.message


def test_options_reach_the_backend_and_time_is_measured(temporary_backends, cazenave: Puzzle) -> None:
    seen = {}

    @temporary_backends("sleeper")
    class Sleeper(Solver):
        options = {"nap": Option(0.05, minimum=0.0), "flag": Option(False)}

        def _solve(self, puzzle, opts, limits, seed):
            seen.update(opts, seed=seed, remaining=limits.deadline.remaining())
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


# --------------------------------------------------------------------- what a backend cannot disturb
def _spoil(puzzle: Puzzle) -> None:
    """Change everything of `puzzle` that ordinary Python, `object.__setattr__` and the garbage
    collector's view of a read-only mapping can reach."""
    import gc

    for name in ("givens", "clues", "index", "meta"):
        for inner in gc.get_referents(getattr(puzzle, name)):
            if isinstance(inner, dict):
                inner.clear()
    for value in puzzle.meta.values():
        if isinstance(value, list):
            value.append("spoiled")
    for group in puzzle.groups:
        object.__setattr__(group, "total", group.total + 1)
        object.__setattr__(group, "stated", not group.stated)
    object.__delattr__(puzzle.groups[0], "cells")
    object.__setattr__(puzzle, "values", (0, 62))
    object.__setattr__(puzzle, "groups", ())


def puzzle_state(puzzle: Puzzle) -> dict[str, object]:
    """Everything a puzzle holds, groups and mappings included, as plain values."""
    state = {name: value for name, value in vars(puzzle).items() if name not in ("groups", "regions", "_changeable_meta")}
    for name in ("givens", "clues", "index", "meta"):
        state[name] = dict(state[name])  # type: ignore[call-overload]
    state["groups"] = [dict(vars(group)) for group in puzzle.groups]
    state["regions"] = [dict(vars(group)) for group in puzzle.regions]
    return state


@pytest.mark.parametrize("kind", ["kakuro", "sudoku"])
def test_the_callers_puzzle_is_as_it_was_whatever_the_backend_did(temporary_backends, cazenave: Puzzle,
                                                                    kind: str) -> None:
    """A backend that changes every part of its puzzle it can reach changes a copy: the caller's
    puzzle, and later solves of it by other backends, are as before (issue 40)."""
    def fresh() -> Puzzle:
        if kind == "sudoku":
            return Puzzle.sudoku([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], meta={"tags": ["x"]})
        return Puzzle.from_grid(cazenave.to_grid(), meta={"tags": ["x"], "solution": ((1, 2), (3, 4))})

    @temporary_backends("spoiler")
    class Spoiler(Solver):
        complete = True

        def _solve(self, puzzle, opts, limits, seed):
            _spoil(puzzle)
            return Outcome(Status.SOLVED, [1] * puzzle.size)

        def _count(self, puzzle, opts, limit, limits, seed):
            _spoil(puzzle)
            return kakuro.Enumeration([[1] * puzzle.size], True)

    puzzle = fresh()
    assert kakuro.solve(puzzle, "spoiler").status is Status.WRONG
    assert kakuro.count_solutions(puzzle, "spoiler").status is Status.WRONG
    assert puzzle_state(puzzle) == puzzle_state(fresh())
    for later in ("cpsat", "sat"):
        result = kakuro.solve(puzzle, later, time_limit=30)
        assert result.solved and fresh().check(fresh().solution(result.solution.values)) == []


def test_a_copy_costs_little(cazenave: Puzzle) -> None:
    """What every solve pays for the copy it hands the backend: a 9x9 Sudoku's in well under
    the 0.3 ms a solve of one takes (measured about 10 µs; 100 µs of CPU here, for a busy machine)."""
    grid = [[0] * 9 for _ in range(9)]
    puzzle = Puzzle.sudoku(grid)
    rounds = 2000
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(rounds):
            puzzle.copy()
        best = min(best, (time.process_time() - start) / rounds)
    assert best < 100e-6


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


class _Exploding(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class _BadMapping(dict):  # type: ignore[type-arg]
    def items(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("no items")


BAD_ANSWERS = {
    "tuple": ((Status.SOLVED, [1]), "_solve returned a tuple"),
    "none": (None, "_solve returned a NoneType"),
    "string status": (Outcome("solved", [1]), "Outcome.status is a str ('solved'), not a kakuro.Status"),  # type: ignore[arg-type]
    "bytes message": (Outcome(Status.UNKNOWN, message=b"late"), "Outcome.message is a bytes"),  # type: ignore[arg-type]
    "stats list": (Outcome(Status.UNKNOWN, stats=[("nodes", 1)]), "Outcome.stats is a list"),  # type: ignore[arg-type]
    "stats raising": (Outcome(Status.UNKNOWN, stats=_BadMapping(nodes=1)), "stats cannot be read: RuntimeError: no items"),
    "enumeration": (kakuro.Enumeration([], True), "_solve returned an Enumeration, not a kakuro.Outcome"),
}


@pytest.mark.parametrize("kind", sorted(BAD_ANSWERS))
def test_what_solve_returns_is_checked(temporary_backends, cazenave: Puzzle, kind: str) -> None:
    answer, words = BAD_ANSWERS[kind]

    @temporary_backends("odd-answer")
    class Odd(Solver):
        def _solve(self, puzzle, opts, limits, seed):
            return answer

    result = kakuro.solve(cazenave, "odd-answer", time_limit=5)
    assert result.status is Status.ERROR and result.solution is None
    assert result.message.startswith("the backend's ") and words in result.message, result.message


BAD_ENUMERATIONS = {
    "outcome": (Outcome(Status.SOLVED, [1]), "_count returned an Outcome, not a kakuro.Enumeration"),
    "generator": (kakuro.Enumeration(iter([[1]]), True), "Enumeration.solutions is a list_iterator"),  # type: ignore[arg-type]
    "exhausted text": (kakuro.Enumeration([], "yes"), "Enumeration.exhausted is a str ('yes'), not a bool"),  # type: ignore[arg-type]
    "stats none": (kakuro.Enumeration([], True, None), "Enumeration.stats is a NoneType"),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("kind", sorted(BAD_ENUMERATIONS))
def test_what_count_returns_is_checked(temporary_backends, cazenave: Puzzle, kind: str) -> None:
    answer, words = BAD_ENUMERATIONS[kind]

    @temporary_backends("odd-count")
    class Odd(kakuro.EnumeratingSolver):
        def _count(self, puzzle, opts, limit, limits, seed):
            return answer

    found = kakuro.count_solutions(cazenave, "odd-count", time_limit=5)
    assert found.status is Status.ERROR and words in found.message, found.message
    assert kakuro.solve(cazenave, "odd-count", time_limit=5).status is Status.ERROR  # solving is counting to one


def test_stats_become_plain_and_json_able(temporary_backends, cazenave: Puzzle) -> None:
    import json

    import numpy as np

    @temporary_backends("odd-stats")
    class Odd(Solver):
        def _solve(self, puzzle, opts, limits, seed):
            return Outcome(Status.UNKNOWN, stats={
                "nodes": np.int64(7), "rate": np.float32(0.5), "root_solved": np.bool_(False), "nan": float("nan"),
                "inf": float("-inf"), "wide": 2**64, "huge": 10**5000, "blob": b"\x00", "odd": _Unprintable(),
                3: 1, "none": None, "text": "caf\udce9",
            }, message="half \udce9 done")

    result = kakuro.solve(cazenave, "odd-stats", time_limit=5)
    assert result.status is Status.UNKNOWN and result.message == "half \\udce9 done"
    assert dict(result.stats) == {
        "nodes": 7, "rate": 0.5, "root_solved": False, "nan": "nan", "inf": "-inf", "wide": str(2**64),
        "huge": "an integer of about 5,001 digits", "blob": "b'\\x00'", "odd": "<a _Unprintable that cannot be shown>",
        "3": 1, "text": "caf\\udce9",
    }
    assert all(type(value) in (int, float, bool, str) for value in result.stats.values())
    json.dumps(result.to_dict(), allow_nan=False).encode("utf-8")  # valid JSON, UTF-8 throughout


def test_an_exception_that_cannot_be_shown_or_sys_exit_is_an_error_result(temporary_backends, cazenave: Puzzle) -> None:
    @temporary_backends("odd-raise")
    class Odd(Solver):
        options = {"how": Option("text")}

        def _solve(self, puzzle, opts, limits, seed):
            if opts["how"] == "exit":
                raise SystemExit(3)
            raise _Exploding

    shown = kakuro.solve(cazenave, "odd-raise", time_limit=5)
    assert shown.status is Status.ERROR and shown.message == "_Exploding: <a _Exploding that cannot be shown>"
    ended = kakuro.solve(cazenave, "odd-raise:how=exit", time_limit=5)
    assert ended.status is Status.ERROR and ended.message == "SystemExit: 3"


def test_a_shipped_name_is_reserved(temporary_backends) -> None:
    class Impostor(Solver):
        complete = True

    for name in ("gac", "cpsat", "auto"):
        shipped = kakuro.get_solver(name).__class__
        with pytest.raises(ValueError, match=f"backend name '{name}' is the name of a backend kakuro ships"):
            temporary_backends(name)(Impostor)
        assert kakuro.get_solver(name).__class__ is shipped and shipped.__module__.startswith("kakuro.solvers.")
    temporary_backends("gac-like")(Impostor)  # another name is fine
