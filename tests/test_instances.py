"""instances/ is reproducible: each folder's commands.sh remakes its files (every command is
rerun here) and every puzzle is well formed."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

import kakuro
from kakuro.cli import main

INSTANCES = Path(__file__).resolve().parent.parent / "instances"
def commands() -> list[tuple[Path, list[str]]]:
    found = []
    for script in sorted(INSTANCES.glob("*/commands.sh")):
        for line in script.read_text().splitlines():
            if line.startswith("kakuro generate"):
                found.append((script.parent, shlex.split(line)[1:]))
    return found


def test_every_folder_has_a_readme_and_its_commands_make_every_file() -> None:
    for folder in (p for p in INSTANCES.iterdir() if p.is_dir() and p.name != "examples"):
        assert (folder / "README.md").is_file()
        made = {argv[argv.index("-o") + 1] for f, argv in commands() if f == folder}
        stored = {p.name for p in folder.glob("*.jsonl")}
        assert made == stored, folder


@pytest.mark.parametrize("folder, argv", commands(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_commands_remake_the_stored_files(folder: Path, argv: list[str], tmp_path: Path) -> None:
    name = argv[argv.index("-o") + 1]
    argv = [tmp_path / name if a == name else a for a in argv]
    assert main([str(a) for a in argv]) == 0
    remade, stored = kakuro.read(tmp_path / name), kakuro.read(folder / name)
    assert remade == stored
    assert [p.meta.get("grade") for p in remade] == [p.meta.get("grade") for p in stored]


def test_every_stored_puzzle_has_a_valid_hidden_solution_or_says_why_it_has_none() -> None:
    for path in sorted(INSTANCES.rglob("*.jsonl")):
        for puzzle in kakuro.read(path):
            if "unsatisfiable" in puzzle.meta:
                assert "solution" not in puzzle.meta and puzzle.id.endswith("-unsat")
                continue
            assert puzzle.check([list(row) for row in puzzle.meta["solution"]]) == [], puzzle.id
            if puzzle.meta.get("unique"):
                assert puzzle.meta["grade"] in ("rdv", "gac", "gac+shaving", "search")


def test_the_unsatisfiable_hard_puzzles_need_a_search_to_refute() -> None:
    """Root GAC, shaving and the totals check leave them open (the sums still add up); two SAT
    solvers prove there is no solution (cpsat takes 3-45 s on them)."""
    from kakuro.reasoning.root import reduce

    for path in sorted((INSTANCES / "hard").glob("unsat-*.jsonl")):
        for puzzle in kakuro.read(path):
            assert not reduce(puzzle, "fixpoint").wiped_out, puzzle.id
            for spec in ("sat", "sat:solver=kissat404"):
                assert kakuro.solve(puzzle, spec, time_limit=60).status is kakuro.Status.UNSATISFIABLE, (spec, puzzle.id)
