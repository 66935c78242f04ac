"""Solvers that are programs: finding an executable (`Program`, an `Engine` whose availability
is that of a command rather than of a Python package) and running one under a deadline
(`run_program`), for the backends that hand a file to an external solver (`dimacs`,
`minizinc`).

`run_program` runs the program under a supervisor (`supervise`): a small forked child of
kakuro in a session of its own (a terminal's Ctrl-C reaches kakuro only, which then stops it), a
child subreaper (every process the program starts stays below it, even one that starts a
session of its own or daemonises) that Linux signals when kakuro dies, however it dies. The
supervisor waits for the program and then kills everything it left (`sweep`: a
daemon it started goes too, at the end of a normal run); kakuro stops it (and so the whole tree)
at the deadline, on Ctrl-C (KeyboardInterrupt while it waits) or on any other exception, and
SIGTERM, SIGHUP or SIGKILL of kakuro ends the tree the same way. kakuro reads the program's
stdout and stderr as they come. Its output is bounded: stdout lines that the caller wants
(`keep`, decided on the first bytes of the line) are kept up to `KEEP_BYTES`; of the rest, and
of stderr, only the last `TAIL_BYTES` are kept, for the error message. A solver that prints
megabytes of chatter costs no memory. (Before issue 40, a program's children outlived a
`timeout`, SIGTERM, SIGHUP or SIGKILL of kakuro, and daemonised ones even a normal solve.)
wt-pool's `kakuro.isolation` kills a compare job's tree with the same means (a subreaper that
sweeps its descendants).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from kakuro.availability import Engine
from kakuro.clock import Deadline
from kakuro.errors import BackendUnavailableError
from kakuro.isolation import become_subreaper, collect, die_with_parent, discard, fork_child, kill_descendants

KEEP_BYTES = 64 << 20
"""Most bytes of wanted stdout lines kept (a model's `v` lines, MiniZinc's JSON messages):
a CNF of a 900x900 grid has about 10^7 variables, 100 MB of `v` lines; every shared
puzzle's fits in 1 MB."""
TAIL_BYTES = 4096
"""Bytes kept of the end of the rest of stdout and of stderr."""
PREFIX_BYTES = 64
"""A line is kept or not on its first bytes (or all of it when shorter)."""
LINGER = 0.5
"""Seconds the pipes are still read after the program and its descendants were killed (one the
supervisor could not kill may hold them)."""
CHUNK = 1 << 16


@dataclass
class ProgramRun:
    """What a program did: its exit code (minus the signal that ended it; None when it was
    killed at the deadline), the stdout lines kept, the ends of the rest."""

    argv: list[str]
    returncode: int | None
    kept: list[str] = field(default_factory=list)
    stdout_tail: str = ""
    stderr_tail: str = ""
    timed_out: bool = False
    overflow: bool = False
    """True when wanted lines passed `KEEP_BYTES`: those after it were dropped."""

    def said(self) -> str:
        """The last non-empty line it printed on stderr, else on stdout (outside the kept
        lines): the likeliest reason it failed, cut to 200 characters ("" when silent)."""
        for text in (self.stderr_tail, self.stdout_tail):
            lines = [line.strip() for line in text.splitlines() if line.strip()]
            if lines:
                return lines[-1][:200]
        return ""

    def said_suffix(self) -> str:
        """": " and `said()`, to end a message with what it printed ("" when silent)."""
        said = self.said()
        return f": {said}" if said else ""

    def ended(self) -> str:
        """How it ended, in words: "exit code 3", "killed by signal SIGSEGV"."""
        code = self.returncode
        if code is None:
            return "killed at the time limit"
        if code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"


class _Stream:
    """One pipe's bytes cut into lines: lines starting with one of `keep` kept whole (up to the
    shared budget), the rest rolled into a bounded tail. Unwanted lines are skipped in bulk (a
    regular expression finds the next wanted line), so ten million lines of chatter cost
    about a second."""

    def __init__(self, keep: tuple[bytes, ...], budget: list[int]) -> None:
        self.keep = keep
        self.pattern = re.compile(b"(?m)^(?:" + b"|".join(re.escape(k) for k in keep) + b")") if keep else None
        self.budget = budget  # one mutable cell shared by both streams
        self.kept: list[bytes] = []
        self.partial = bytearray()
        self.wanted: bool | None = None  # of the line being read, once decided; None: at a line start
        self.open = False  # within a line
        self.tail = bytearray()
        self.overflow = False

    def feed(self, data: bytes) -> None:
        start, size = 0, len(data)
        while start < size:
            if self.open:
                end = data.find(b"\n", start)
                self._add(data[start:] if end < 0 else data[start:end])
                if end < 0:
                    return
                self._finish()
                start = end + 1
                continue
            found = self.pattern.search(data, start) if self.pattern is not None and not self.overflow else None
            if found is None:  # no wanted line starts in the rest: roll it, but a line cut at the end may be one
                last = data.rfind(b"\n", start)
                if last >= 0:
                    self._roll(data[start : last + 1])
                    start = last + 1
                if start < size:
                    self.open = True
                continue
            self._roll(data[start : found.start()])
            start = found.start()
            self.open = True

    def _add(self, piece: bytes) -> None:
        if self.wanted is None:
            self.partial += piece
            if len(self.partial) >= PREFIX_BYTES:
                self._decide()
            return
        if self.wanted:
            if len(piece) > self.budget[0]:
                self._overflow()
                self._roll(piece)
                return
            self.budget[0] -= len(piece)
            self.partial += piece
        else:
            self._roll(piece)

    def _decide(self) -> None:
        self.wanted = not self.overflow and bytes(self.partial).startswith(self.keep) if self.keep else False
        if self.wanted and len(self.partial) > self.budget[0]:
            self._overflow()
        elif self.wanted:
            self.budget[0] -= len(self.partial)
            return
        self._roll(bytes(self.partial))
        self.partial.clear()

    def _overflow(self) -> None:
        self.overflow = True
        self.wanted = False
        self.budget[0] = 0
        self.partial.clear()

    def _roll(self, piece: bytes) -> None:
        self.tail += piece[-TAIL_BYTES:]
        del self.tail[:-TAIL_BYTES]

    def _finish(self) -> None:
        if self.wanted is None:
            self._decide()
        if self.wanted:
            self.kept.append(bytes(self.partial))
        else:
            self._roll(b"\n")
        self.partial.clear()
        self.wanted = None
        self.open = False

    def close(self) -> None:
        if self.open:
            self._finish()


def run_program(argv: Sequence[str], deadline: Deadline, *, keep: tuple[bytes, ...] = (),
                keep_bytes: int = KEEP_BYTES) -> ProgramRun:
    """Run `argv` under a `supervise` child until it exits or `deadline` passes (it is killed
    then: `timed_out`), its stdout lines that start with one of `keep` kept (up to `keep_bytes`
    in all), the ends of the rest. Raises BackendUnavailableError when it cannot be started. It
    ends with every descendant it started killed; on any exception here (KeyboardInterrupt
    included) they are all killed before the exception goes on."""
    import psutil  # noqa: F401  (imported once here, not in every supervisor)

    argv = list(argv)
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    try:
        supervisor = fork_child(supervise, (argv, out_w, err_w, (out_r, err_r)))
    except BaseException:
        os.close(out_r)
        os.close(err_r)
        raise
    finally:
        os.close(out_w)
        os.close(err_w)
    budget = [keep_bytes]
    out, err = _Stream(keep, budget), _Stream((), budget)
    collected, code = False, None
    try:
        if _pump(supervisor[0], {out_r: out, err_r: err}, deadline):
            collected = True  # collect reaps it, whatever it finds
            _, code = collect(supervisor, Deadline.after(STOP_SECONDS))
    finally:
        if not collected:
            stop_supervisor(supervisor)
        os.close(out_r)
        os.close(err_r)
    out.close()
    err.close()
    return ProgramRun(
        argv, code,
        [line.decode("utf-8", "replace").rstrip("\r") for line in out.kept],
        out.tail.decode("utf-8", "replace"), err.tail.decode("utf-8", "replace"),
        not collected, out.overflow,
    )


def _pump(receiver: Connection, streams: dict[int, _Stream], deadline: Deadline) -> bool:
    """Read both pipes into their streams until the supervisor has answered (the program ended
    and everything it started is dead) and the pipes are closed, or `LINGER` seconds after the
    answer: True; False when `deadline` passes before the answer."""
    selector = selectors.DefaultSelector()
    answered: float | None = None
    try:
        for fd in streams:
            selector.register(fd, selectors.EVENT_READ)
        selector.register(receiver, selectors.EVENT_READ)
        while selector.get_map():
            remaining = deadline.remaining()
            if answered is None and remaining is not None and remaining <= 0:
                return False
            if answered is not None and time.perf_counter() - answered > LINGER:
                break  # something the supervisor could not kill holds a pipe
            wait = 0.25 if remaining is None or answered is not None else min(remaining, 0.25)
            for key, _ in selector.select(wait):
                if key.fileobj is receiver:
                    selector.unregister(receiver)
                    answered = time.perf_counter()
                    continue
                data = os.read(key.fd, CHUNK)
                if data:
                    streams[key.fd].feed(data)
                else:
                    selector.unregister(key.fileobj)
        return True
    finally:
        selector.close()


# ----------------------------------------------------------------------- a program's whole tree
STOP_SECONDS = 2.0
"""How long kakuro waits for a supervisor told to stop (it kills the tree and exits in
milliseconds) before it kills the supervisor itself."""


class _Stop(BaseException):
    """Raised in a supervisor by SIGTERM or SIGHUP: kakuro stopped it, or died."""


def _stop(signum: int, frame: object) -> None:
    raise _Stop


def supervise(argv: list[str], stdout: int, stderr: int, close: tuple[int, ...]) -> int:
    """The supervisor of one program run, in a forked child of kakuro (`fork_child`): in a
    session of its own (a terminal's Ctrl-C reaches kakuro only, which stops it), a child
    subreaper (every descendant of the program stays below it, even one that starts a session of
    its own or daemonises), sent SIGTERM by Linux when kakuro dies, however it dies (SIGKILL
    included). Runs `argv` with `stdout` and `stderr` as its outputs (`close`: kakuro's ends of
    the pipes), waits for it, and returns its exit code (minus the signal that ended it) once
    `sweep` has killed everything it left; on SIGTERM or SIGHUP (kakuro stopped it,
    or died) kills them all and ends. BackendUnavailableError when the program cannot start."""
    parent = os.getppid()
    for fd in close:
        os.close(fd)
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _stop)
    die_with_parent(parent, signal.SIGTERM)
    become_subreaper()
    try:
        try:
            program = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                       preexec_fn=die_with_parent)  # the program dies with this supervisor
        except OSError as exc:
            raise BackendUnavailableError(f"cannot run {shlex.join(argv)}: {exc.strerror or exc}") from None
        os.close(stdout)
        os.close(stderr)
        while True:  # orphans come here too: reaped as they end
            pid, status = os.waitpid(-1, 0)
            if pid == program.pid:
                program.returncode = os.waitstatus_to_exitcode(status)
                return program.returncode
    finally:
        sweep()


def sweep() -> None:
    """The end of a supervisor (`supervise`): every descendant killed and reaped
    (`kakuro.isolation.kill_descendants`: a subreaper's descendants all stay below it), with the
    signals that would stop the sweep ignored from here on."""
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    kill_descendants()


def stop_supervisor(supervisor: tuple[Connection, int]) -> None:
    """Stop a `supervise` child (SIGTERM: it kills the program and every descendant, then ends),
    wait for it up to STOP_SECONDS, kill it if it is still there, and reap it. Nothing when it
    has already been collected."""
    receiver, pid = supervisor
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    end = time.perf_counter() + STOP_SECONDS
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(pid, os.WNOHANG)[0] == 0 and time.perf_counter() < end:
            time.sleep(0.005)
    discard(supervisor)


# ----------------------------------------------------------------------- finding programs
def command(cmd: str) -> list[str]:
    """The argv prefix `cmd` names: a path or a name on PATH as it is (spaces and all), else
    a command line (`kissat -q`, `"/opt/my solver/kissat" --sat`) split as a shell would. Raises
    BackendUnavailableError, in one line, when the program does not exist or is not executable."""
    if not cmd.strip():
        raise BackendUnavailableError("no command given")
    whole = _executable(cmd)
    if whole is not None:
        return [whole]
    try:
        words = shlex.split(cmd)
    except ValueError as exc:
        raise BackendUnavailableError(f"cannot read the command {cmd!r}: {exc}") from None
    if not words:
        raise BackendUnavailableError("no command given")
    found = _executable(words[0])
    if found is None:
        path = os.path.expanduser(words[0])
        if os.sep in words[0] and os.path.exists(path):
            what = "is a directory" if os.path.isdir(path) else "is not executable (chmod +x it)"
            raise BackendUnavailableError(f"{words[0]} {what}")
        where = "does not exist" if os.sep in words[0] else "is not on PATH"
        raise BackendUnavailableError(f"{words[0]} {where}")
    return [found, *words[1:]]


def _executable(name: str) -> str | None:
    """The absolute path of program `name` (a path, or a name looked up on PATH), or None."""
    path = os.path.expanduser(name)
    if os.sep in name:
        return os.path.abspath(path) if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(name)


@dataclass(frozen=True)
class Program(Engine):
    """An `Engine` that is a program: available when one of `candidates` (command lines, tried
    in order) names an executable. `module` and `pip` label it (the compare harness records
    "{pip} {version}"); `install` says how to get one. The version is the first line that
    `version_args` print (when given), else the program's path."""

    candidates: tuple[str, ...] = ()
    install: str = ""
    version_args: tuple[str, ...] = ()

    def command(self) -> list[str]:
        """The argv prefix of the first candidate found; BackendUnavailableError when none is."""
        reasons = []
        for candidate in self.candidates:
            try:
                return command(candidate)
            except BackendUnavailableError as exc:
                reasons.append(str(exc))
        if len(self.candidates) == 1:
            raise BackendUnavailableError(f"{reasons[0]}{'; ' + self.install if self.install else ''}")
        raise BackendUnavailableError(
            f"none of {', '.join(self.candidates)} is on PATH{'; ' + self.install if self.install else ''}")

    def version(self) -> str:
        argv = self.command()
        if not self.version_args:
            return shlex.join(argv)
        return _version(tuple(argv), self.version_args, modified(argv[0]))


def modified(path: str) -> float:
    """The modification time of the program at `path` (0 when it cannot be read): what a cache
    of its answers is keyed on, so that an upgrade is noticed."""
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


@functools.cache
def _version(argv: tuple[str, ...], args: tuple[str, ...], stamp: float) -> str:
    """The version line a program prints (cached per program and modification time `stamp`;
    a failure is not cached)."""
    run = run_program([*argv, *args], Deadline.after(VERSION_SECONDS), keep=(b"",), keep_bytes=1 << 16)
    if run.timed_out or run.returncode != 0:
        raise BackendUnavailableError(f"{shlex.join([*argv, *args])} failed ({run.ended()}){run.said_suffix()}")
    return parse_version(run.kept)


def parse_version(lines: Sequence[str]) -> str:
    """The version number in a program's --version text (its first dotted number), else its
    first line."""
    for line in lines:
        found = re.search(r"\b\d+\.\d+(\.\d+)*\b", line)
        if found:
            return found.group(0)
    return next((line.strip() for line in lines if line.strip()), "unknown")[:80]


VERSION_SECONDS = 5.0
"""How long a program may take to print its version."""
