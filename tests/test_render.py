"""Pictures: SVG structure, PNG output, refusal to overwrite."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import kakuro
from kakuro import KakuroError, Puzzle
from kakuro.render import render, to_svg
from tests.conftest import CAZENAVE_TABLE2

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    return [node.text or "" for node in ET.fromstring(svg).iter(f"{SVG}text")]


def test_svg_shows_every_clue_and_given() -> None:
    puzzle = Puzzle.all_white([3, 4], [3, 4], values=(1, 9), givens={(0, 0): 1})
    labels = texts(to_svg(puzzle))
    assert sorted(labels) == sorted(["3", "4", "3", "4", "1"])


def test_svg_with_solution_shows_every_digit(cazenave: Puzzle) -> None:
    solution = cazenave.solution([v for row in CAZENAVE_TABLE2 for v in row])
    labels = texts(to_svg(cazenave, solution))
    assert len(labels) == 10 + 25
    assert sorted(labels[10:]) == sorted(str(v) for row in CAZENAVE_TABLE2 for v in row)


def test_png_is_written_and_nothing_is_overwritten(tmp_path: Path, cazenave: Puzzle) -> None:
    target = render(cazenave, tmp_path / "grid.png")
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = target.read_bytes()
    with pytest.raises(KakuroError, match="already exists"):
        render(cazenave, target)
    assert target.read_bytes() == before
    with pytest.raises(KakuroError, match=".svg or .png"):
        render(cazenave, tmp_path / "grid.pdf")


def test_solution_of_another_puzzle_is_refused(cazenave: Puzzle, two_solutions: Puzzle) -> None:
    other = kakuro.solve(two_solutions, "cpsat").solution
    with pytest.raises(KakuroError):
        to_svg(cazenave, other)
