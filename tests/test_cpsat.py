"""CP-SAT's three run models agree with each other and report their sizes."""

from __future__ import annotations

import itertools

import pytest

import kakuro
from kakuro import Puzzle, Status
from kakuro.combos import permutations, range_mask, subset_automaton
from kakuro.solvers.cpsat import MODELS
from tests.conftest import shared_set


@pytest.mark.parametrize("model", MODELS)
def test_models_count_the_same(model: str, two_solutions: Puzzle, unsatisfiable: Puzzle, cazenave: Puzzle) -> None:
    assert kakuro.count_solutions(two_solutions, "cpsat", model=model, limit=5).count == 2
    assert kakuro.solve(unsatisfiable, "cpsat", model=model).status is Status.UNSATISFIABLE
    result = kakuro.solve(cazenave, "cpsat", model=model, seed=2)
    assert result.solved and cazenave.check(result.solution) == []


def test_model_sizes_are_reported(puzzlink: Puzzle) -> None:
    # not the empty Cazenave grid: its table model searches 100,000 branches (1.6 s), and the sizes are the point here
    table = kakuro.solve(puzzlink, "cpsat:model=table").stats
    automaton = kakuro.solve(puzzlink, "cpsat:model=automaton").stats
    assert table["num_tuples"] > 0 and table["build_time"] >= 0
    assert automaton["num_states"] > 0 and automaton["num_transitions"] > 0


def test_models_agree_on_shared_puzzles() -> None:
    janko = shared_set("janko")
    sample = [p for p in janko if p.id in ("janko-257",)] + janko[::97]
    for puzzle in sample:
        counts = {m: kakuro.count_solutions(puzzle, "cpsat", model=m, limit=2, time_limit=60).count for m in MODELS}
        assert len(set(counts.values())) == 1, (puzzle.id, counts)
        assert counts["table"] == (2 if puzzle.id == "janko-257" else 1)


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_tables_and_automata_accept_exactly_the_permutations(length: int) -> None:
    for total in range(1, 36):
        brute = sorted(p for p in itertools.permutations(range(1, 10), length) if sum(p) == total)
        assert sorted(map(tuple, permutations(total, [range_mask((1, 9))] * length).tolist())) == brute
        arcs, accepting = subset_automaton(length, total)
        step = {(s, v): t for s, v, t in arcs}
        accepted = []
        for word in itertools.product(range(1, 10), repeat=length):
            state = 0
            for v in word:
                state = step.get((state, v), -1)
                if state < 0:
                    break
            if state in accepting:
                accepted.append(word)
        assert accepted == brute
