"""The commands of README.md, REPRODUCTION.md and every page of the documentation site
(docs/**/*.md) are run, so the documentation cannot rot.

Convention (the guide's "The command line" page says it too):

- every line of a ```console block is a shell command that must exit 0; lines starting with
  `#` are comments. Each block runs in a fresh temporary folder, its lines in order (a block
  may use the files its earlier lines wrote). The folder holds copies of the repository's
  `instances/`, `experiments/` and `benchmarks/`, and `../shared` points at the shared data
  as it does beside a checkout; `kakuro` and `python` run this interpreter on the tree under
  test (`python -m kakuro`, PYTHONPATH set to it);
- long commands are run in their `--quick` form: a line that runs an `experiments/` or
  `benchmarks/` script without `--quick` gets `--quick` added (their full modes take minutes
  to hours); such a script run that comes out the same as one already run (the same words; its
  comment and spacing do not count) is not run twice (other commands always run: a later line
  of their block may read what they write);
- every ```python block is executed too, in such a folder (it also holds
  docs/guide/tutorial_backend.py, the plug-in tutorial's backend, which its page shows whole);
- other blocks are not run: ```sh holds the set-up commands (install, run the tests), which
  CI runs itself (`.ci/run`), ```text holds synopses and output.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import doc_runner
from tests.conftest import ROOT, SHARED_DATA, docs_markdown

SITE_PAGES = tuple(path.relative_to(ROOT).as_posix() for path in docs_markdown() if path.name != "README.md")
"""The site's pages (docs/README.md is the docs' own notes on building, not a page)."""
DOCUMENTS = ("README.md", "REPRODUCTION.md", "docs/README.md", *SITE_PAGES)
COPIED = ("instances", "experiments", "benchmarks")
COPIED_FILES = ("docs/guide/tutorial_backend.py",)
"""Files the pages' commands use (the plug-in tutorial's backend, for `compare --import`)."""
SCRIPT = re.compile(r"^python\s+(experiments|benchmarks)/\S+\.py\b")
FENCE = re.compile(r"^```(\S*)(?:\s.*)?$")  # an info string, maybe with arguments ({backend-options} gac)
COMMAND_SECONDS = 1200


@dataclass(frozen=True)
class Block:
    document: str
    line: int
    kind: str
    lines: tuple[tuple[int, str], ...]
    """(line number in the document, text) of each non-blank line."""

    @property
    def name(self) -> str:
        return f"{self.document}:{self.line}"


def blocks(document: str) -> list[Block]:
    """The fenced blocks of a document, with their info string."""
    found: list[Block] = []
    kind, start, body = None, 0, []
    for number, line in enumerate((ROOT / document).read_text(encoding="utf-8").splitlines(), start=1):
        fence = FENCE.match(line)
        if fence and kind is None:
            kind, start, body = fence.group(1), number, []
        elif line.startswith("```") and kind is not None:
            found.append(Block(document, start, kind, tuple(body)))
            kind = None
        elif kind is not None and line.strip():
            body.append((number, line))
    return found


def as_run(command: str) -> str:
    """The command as this test runs it: scripts of experiments/ and benchmarks/ with --quick."""
    if SCRIPT.match(command) and "--quick" not in command.split("#")[0].split():
        code, hash_, comment = command.partition("#")
        return code.rstrip() + " --quick" + (f"  {hash_}{comment}" if hash_ else "")
    return command


def same_command(command: str) -> tuple[str, ...]:
    """What makes two commands the same run: their words, without the comment or the spacing."""
    return tuple(shlex.split(command, comments=True))


def runnable(kind: str) -> list[Block]:
    return [block for document in DOCUMENTS for block in blocks(document) if block.kind == kind]


def workspace(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder like a checkout's root, and the environment the commands run in."""
    folder = tmp_path / "checkout"
    folder.mkdir()
    for name in COPIED:
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__", "results"))
    for name in COPIED_FILES:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, folder / name)
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (tmp_path / "shared").symlink_to(shared)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, line in (("python", f'exec "{sys.executable}" "$@"'), ("kakuro", f'exec "{sys.executable}" -m kakuro "$@"')):
        shim = bin_dir / name
        shim.write_text(f"#!/bin/sh\n{line}\n")
        shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["MPLBACKEND"] = "Agg"
    return folder, env


CONSOLE = runnable("console")
PYTHON = runnable("python")


def test_the_documents_have_runnable_blocks() -> None:
    assert "README.md" in {block.document for block in CONSOLE}, "README.md's quick start has console blocks"
    assert "README.md" in {block.document for block in PYTHON}, "README.md's quick start is a python block"
    assert "docs/index.md" in SITE_PAGES and any(page.startswith("docs/guide/") for page in SITE_PAGES)
    assert {block.document for block in CONSOLE + PYTHON} & set(SITE_PAGES), "the guide's examples are collected"
    assert as_run("python experiments/x.py --tables 5   # note") == "python experiments/x.py --tables 5 --quick  # note"
    assert as_run("python experiments/x.py --quick") == "python experiments/x.py --quick"
    assert as_run("kakuro solve f.txt") == "kakuro solve f.txt"
    assert same_command("python x.py --quick     # 20 problems") == same_command("python x.py --quick  # 100 problems")
    assert same_command("python x.py --quick") != same_command("python x.py --quick --tables 5")
    assert same_command('kakuro solve "a # b"') == ("kakuro", "solve", "a # b")


def test_the_runner_runs_commands_as_a_fresh_process_would(tmp_path: Path) -> None:
    """doc_runner's warm child: exit statuses, output, the working folder, argv and errors as
    `python` gives them, so a broken example fails here as it would in a terminal."""
    folder, env = workspace(tmp_path)
    missing = doc_runner.run("kakuro solve no-such-file.txt", folder, env, 60)
    assert missing.returncode == 1 and "no-such-file.txt" in missing.stderr and missing.stdout == ""
    solved = doc_runner.run("kakuro solve instances/examples/puzzlink-6x5.txt --format json", folder, env, 60)
    assert solved.returncode == 0 and '"status": "solved"' in solved.stdout
    usage = doc_runner.run("python -m kakuro.compare --no-such-flag", folder, env, 60)
    assert usage.returncode == 2 and "python -m kakuro.compare: error" in usage.stderr
    (folder / "argv.py").write_text("import sys, os\nprint(sys.argv, os.getcwd() == sys.path[0])\nraise SystemExit(3)\n")
    script = doc_runner.run("python argv.py a 'b c'  # a comment", folder, env, 60)
    assert script.returncode == 3 and script.stdout.strip() == "['argv.py', 'a', 'b c'] True"
    raised = doc_runner.run_python("import kakuro\nraise ValueError('shown')", folder, env, 60)
    assert raised.returncode == 1 and "ValueError: shown" in raised.stderr
    piped = doc_runner.run("kakuro backends | head -1", folder, env, 60)  # the shell's, as before
    assert piped.returncode == 0 and piped.stdout.split()[0] == "name"
    warm = "import sys; print(sys.stdin.read().upper(), 'kakuro' in sys.modules)"  # True: served warm
    fed = doc_runner.run(f"printf 'a;b\\n' | python -c \"{warm}\"  # the shell's printf", folder, env, 60)
    assert fed.returncode == 0 and fed.stdout == "A;B\n True\n", fed
    (folder / "out.txt").write_text("an older file\n")
    into = doc_runner.run("python -c \"print('#1'); import sys; sys.exit('kakuro' in sys.modules and 4)\" > out.txt",
                          folder, env, 60)
    assert into.returncode == 4 and into.stdout == "" and (folder / "out.txt").read_text() == "#1\n"
    with pytest.raises(subprocess.TimeoutExpired):
        doc_runner.run_python("import time\ntime.sleep(30)", folder, env, 1)
    assert doc_runner.run_python("print('still warm')", folder, env, 60).stdout == "still warm\n"


_already_run: set[tuple[str, ...]] = set()


@pytest.mark.slow
@pytest.mark.parametrize("block", CONSOLE, ids=lambda block: block.name)
def test_console_block_runs(block: Block, tmp_path: Path) -> None:
    folder, env = workspace(tmp_path)
    for number, line in block.lines:
        if line.lstrip().startswith("#"):
            continue
        command = as_run(line.strip())
        once = bool(SCRIPT.match(command))
        if once and same_command(command) in _already_run:
            continue
        done = doc_runner.run(command, folder, env, COMMAND_SECONDS)
        if done.returncode != 0 and not SHARED_DATA.is_dir() and "absent" in done.stderr:
            pytest.skip(f"{block.document}:{number} needs the shared puzzles: {done.stderr.strip().splitlines()[-1]}")
        assert done.returncode == 0, (
            f"{block.document}:{number}: `{command}` exited {done.returncode}\n"
            f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
        )
        if once:
            _already_run.add(same_command(command))


@pytest.mark.parametrize("block", PYTHON, ids=lambda block: block.name)
def test_python_block_runs(block: Block, tmp_path: Path) -> None:
    folder, env = workspace(tmp_path)
    code = "\n".join(line for _, line in block.lines)
    done = doc_runner.run_python(code, folder, env, COMMAND_SECONDS)
    assert done.returncode == 0, f"{block.name}: exited {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


README_LIMIT = 12_000
"""README.md stays a front page: what the toolkit is, set-up, a quick start, the backends, links.
Everything else lives in the documentation site (docs/)."""


def test_readme_is_short() -> None:
    size = len((ROOT / "README.md").read_text(encoding="utf-8"))
    assert size <= README_LIMIT, f"README.md has {size} characters; at most {README_LIMIT}: move the rest into docs/"


def test_readme_links_resolve() -> None:
    """Relative links of README.md (to docs/...md pages, pictures) point at files that exist,
    so they work on GitHub."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text) + re.findall(r'src="([^"]+)"', text)
    local = [target for target in targets if "://" not in target and not target.startswith("mailto:")]
    assert local, "README.md links into docs/"
    missing = [target for target in local if not (ROOT / target).exists()]
    assert not missing, f"README.md links to missing files: {missing}"


def test_the_plugin_tutorial_shows_its_file_whole() -> None:
    """docs/guide/own-backend.md shows docs/guide/tutorial_backend.py as a python block (which
    runs), and compare --import uses the file: the two must be the same text."""
    file_lines = [line for line in (ROOT / COPIED_FILES[0]).read_text(encoding="utf-8").splitlines() if line.strip()]
    shown = [[line for _, line in block.lines] for block in blocks("docs/guide/own-backend.md") if block.kind == "python"]
    assert file_lines in shown, "docs/guide/own-backend.md no longer shows docs/guide/tutorial_backend.py as it is"
