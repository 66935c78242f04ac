"""Bring your own backend: `--import MODULE` on every command that takes a backend, backends
registered by installed packages through the `kakuro.backends` entry-point group, and broken
plug-ins listed as unavailable with the reason, never disturbing the other backends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import kakuro
from kakuro.cli import main
from kakuro.registry import registry_restored
from tests.conftest import EXAMPLES, ROOT, tree_env

PLUGIN = '''
import kakuro
from itertools import product


@kakuro.register("tiny")
class Tiny(kakuro.EnumeratingSolver):
    """Every filling of the grid tried in turn: a complete backend in a few lines."""

    description = "brute force over every filling (a plug-in)"
    paradigm = "brute force"
    supports_seed = False
    options = {"descending": kakuro.Option(False, "try the values from the highest down")}

    def _count(self, puzzle, opts, limit, limits, seed):
        lo, hi = puzzle.values
        values = range(hi, lo - 1, -1) if opts["descending"] else range(lo, hi + 1)
        free = [c for c in range(puzzle.size) if c not in puzzle.givens]
        found = []
        for choice in product(values, repeat=len(free)):
            if limits.deadline.expired():
                return kakuro.Enumeration(found, False, {}, "time limit reached")
            filling = [puzzle.givens.get(c, 0) for c in range(puzzle.size)]
            for c, v in zip(free, choice):
                filling[c] = v
            if all(len({filling[c] for c in run.cells}) == len(run.cells)
                   and sum(filling[c] for c in run.cells) == run.total for run in puzzle.groups):
                found.append(filling)
                if len(found) == limit:
                    break
        else:
            return kakuro.Enumeration(found, True, {})
        return kakuro.Enumeration(found, False, {})
'''
SMALL = "# 4\\ 3\\\n\\3 _ _\n\\4 _ _\n"
"""A 2x2 grid with one solution, 1 2 / 3 1 (2 1 would need 2 2 in the second row)."""


@pytest.fixture()
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tiny_plugin.py").write_text(PLUGIN)
    (tmp_path / "small.txt").write_text(SMALL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def in_process(*argv: str) -> int:
    """The command line in this process, as a fresh process would run it: the registry and the
    imported plug-in modules (those of the current folder, where the plug-ins are written) are as
    before afterwards. What else the command imported stays: forgetting numba's modules would
    register its types twice on their next import."""
    modules = set(sys.modules)
    with registry_restored():
        code = main(list(argv))
    here = Path.cwd().resolve()
    for name in set(sys.modules) - modules:
        if Path(getattr(sys.modules[name], "__file__", None) or "/").resolve().parent == here:
            del sys.modules[name]
    return code


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`in_process`, with what the command printed."""
    code = in_process(*argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("module", ["tiny_plugin", "tiny_plugin.py"])
def test_import_works_on_solve_count_render_and_backends(plugin: Path, module: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "small.txt", "-b", "tiny", "--import", module, "--format", "json")
    assert code == 0, err
    assert json.loads(out)["status"] == "solved"
    code, out, err = run(capsys, "count", "small.txt", "-b", "tiny:descending=true", "--import", module)
    assert code == 0 and "exactly 1" in out, (out, err)
    code, _, err = run(capsys, "render", "small.txt", "--solution", "-b", "tiny", "--import", module, "-o", "s.svg")
    assert code == 0 and (plugin / "s.svg").read_text().count("<text") >= 4, err
    code, out, _ = run(capsys, "backends", "--import", module)
    assert code == 0 and any(line.split()[:2] == ["tiny", "brute"] for line in out.splitlines())
    code, out, _ = run(capsys, "backends", "tiny", "--import", module)
    assert "descending = false" in out and "paradigm:    brute force" in out


def test_without_import_the_backend_is_unknown_with_a_hint(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "solve", "small.txt", "-b", "tiny")
    assert code == 2 and "unknown backend 'tiny'" in err


def test_a_module_that_fails_is_one_clear_line(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (plugin / "bad_plugin.py").write_text("import kakuro\nraise RuntimeError('no licence server')\n")
    code, _, err = run(capsys, "solve", "small.txt", "-b", "tiny", "--import", "bad_plugin")
    assert code == 1 and err.strip() == "kakuro: --import bad_plugin: RuntimeError: no licence server"
    code, _, err = run(capsys, "count", "small.txt", "--import", "missing_module")
    assert code == 1 and "--import missing_module: ModuleNotFoundError" in err and len(err.splitlines()) == 1


def test_compare_runs_an_imported_backend_in_its_workers(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The campaign in this process (its workers are the processes that must import the plug-in)."""
    code, _, err = run(capsys, "compare", "small.txt", "-b", "tiny", "-b", "gac", "--import", "tiny_plugin",
                       "--time-limit", "10", "-o", "r.jsonl", "-j", "1")
    assert code == 0, err
    records = [json.loads(line) for line in (plugin / "r.jsonl").read_text().splitlines()]
    assert {(r["backend"], r["status"]) for r in records} == {("tiny", "SOLVED"), ("gac", "SOLVED")}
    assert {r["versions"]["paradigm"] for r in records} == {"brute force", "native propagation"}


def test_register_refuses_what_is_not_a_backend() -> None:
    with registry_restored():
        with pytest.raises(TypeError, match="not a kakuro.Option"):
            @kakuro.register("odd")
            class Odd(kakuro.Solver):
                options = {"level": 3}

                def _solve(self, puzzle, opts, limits, seed):  # type: ignore[no-untyped-def]
                    raise NotImplementedError
        with pytest.raises(TypeError, match="not a subclass of kakuro.Solver"):
            kakuro.register("thing")(dict)  # type: ignore[type-var]
        assert "odd" not in kakuro.backends()


def _install(site: Path, name: str, modules: dict[str, str], entry_points: dict[str, str]) -> None:
    """Install the distribution `name` (version 0.1) into `site`, a folder put on PYTHONPATH, as an
    installer leaves it (as in a virtual environment, without touching this one): its package
    (`modules`, file name: text) and its `.dist-info` folder, whose METADATA and entry_points.txt
    are what `importlib.metadata` reads. Written directly: building a wheel with pip took seconds
    of CPU and is no part of what kakuro does with an installed package."""
    package = name.replace("-", "_")
    (site / package).mkdir(parents=True)
    for file, text in modules.items():
        (site / package / file).write_text(text)
    info = site / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        f"[{kakuro.ENTRY_POINT_GROUP}]\n" + "".join(f"{key} = {value}\n" for key, value in entry_points.items()))


@pytest.mark.slow  # fresh interpreters, and the plug-ins probed in more (seconds)
def test_an_installed_package_registers_backends_by_entry_point(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install(site, "kakuro-tiny", {"__init__.py": PLUGIN, "broken.py": "raise ImportError('needs libfoo.so.3')\n",
                                   "notabackend.py": "class Thing:\n    pass\n"},
             {"tiny": "kakuro_tiny", "broken": "kakuro_tiny.broken", "thing": "kakuro_tiny.notabackend:Thing"})
    (tmp_path / "small.txt").write_text(SMALL)
    env = tree_env(site)

    def kakuro_cli(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "kakuro", *argv], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, env=env)

    listed = kakuro_cli("backends")
    assert listed.returncode == 0, listed.stderr
    table = listed.stdout.split("\n\n")[0].splitlines()
    rows = {line.split()[0]: line for line in table}
    assert "tiny" in rows and " yes " in rows["tiny"]
    assert "broken" in rows and " no " in rows["broken"]
    assert "broken is not available: the plug-in 'kakuro_tiny.broken' (entry point 'broken' of package kakuro-tiny) " \
           "failed to load: ImportError: needs libfoo.so.3" in listed.stdout
    assert "thing is not available" in listed.stdout and "not a subclass of kakuro.Solver" in listed.stdout
    assert "gac" in rows and "cpsat" in rows  # the others are undisturbed
    # a solve, a refusal, a campaign and the library, in one interpreter: each looks up a plug-in not loaded before
    # it but tiny
    commands = [["solve", "small.txt", "-b", name] for name in ("tiny", "broken")]
    commands.append(["compare", "small.txt", "-b", "tiny", "--time-limit", "10", "-o", "r.jsonl", "-j", "1"])
    both = subprocess.run([sys.executable, "-c", "import kakuro\nfrom kakuro.cli import main\n"
                           f"codes = [main(argv) for argv in {commands!r}]\n"
                           "p = kakuro.read('small.txt')[0]\n"
                           "print(*codes, kakuro.solve(p, 'tiny').status.value, kakuro.solve(p, 'gac').status.value)"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert both.stdout.splitlines()[-1].split() == ["0", "1", "0", "solved", "solved"], both.stderr
    said = both.stderr.splitlines()  # the refusal, in one line, and the campaign's results file
    assert len(said) == 2 and "libfoo.so.3" in said[0] and said[1] == "results: r.jsonl", both.stderr
    assert json.loads((tmp_path / "r.jsonl").read_text().splitlines()[0])["status"] == "SOLVED"


def test_the_plugin_api_is_exported_and_typed() -> None:
    for name in ("Solver", "EnumeratingSolver", "Outcome", "Enumeration", "Option", "Deadline", "Limits", "Budget", "Engine",
                 "BackendInfo", "STATS", "register", "ENTRY_POINT_GROUP"):
        assert name in kakuro.__all__ and hasattr(kakuro, name), name
    assert kakuro.ENTRY_POINT_GROUP == "kakuro.backends"
    assert "_solve(puzzle, opts, limits, seed)" in (kakuro.Solver.__doc__ or "")
    assert (ROOT / "kakuro" / "py.typed").exists()
    assert EXAMPLES.exists()


# --------------------------------------------------------------------- a plug-in cannot disturb the caller (issue 40)
RUDE = '''
import ctypes, os, subprocess, sys
import kakuro
from kakuro import Option, Outcome, Status


class Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr")

    __str__ = __repr__


ANSWERS = {
    "tuple": lambda: (Status.SOLVED, [1, 2, 3, 1]),
    "status": lambda: Outcome("solved", [1, 2, 3, 1]),
    "unprintable": lambda: Outcome(Status.SOLVED, [1, 2, 3, 1], {"odd": Unprintable(), "nodes": 3}),
    "nan": lambda: Outcome(Status.SOLVED, [1, 2, 3, 1], {"rate": float("nan")}),
    "huge": lambda: Outcome(Status.SOLVED, [1, 2, 3, 1], {"nodes": 10**5000}),
    "bytes": lambda: Outcome(Status.SOLVED, [1, 2, 3, 1], {"blob": b"\\xff"}, "\\udcff"),
}


@kakuro.register("rude")
class Rude(kakuro.EnumeratingSolver):
    """Returns what the template does not take (`answer`), or chatters on stdout every way
    a backend can (`answer=chatty`): print, a write to file descriptor 1, C's printf, a child."""

    options = {"answer": Option("chatty", choices=("chatty", *ANSWERS))}

    def _solve(self, puzzle, opts, limits, seed):
        if opts["answer"] != "chatty":
            return ANSWERS[opts["answer"]]()
        return super()._solve(puzzle, opts, limits, seed)

    def _count(self, puzzle, opts, limit, limits, seed):
        print("python chatter")
        sys.__stdout__.write("kept-stream chatter\\n")
        os.write(1, b"fd chatter\\n")
        ctypes.CDLL(None).printf(b"C chatter\\n")
        subprocess.run(["echo", "child chatter"], check=True)
        return kakuro.Enumeration([[1, 2, 3, 1]], True, {"nodes": 1})
'''


@pytest.fixture()
def rude(plugin: Path) -> Path:
    (plugin / "rude_plugin.py").write_text(RUDE)
    return plugin


def run_fd(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`in_process`, with what the command wrote to file descriptors 1 and 2."""
    code = in_process(*argv)
    out, err = capfd.readouterr()
    return code, out, err


@pytest.mark.parametrize("answer", ["tuple", "status", "unprintable", "nan", "huge", "bytes"])
def test_what_a_plugin_returns_never_gives_a_traceback(rude: Path, answer: str, capfd: pytest.CaptureFixture[str]) -> None:
    spec = f"rude:answer={answer}"
    code, out, err = run_fd(capfd, "solve", "small.txt", "-b", spec, "--import", "rude_plugin", "--format", "json")
    record = json.loads(out, parse_constant=lambda word: pytest.fail(f"{word} is not JSON"))
    assert "Traceback" not in err and err == ""
    if answer in ("tuple", "status"):
        words = {"tuple": "_solve returned a tuple", "status": "Outcome.status is a str ('solved')"}[answer]
        assert code == 1 and record["status"] == "error" and words in record["message"]
    else:
        assert code == 0 and record["status"] == "solved" and all(
            type(value) in (int, float, bool, str) for value in record["stats"].values())
    code, out, err = run_fd(capfd, "solve", "small.txt", "-b", spec, "--import", "rude_plugin")
    assert "Traceback" not in err and code in (0, 1) and out.startswith("small.txt#1: ")


def test_what_a_plugin_prints_stays_off_the_json(rude: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Python's print, a stream kept of stdout, a write to fd 1, C's printf and a child's output
    all go to stderr while the backend runs; the JSON alone goes to stdout."""
    chatter = ["python chatter", "kept-stream chatter", "fd chatter", "C chatter", "child chatter"]
    for command in ("solve", "count"):
        code, out, err = run_fd(capfd, command, "small.txt", "-b", "rude", "--import", "rude_plugin", "--format", "json")
        assert code == 0, err
        assert json.loads(out)["status"] == "solved" and len(out.splitlines()) == 1, out
        assert sorted(err.split("\n")[:-1]) == sorted(chatter), err
    code, out, _ = run_fd(capfd, "solve", "small.txt", "-b", "rude", "--import", "rude_plugin")
    assert all(line in out for line in chatter)  # the text format leaves stdout as it is


def test_an_imported_module_cannot_take_a_shipped_name(plugin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (plugin / "impostor.py").write_text("import kakuro\n\n@kakuro.register('gac')\nclass Gac(kakuro.Solver):\n"
                                        "    complete = True\n")
    code, _, err = run(capsys, "solve", "small.txt", "-b", "gac", "--import", "impostor")
    assert code == 1 and len(err.splitlines()) == 1
    assert "--import impostor: ValueError: backend name 'gac' is the name of a backend kakuro ships" in err
    code, out, err = run(capsys, "solve", "small.txt", "-b", "gac")
    assert code == 0 and "solved" in out


HOSTILE = {
    "__init__.py": '''
import os
import sys
import kakuro


def imported(name):
    """Append `name` and where it is imported to the file $KAKURO_TEST_IMPORTED: "probe" in the
    separate interpreter that tries a plug-in (its arguments name the entry-point group), else
    "caller"."""
    where = "probe" if kakuro.ENTRY_POINT_GROUP in sys.argv else "caller"
    with open(os.environ["KAKURO_TEST_IMPORTED"], "a") as stream:
        stream.write(f"{name} {where}\\n")


class Impostor(kakuro.Solver):
    description = "claims every puzzle is unsatisfiable"
    complete = True

    def _solve(self, puzzle, opts, limits, seed):
        return kakuro.Outcome(kakuro.Status.UNSATISFIABLE)
''',
    "exits.py": "import os\nfrom kakuro_hostile import imported\nimported('exits')\nos._exit(0)\n",
    "hangs.py": "import time\nfrom kakuro_hostile import imported\nimported('hangs')\ntime.sleep(3600)\n",
    "takegac.py": "import kakuro\nfrom kakuro_hostile import Impostor, imported\nimported('takegac')\n"
                  "kakuro.register('gac')(Impostor)\n",
}
"""A package whose plug-ins each try to disturb the others: an entry point named like a shipped
backend (`cpsat`), a module that registers one (`takegac`), an import that ends the process
(`exits`) and one that never ends (`hangs`)."""


SOLVE = ["solve", "small.txt", "--format", "json", "-b"]
COMPARE = ["compare", "small.txt", "-b", "gac", "-b", "cpsat", "--time-limit", "10", "-o", "r.jsonl", "-j", "1"]


@pytest.mark.slow  # fresh interpreters, and the listing waits out the hanging import (seconds)
def test_installed_plugins_cannot_disturb_the_shipped_backends_or_other_commands(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install(site, "kakuro-hostile", HOSTILE, {"cpsat": "kakuro_hostile:Impostor", "takegac": "kakuro_hostile.takegac",
                                               "exits": "kakuro_hostile.exits", "hangs": "kakuro_hostile.hangs"})
    (tmp_path / "small.txt").write_text(SMALL)
    imported = tmp_path / "imported.txt"
    env = {**tree_env(site), "KAKURO_TEST_IMPORTED": str(imported)}

    def python(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env=env)

    def kakuro_cli(*argv: str) -> subprocess.CompletedProcess[str]:  # the import probe waits 3 s, not 30
        return python(f"import sys, kakuro.registry as r; r.PLUGIN_PROBE_SECONDS = 3\n"
                      f"from kakuro.cli import main; sys.exit(main({list(argv)!r}))")

    # a shipped backend imports no plug-in, and is the shipped one: two solves, a compare and the library, in one
    # interpreter (the plug-ins are discovered once, as in any process)
    shipped = python("import kakuro, kakuro.registry as r; r.PLUGIN_PROBE_SECONDS = 3\nfrom kakuro.cli import main\n"
                     f"codes = [main(argv) for argv in {[[*SOLVE, backend] for backend in ('gac', 'cpsat')] + [COMPARE]!r}]\n"
                     "p = kakuro.read('small.txt')[0]\n"
                     "print(*codes, kakuro.solve(p, 'gac').status.value, kakuro.solve(p, 'cpsat').status.value)")
    said = shipped.stdout.splitlines()
    assert said[-1].split() == ["0", "0", "0", "solved", "solved"], shipped.stderr
    assert [json.loads(line)["status"] for line in said[:2]] == ["solved", "solved"], shipped.stdout
    records = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert {(r["backend"], r["status"], r["versions"]["paradigm"]) for r in records} == {
        ("gac", "SOLVED", "native propagation"), ("cpsat", "SOLVED", "CP-SAT")}
    assert not imported.exists()

    listed = kakuro_cli("backends")
    assert listed.returncode == 0, listed.stderr
    rows = {line.split()[0]: line for line in listed.stdout.split("\n\n")[0].splitlines()[1:]}
    assert all(" yes " in rows[name] for name in ("gac", "cpsat"))
    assert all(" no " in rows[name] for name in ("cpsat@kakuro-hostile", "takegac", "exits", "hangs"))
    origin = "the plug-in 'kakuro_hostile.{0}' (entry point '{0}' of package kakuro-hostile)"
    for line in (
        "cpsat@kakuro-hostile is not available: the plug-in 'kakuro_hostile:Impostor' (entry point 'cpsat' of package "
        "kakuro-hostile) was not loaded: 'cpsat' is the name of a backend kakuro ships; a plug-in registers under a "
        "name of its own",
        f"takegac is not available: {origin.format('takegac')} failed to load: ValueError: backend name 'gac' is the "
        "name of a backend kakuro ships; a plug-in registers under a name of its own",
        f"exits is not available: {origin.format('exits')} was not loaded: its import ended the process (exit code 0)",
        f"hangs is not available: {origin.format('hangs')} was not loaded: its import did not finish within 3 s",
    ):
        assert line in listed.stdout.splitlines(), listed.stdout
    # a solve and a compare that name it are refused (one interpreter; a line on stderr between the two)
    refused = python("import sys, kakuro.registry as r; r.PLUGIN_PROBE_SECONDS = 3\nfrom kakuro.cli import main\n"
                     "codes = [main(['solve', 'small.txt', '-b', 'exits'])]\nprint('--', file=sys.stderr, flush=True)\n"
                     "codes.append(main(['compare', 'small.txt', '-b', 'gac', '-b', 'exits', '--time-limit', '10', "
                     "'-o', 'x.jsonl']))\nprint(*codes)")
    solved, _, compared = refused.stderr.partition("--\n")
    assert refused.stdout.split() == ["1", "1"], refused.stderr  # compare: not 0 without results
    assert solved.count("\n") == 1 and "its import ended the process" in solved
    assert "its import ended the process" in compared
    early = python("import kakuro_hostile.takegac")  # before any lookup: the name is refused all the same
    assert early.returncode == 1 and "backend name 'gac' is the name of a backend kakuro ships" in early.stderr
    where = {tuple(line.split()) for line in imported.read_text().splitlines()}
    assert where == {("exits", "probe"), ("hangs", "probe"), ("takegac", "probe"), ("takegac", "caller")}
