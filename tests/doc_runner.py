"""Runs the documentation's commands as a fresh process would, without paying a fresh process.

A command the docs show (`kakuro ...`, `python -m kakuro.compare ...`, `python experiments/x.py
...`, `python -c CODE`) or a python block is run in a child forked from a warm interpreter of
this tree: one per test worker, started on first use, that has imported `kakuro` with its
command-line modules and loaded the compiled kernels every solve needs, OR-Tools' CP-SAT (which
a third of the commands use), `kakuro.report`, whose scipy.stats every `compare` and `report`
command imports, and matplotlib's pyplot, which every plot imports. The child changes to the
command's folder, takes its environment, argv and standard streams (stdin from /dev/null, stdout
and stderr to files), and runs the module, script or code as `python` would (`runpy`,
`__main__`), then exits with its status. Each command costs its own work only: the interpreter's
start, the imports and the kernels' loading (1 to 2 s of the 1.5 to 3 s of a small command here)
are paid once per worker.

Two shell forms are run so too: `echo ...|printf ... | COMMAND` (bash runs the echo, its output
becomes COMMAND's stdin) and `COMMAND > FILE` (COMMAND's stdout is FILE, created or emptied
first, as bash does). Anything else (another pipe or redirection, `;`, an expansion, another
program) runs in bash. `run` answers a `subprocess.CompletedProcess` either way. `WarmChild`
starts code the same way and leaves it running, its stdout a live pipe: the Ctrl-C tests signal
it mid-search.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.conftest import ROOT

WARM = r'''
import gc, json, os, runpy, sys, traceback
import kakuro, kakuro.cli, kakuro.cli.compare, kakuro.cli.report, kakuro.report  # report: scipy.stats, which compare needs too
import matplotlib
matplotlib.use("Agg")  # as MPLBACKEND says for every command
import matplotlib.pyplot  # 0.8 s that every report with plots, diagram or figures pays
example = kakuro.read("instances/examples/puzzlink-6x5.txt")[0]
for spec in ("auto", "gac", "nmcs", "cpsat"):  # the kernels most commands load first (cpsat: OR-Tools, pandas)
    kakuro.get_solver(spec).ensure_warm()
    kakuro.solve(example, spec, time_limit=10)
print(json.dumps("ready"), flush=True)


def run(request):
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    for fd, path, flags in ((0, request["stdin"], os.O_RDONLY), (1, request["stdout"], os.O_WRONLY | os.O_TRUNC),
                            (2, request["stderr"], os.O_WRONLY | os.O_TRUNC)):
        os.dup2(os.open(path, flags), fd)
    sys.stdin, sys.stdout, sys.stderr = open(0), open(1, "w", buffering=1), open(2, "w", buffering=1)
    sys.argv = list(request["argv"])
    if request["kind"] == "module":  # python -m: the working folder first on the path
        sys.path[0] = os.getcwd()
        runpy.run_module(request["target"], run_name="__main__", alter_sys=True)
    elif request["kind"] == "script":
        sys.path[0] = os.path.dirname(os.path.abspath(request["target"]))
        runpy.run_path(request["target"], run_name="__main__")
    else:  # python -c CODE
        sys.path[0] = ""
        exec(compile(request["target"], "<string>", "exec"), {"__name__": "__main__"})


for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        gc.freeze()  # the warm objects out of the collector's reach: walking them copies the parent's pages
        code = 1
        try:
            run(request)
            code = 0
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except Exception:
                    pass
            os._exit(code)
    print(json.dumps(pid), flush=True)
    _, status = os.waitpid(pid, 0)
    print(json.dumps(os.waitstatus_to_exitcode(status)), flush=True)
'''

SHELL = set("|&;<>()$`*?[]{}~")
"""Characters that make a command the shell's to run (pipes, redirections, expansions), where
they stand outside quotes."""
QUOTED = re.compile(r"""'[^']*'|"(?:[^"\\$`]|\\["\\])*\"""")
"""A quoted word (in double quotes, one with no expansion), whose characters the shell keeps."""
ECHO = re.compile(r"\s*(echo|printf)\s")
REDIRECTED = re.compile(r"\s*([^\s'\"]+)\s*")
"""The file of `COMMAND > FILE`: one plain word."""


class _Warm:
    """The warm interpreter of this test worker (started on first use, ended at exit), and the
    lines it answers, read from its pipe unbuffered so that a wait can time out."""

    process: subprocess.Popen[bytes] | None = None
    pending = b""

    @classmethod
    def get(cls, env: dict[str, str]) -> subprocess.Popen[bytes]:
        if cls.process is None or cls.process.poll() is not None:
            cls.process = subprocess.Popen([sys.executable, "-c", WARM], cwd=ROOT, env=env, bufsize=0,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            cls.pending = b""
            atexit.register(cls.end, cls.process)
            assert cls.answer(600) == "ready", "the warm interpreter did not start"
        return cls.process

    @staticmethod
    def end(process: subprocess.Popen[bytes]) -> None:
        """Kill and reap the warm interpreter (its CPU time, and its children's, then counts as the
        test run's: `time pytest ...` sees it)."""
        process.kill()
        process.wait()

    @classmethod
    def answer(cls, timeout: float) -> object:
        """The next line the warm interpreter writes, decoded; None after `timeout` seconds."""
        assert cls.process is not None and cls.process.stdout is not None
        fd = cls.process.stdout.fileno()
        while b"\n" not in cls.pending:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError("the warm interpreter ended")
            cls.pending += chunk
        line, cls.pending = cls.pending.split(b"\n", 1)
        return json.loads(line)


def _request(words: list[str]) -> tuple[str, str, list[str]] | None:
    """(kind, target, argv) for a command the warm interpreter can run, else None."""
    if words[:1] == ["kakuro"]:
        return "module", "kakuro", ["kakuro", *words[1:]]
    if words[:1] != ["python"] or len(words) < 2:
        return None
    if words[1] == "-m" and len(words) > 2:
        return "module", words[2], [words[2], *words[3:]]
    if words[1] == "-c" and len(words) > 2:
        return "code", words[2], ["-c", *words[3:]]
    if words[1].endswith(".py"):
        return "script", words[1], words[1:]
    return None


def _parts(command: str) -> tuple[str, str | None, str | None] | None:
    """(the command, the `echo`/`printf` that feeds its stdin, the file its stdout goes to), the
    last two None when it has no shell characters; None when it is bash's to run (a form the
    warm interpreter does not run)."""
    bare = QUOTED.sub(lambda quoted: "_" * len(quoted.group()), command)  # positions kept
    end = bare.find(" #")
    if end >= 0:
        command, bare = command[:end], bare[:end]
    shell = [k for k, char in enumerate(bare) if char in SHELL]
    if not shell:
        return command, None, None
    if len(shell) == 1 and bare[shell[0]] == "|" and ECHO.match(bare):
        return command[shell[0] + 1 :], command[: shell[0]], None
    if len(shell) == 1 and bare[shell[0]] == ">" and (target := REDIRECTED.fullmatch(command[shell[0] + 1 :])):
        return command[: shell[0]], None, target.group(1)
    return None


def run(command: str, folder: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    """A line of a console block run in `folder` with `env`, as bash would run it."""
    parts = _parts(command)
    main, feed, into = parts or (command, None, None)
    request = _request(shlex.split(main, comments=True)) if parts is not None else None
    fed = None
    if request is not None and feed is not None:
        fed = subprocess.run(["bash", "-c", feed], cwd=folder, env=env, capture_output=True, timeout=timeout)
    if request is None or fed is not None and fed.returncode != 0:
        return subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True,
                              timeout=timeout)
    stdout = None
    if into is not None:
        stdout = folder / into
        stdout.write_bytes(b"")
    return _in_warm(command, *request, folder, env, timeout, stdin=None if fed is None else fed.stdout, stdout=stdout)


def run_python(code: str, folder: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    """A python block run in `folder` with `env`, as `python -c CODE` would run it."""
    return _in_warm("python -c ...", "code", code, ["-c"], folder, env, timeout)


class WarmChild:
    """`python -c CODE` forked from the warm interpreter and left running: its stdout a live pipe
    (a FIFO) the test reads line by line, its stderr a file read at the end. Answers what the
    tests ask of a `subprocess.Popen`: `pid`, `poll`, `send_signal`, `communicate`, and
    `readline` for a line of its stdout."""

    def __init__(self, code: str, folder: Path, env: dict[str, str]) -> None:
        warm = _Warm.get(env)
        assert warm.stdin is not None
        self._streams = tempfile.TemporaryDirectory()
        out, self._err = Path(self._streams.name) / "stdout", Path(self._streams.name) / "stderr"
        os.mkfifo(out)
        self._err.touch()
        request = {"kind": "code", "target": code, "argv": ["-c"], "cwd": str(folder), "env": env,
                   "stdin": os.devnull, "stdout": str(out), "stderr": str(self._err)}
        warm.stdin.write((json.dumps(request) + "\n").encode())
        self.pid = int(_Warm.answer(60))  # type: ignore[call-overload]
        self._out = os.open(out, os.O_RDONLY)  # waits for the child to open it
        self._read = b""
        self.returncode: int | None = None

    def readline(self) -> str:
        """The next line of the child's stdout ("" at its end)."""
        while b"\n" not in self._read:
            chunk = os.read(self._out, 65536)
            if not chunk:
                break
            self._read += chunk
        line, newline, self._read = self._read.partition(b"\n")
        return (line + newline).decode(errors="replace")

    def poll(self) -> int | None:
        """The exit status once the child has ended, else None (never waits)."""
        if self.returncode is None:
            answer = _Warm.answer(0)
            self.returncode = None if answer is None else int(answer)  # type: ignore[call-overload]
        return self.returncode

    def send_signal(self, signum: int) -> None:
        os.kill(self.pid, signum)

    def communicate(self, timeout: float) -> tuple[str, str]:
        """The rest of stdout and all of stderr once the child has ended; TimeoutExpired (the
        child killed) when it has not within `timeout` seconds."""
        end = time.monotonic() + timeout
        answer = self.returncode if self.returncode is not None else _Warm.answer(timeout)
        if answer is None:
            os.kill(self.pid, signal.SIGKILL)
            _Warm.answer(60)
            raise subprocess.TimeoutExpired("python -c ...", timeout)
        self.returncode = int(answer)  # type: ignore[call-overload]
        while select.select([self._out], [], [], max(0.0, end - time.monotonic()))[0]:
            chunk = os.read(self._out, 65536)  # to end of file: nothing the child started holds it
            if not chunk:
                break
            self._read += chunk
        os.close(self._out)
        rest = self._read.decode(errors="replace")
        err = self._err.read_text(errors="replace")
        self._streams.cleanup()
        return rest, err


def _in_warm(command: str, kind: str, target: str, argv: list[str], folder: Path, env: dict[str, str],
             timeout: float, stdin: bytes | None = None, stdout: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`target` run in a child of the warm interpreter: its stdin `stdin` (else /dev/null), its
    stdout the file `stdout` (else answered as the result's stdout)."""
    warm = _Warm.get(env)
    assert warm.stdin is not None
    with tempfile.TemporaryDirectory() as streams:
        into, out, err = Path(streams) / "stdin", stdout or Path(streams) / "stdout", Path(streams) / "stderr"
        into.write_bytes(stdin or b"")
        out.touch()
        err.touch()
        request = {"kind": kind, "target": target, "argv": argv, "cwd": str(folder), "env": env,
                   "stdin": str(into) if stdin is not None else os.devnull, "stdout": str(out), "stderr": str(err)}
        warm.stdin.write((json.dumps(request) + "\n").encode())
        pid = _Warm.answer(60)
        returncode = _Warm.answer(timeout)
        if returncode is None:
            os.kill(int(pid), signal.SIGKILL)  # type: ignore[call-overload]
            _Warm.answer(60)
            raise subprocess.TimeoutExpired(command, timeout)
        shown = "" if stdout is not None else out.read_text(errors="replace")
        return subprocess.CompletedProcess(command, int(returncode), shown,  # type: ignore[call-overload]
                                           err.read_text(errors="replace"))
