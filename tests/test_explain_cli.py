"""`kakuro explain`, `kakuro hint`, `generate classic --rate` and the HTML page in a browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import kakuro
from kakuro.cli import main
from kakuro.deduction import explain
from kakuro.generate import classic, grade
from kakuro.generate.classic_grids import LEVELS_OF_GRADE
from tests.browser import Page, chromium_or_skip
from tests.conftest import TWO_SOLUTIONS, UNSATISFIABLE


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture(scope="module")
def puzzle_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated 10x10 puzzle that needs a contradiction (with its solution in the metadata)."""
    path = tmp_path_factory.mktemp("explain") / "hard.jsonl"
    kakuro.write(classic(10, 10, seed=0, count=1, rating=6), path)
    return path


def test_explain_prints_every_step_and_the_rating(capsys: pytest.CaptureFixture[str], puzzle_file: Path) -> None:
    code, out, _ = run(capsys, "explain", puzzle_file)
    e = explain(kakuro.read(puzzle_file)[0])
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == f"{e.puzzle.id}: solved in {len(e.steps)} steps; rating {e.rating}"
    assert len(lines) == len(e.steps) + 2 and lines[1].strip().startswith("1. [")
    assert lines[-1].startswith("techniques: ") and "contradiction" in lines[-1]


def test_explain_writes_json_svg_png_and_html(capsys: pytest.CaptureFixture[str], puzzle_file: Path, tmp_path: Path) -> None:
    e = explain(kakuro.read(puzzle_file)[0])
    for name in ("trace.json", "step.svg", "step.png", "trace.html"):
        code, out, _ = run(capsys, "explain", puzzle_file, "-o", tmp_path / name)
        assert code == 0 and out == f"wrote {tmp_path / name}\n"
    data = json.loads((tmp_path / "trace.json").read_text())
    assert data["rating"]["score"] == e.rating.score and len(data["steps"]) == len(e.steps)
    assert (tmp_path / "step.png").read_bytes()[:4] == b"\x89PNG"
    assert "contradiction" in (tmp_path / "trace.html").read_text()
    code, out, _ = run(capsys, "explain", puzzle_file, "--format", "svg", "--step", "1")
    assert code == 0 and out.startswith("<svg") and 'fill="#fff1b8"' in out


def test_explain_refuses_to_overwrite_and_reports_bad_input(capsys: pytest.CaptureFixture[str], puzzle_file: Path,
                                                           tmp_path: Path) -> None:
    target = tmp_path / "old.json"
    target.write_text("keep")
    code, _, err = run(capsys, "explain", puzzle_file, "-o", target)
    assert code == 1 and "--force" in err and target.read_text() == "keep"
    assert run(capsys, "explain", puzzle_file, "-o", target, "--force")[0] == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("#  3\\\n\\3  x y\n")
    code, _, err = run(capsys, "explain", bad)
    assert code == 1 and len(err.strip().splitlines()) == 1 and str(bad) in err
    code, _, err = run(capsys, "explain", puzzle_file, "--format", "png")
    assert code == 2 and "-o" in err  # usage errors: flags that do not fit together, a step out of range
    code, _, err = run(capsys, "explain", puzzle_file, "--format", "svg", "--step", "100000")
    assert code == 2 and "no step 100000" in err
    code, _, err = run(capsys, "explain", puzzle_file, "--format", "png", "-o", tmp_path / "step.svg")
    assert code == 2 and "draws a .png file" in err and not (tmp_path / "step.svg").exists()


def test_explain_never_writes_through_a_link(capsys: pytest.CaptureFixture[str], puzzle_file: Path,
                                             tmp_path: Path) -> None:
    """-o names a symlink: refused without --force (even dangling), and with --force the link
    itself is replaced, never the file it points to."""
    victim = tmp_path / "victim.txt"
    link = tmp_path / "trace.json"
    link.symlink_to(victim)
    assert run(capsys, "explain", puzzle_file, "-o", link)[0] == 1 and not victim.exists()
    victim.write_text("keep")
    for name, kind in (("trace.json", "json"), ("page.html", "html"), ("step.svg", "svg")):
        target = tmp_path / name
        target.unlink(missing_ok=True)
        target.symlink_to(victim)
        code, out, _ = run(capsys, "explain", puzzle_file, "-o", target, "--force")
        assert code == 0 and out == f"wrote {target}\n", kind
        assert victim.read_text() == "keep" and not target.is_symlink() and target.stat().st_size > 0, kind


def test_explain_exit_codes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    unsat = tmp_path / "unsat.txt"
    unsat.write_text(UNSATISFIABLE)
    code, out, _ = run(capsys, "explain", unsat)
    assert code == 5 and "unsatisfiable" in out.splitlines()[0]
    two = tmp_path / "two.txt"
    two.write_text(TWO_SOLUTIONS)
    code, out, _ = run(capsys, "explain", two, "--format", "json")
    assert code == 0 and json.loads(out)["status"] == "several-solutions"


def test_hint_from_a_progress_file(capsys: pytest.CaptureFixture[str], puzzle_file: Path, tmp_path: Path) -> None:
    puzzle = kakuro.read(puzzle_file)[0]
    solution = [list(row) for row in puzzle.meta["solution"]]
    code, out, _ = run(capsys, "hint", puzzle_file, "--level", "3")  # level 1, the default, names the technique only
    assert code == 0 and out.startswith("next: r")
    progress = [[None if isinstance(v, int) else v for v in row] for row in solution]
    r, c = puzzle.cells[0]
    progress[r][c] = solution[r][c]
    (tmp_path / "progress.json").write_text(json.dumps(progress))
    code, out, _ = run(capsys, "hint", puzzle_file, "--progress", tmp_path / "progress.json", "--format", "json")
    found = json.loads(out)
    assert code == 0 and found["kind"] == "step" and found["cell"] != [r, c]
    assert found["step"]["placed"] and found["message"].endswith(f"is {solution[found['cell'][0]][found['cell'][1]]}")
    progress[r][c] = solution[r][c] % 9 + 1
    (tmp_path / "wrong.json").write_text(json.dumps(progress))
    code, out, _ = run(capsys, "hint", puzzle_file, "--progress", tmp_path / "wrong.json")
    assert code == 3 and out.startswith(f"mistake: r{r}c{c}")  # a wrong answer
    (tmp_path / "done.json").write_text(json.dumps(solution))
    assert run(capsys, "hint", puzzle_file, "--progress", tmp_path / "done.json")[1].startswith("solved")
    (tmp_path / "broken.json").write_text("[[1, 2")
    code, _, err = run(capsys, "hint", puzzle_file, "--progress", tmp_path / "broken.json")
    assert code == 1 and "broken.json:1:" in err
    (tmp_path / "small.json").write_text("[[1, 2], [3, 4]]")
    code, _, err = run(capsys, "hint", puzzle_file, "--progress", tmp_path / "small.json")
    assert code == 1 and err == f"kakuro: {tmp_path / 'small.json'}: the grid is 2 x 2, the puzzle 10 x 10\n"
    progress[r][c] = "x"
    (tmp_path / "letter.json").write_text(json.dumps(progress))
    code, _, err = run(capsys, "hint", puzzle_file, "--progress", tmp_path / "letter.json")
    assert code == 1 and err.startswith(f"kakuro: {tmp_path / 'letter.json'}: the grid holds 'x' at r{r}c{c},")


def test_generated_puzzles_carry_their_rating_and_a_rating_can_be_asked_for() -> None:
    for level in (4, 5):
        for puzzle in classic(10, 10, seed=1, count=2, rating=level):
            e = explain(puzzle)
            assert puzzle.meta["rating"] == e.rating.score and e.rating.level == level == puzzle.meta["target_rating"]
            low, high = LEVELS_OF_GRADE[puzzle.meta["grade"]]
            assert low <= level <= high and grade(puzzle) == puzzle.meta["grade"]
    assert "rating" in classic(8, 8, seed=0, count=1)[0].meta
    with pytest.raises(kakuro.KakuroError, match="grade gac rates 2 to 4, never 6"):
        classic(8, 8, grade="gac", rating=6)
    with pytest.raises(kakuro.KakuroError, match="from 1 to 6"):
        classic(8, 8, rating=7)


def test_generate_rate_on_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "rated.jsonl"
    code, _, _ = run(capsys, "generate", "classic", "--rows", "10", "--cols", "10", "--rate", "5", "-o", target)
    assert code == 0
    puzzle = kakuro.read(target)[0]
    assert 5 <= puzzle.meta["rating"] < 6 and puzzle.meta["grade"] == "gac+shaving"
    code, _, err = run(capsys, "generate", "classic", "--rows", "10", "--cols", "10", "--rate", "9")
    assert code == 2 and "level from 1 to 6" in err


def test_the_html_page_steps_through_the_trace_in_a_browser(puzzle_file: Path, tmp_path: Path) -> None:
    executable = chromium_or_skip()
    e = explain(kakuro.read(puzzle_file)[0])
    target = tmp_path / "trace.html"
    assert main(["explain", str(puzzle_file), "-o", str(target)]) == 0
    hardest = next(k for k, s in enumerate(e.steps) if s.technique == "contradiction")
    with Page(executable, target) as page:
        assert page.evaluate("document.getElementById('where').textContent") == \
            f"step 1 of {len(e.steps)}: {e.steps[0].technique} (level {e.steps[0].level})"
        page.click("#next")
        assert page.evaluate("document.getElementById('sentence').textContent") == e.steps[1].sentence
        page.click(f'#steps li[data-k="{hardest}"]')
        struck = page.evaluate("[...document.querySelectorAll('line[id^=s]')].filter(x => x.style.display === 'inline')"
                               ".map(x => x.id)")
        step = e.steps[hardest]
        assert step.assumption is not None and struck == [f"s{step.assumption.cell}-{step.assumption.value}"]
        page.click("#last")
        shown = page.evaluate(f"[...Array({e.puzzle.size}).keys()].map(c => (document.getElementById('d' + c) || "
                              "{textContent: ''}).textContent)")
        assert e.solution is not None
        assert [int(v) for c, v in enumerate(shown) if c not in e.puzzle.givens] == \
            [v for c, v in enumerate(e.solution.values) if c not in e.puzzle.givens]
        assert page.problems == []
