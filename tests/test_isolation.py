"""kakuro.isolation: a function run in a child process that is killed at a deadline."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kakuro.clock import Deadline
from kakuro.isolation import (
    ChildProcessFailed,
    DeadlineReached,
    call_with_deadline,
    collect,
    fork_child,
    fork_process,
    kill_tree,
    stream_with_deadline,
)
from tests.backend_checks import as_from_a_terminal
from tests.conftest import ROOT, tree_env
from tests.timing import timed

# With the parallel tests: SIGALRM goes to this process alone, every child is this process's own
# (killed by its id, or in a tree below it), and what is checked is an answer, an exception, or that
# what was killed is gone; the one bound on seconds past a deadline is `timed`.


def spin() -> None:
    while True:
        pass


def three_then_spin() -> Iterator[int]:
    yield from (1, 2, 3)
    spin()


def fail() -> None:
    raise ValueError("bad input in the child")


def crash() -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # as the kernel does when memory runs out


def test_returns_the_value_and_leaves_no_child() -> None:
    assert call_with_deadline(pow, 2, 10, deadline=Deadline.after(5)) == 1024
    child = call_with_deadline(os.getpid, deadline=Deadline.after(5))
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # already reaped: no zombie left


def test_a_child_leaves_the_parents_objects_to_the_parent() -> None:
    """A forked child starts with every object it inherited frozen out of the garbage collector
    (its collections would walk them all and copy the parent's memory); the parent's own
    collector is untouched."""
    import gc

    inherited = ["a list the parent made before the fork"]

    def collected() -> bool:
        """Whether the collector of this process walks `inherited`."""
        return any(obj is inherited for obj in gc.get_objects())

    assert collected() and gc.get_freeze_count() == 0
    assert call_with_deadline(collected, deadline=Deadline.after(5)) is False
    pid = fork_process(lambda: os._exit(3 if collected() else 0))
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    assert collected() and gc.get_freeze_count() == 0


def test_without_a_deadline_a_child_runs_and_ctrl_c_kills_it(tmp_path: Path) -> None:
    """An engine in C or Java ignores Ctrl-C; the parent, waiting, gets it and kills the child."""
    assert call_with_deadline(pow, 2, 10, deadline=Deadline()) == 1024
    assert call_with_deadline(os.getpid, deadline=Deadline()) != os.getpid()
    assert stream_with_deadline(range, 2, deadline=Deadline()) == ([0, 1], True)
    pid_file = tmp_path / "pid"

    def record_then_spin() -> None:
        pid_file.write_text(str(os.getpid()))
        spin()

    def ctrl_c(*_: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, ctrl_c)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(KeyboardInterrupt):
            call_with_deadline(record_then_spin, deadline=Deadline())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    with pytest.raises(ProcessLookupError):  # killed and reaped
        os.kill(int(pid_file.read_text()), 0)


@pytest.mark.timed  # a bound on wall time past a deadline
def test_kills_at_the_deadline() -> None:
    with timed() as t, pytest.raises(DeadlineReached):
        call_with_deadline(spin, deadline=Deadline.after(0.3))
    assert t.quiet(t.wall - 0.3) < 0.7, t


def test_streamed_items_survive_the_kill() -> None:
    items, finished = stream_with_deadline(three_then_spin, deadline=Deadline.after(0.3))
    assert (items, finished) == ([1, 2, 3], False)
    assert stream_with_deadline(range, 4, deadline=Deadline.after(5)) == ([0, 1, 2, 3], True)


def test_items_sent_before_the_kill_survive_a_late_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault injection: the parent is scheduled only after the deadline (a loaded machine), by
    which time the child has sent its items; they are still read, not lost with the child."""
    import kakuro.isolation

    def late_wait(connections: list, timeout: float | None) -> list:
        time.sleep((timeout or 0) + 0.5)
        return []

    monkeypatch.setattr(kakuro.isolation, "wait", late_wait)
    items, finished = stream_with_deadline(three_then_spin, deadline=Deadline.after(0.3))
    assert (items, finished) == ([1, 2, 3], False)
    assert call_with_deadline(pow, 2, 10, deadline=Deadline.after(0.3)) == 1024  # answered in time, read late
    answered = fork_child(pow, (2, 10))
    time.sleep(0.3)  # it has answered and exited; a deadline already past still reads the answer
    assert collect(answered, Deadline(time.perf_counter())) == (True, 1024)
    assert collect(fork_child(spin, ()), Deadline.after(0.3)) == (False, None)


def test_exceptions_and_crashes_reach_the_parent() -> None:
    with pytest.raises(ValueError, match="bad input in the child"):
        call_with_deadline(fail, deadline=Deadline.after(5))
    with pytest.raises(ChildProcessFailed, match="SIGKILL"):
        call_with_deadline(crash, deadline=Deadline.after(5))


def run_script(script: str, how: str) -> subprocess.CompletedProcess[str]:
    """`python -c SCRIPT HOW` from the root, with SIGINT at its default as from a terminal (a
    suite started in the background would have it ignored)."""
    return subprocess.run([sys.executable, "-c", script, how], cwd=ROOT, env=tree_env(), capture_output=True, text=True,
                          timeout=60, preexec_fn=as_from_a_terminal)


FINALIZER_SIGINT = """
import os, signal, sys
from kakuro.isolation import interrupts_kept

class Handle:  # an engine's wrapper object: its finalizer runs whenever the last reference goes
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C lands while the finalizer runs
        sum(range(1000))  # where Python raises it: inside __del__, so it is printed and dropped

def work():
    Handle()  # dropped at once: the SIGINT lands in its finalizer
    return "finished"

if sys.argv[1] == "kept":
    try:
        with interrupts_kept() as check:
            work()
            check()
            print("not interrupted")
    except KeyboardInterrupt:
        print("interrupted")
else:
    print(work())
"""


@pytest.mark.parametrize("how, printed", [("plain", "finished"), ("kept", "interrupted")])
def test_a_ctrl_c_that_lands_in_a_finalizer_is_kept(how: str, printed: str) -> None:
    """A SIGINT that lands in a `__del__` is printed and dropped by Python (plain: the work goes
    on); inside `interrupts_kept` it stops the work at the next `check` (choco builds its model so:
    the Ctrl-C test lost one that way), and Python's print of it is left out."""
    done = run_script(FINALIZER_SIGINT, how)
    assert done.stdout.strip() == printed, (done.stdout, done.stderr)
    if how == "plain":  # Python's "Exception ignored in ... __del__": the signal landed in the finalizer
        assert "KeyboardInterrupt" in done.stderr
    else:  # kept and raised again: no traceback for the user (the command line prints one line)
        assert done.stderr == ""


ENGINE_AFTER_A_DROPPED_SIGINT = """
import os, signal, sys, threading, time
import kakuro
from kakuro.isolation import call_interruptibly

class Handle:  # an engine's wrapper object, as in FINALIZER_SIGINT
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        sum(range(1000))

stopped = threading.Event()

def engine():  # a solve in C++ that runs until stopped, or 3 s
    stopped.wait(3)
    return "stopped" if stopped.is_set() else "ran to its end"

class Finalizing(kakuro.Solver):  # builds its model (dropping a Ctrl-C), then solves in an engine
    name = "finalizing"
    complete = True

    def _solve(self, puzzle, opts, limits, seed):
        Handle()
        print(call_interruptibly(engine, stopped.set, limits.deadline), flush=True)
        return kakuro.Outcome(kakuro.Status.UNKNOWN, None, {}, "")

start = time.perf_counter()
try:
    if sys.argv[1] == "solver":
        Finalizing().solve(kakuro.Puzzle.all_white([3, 3], [3, 3], values=(1, 2)), time_limit=30)
    elif sys.argv[1] == "child":  # the engine in a forked child; the Ctrl-C dropped once it runs
        from kakuro.clock import Deadline
        from kakuro.isolation import collect, fork_child, interrupts_kept
        with interrupts_kept():
            child = fork_child(engine, ())
            Handle()
            print(collect(child, Deadline())[1], flush=True)
    else:
        Handle()
        print(call_interruptibly(engine, stopped.set), flush=True)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted", f"{time.perf_counter() - start:.1f}")
"""


@pytest.mark.parametrize("how, printed", [("plain", "ran to its end\nnot interrupted"),
                                          ("solver", "interrupted"), ("child", "interrupted")])
def test_an_engine_call_after_a_dropped_ctrl_c_is_stopped(how: str, printed: str) -> None:
    """A backend's model building drops a Ctrl-C in a finalizer, then it solves in an engine that
    holds its thread (`call_interruptibly`): alone, the engine runs to its end; inside
    `Solver.solve` (its `interrupts_kept` block) the engine is not started (or stopped within a
    slice) and the solve ends in KeyboardInterrupt. So too for an engine in a forked child whose
    parent drops the Ctrl-C after the fork: the parent's wait for it looks every slice (it
    waited for the child's answer, without a limit as long as the search)."""
    done = run_script(ENGINE_AFTER_A_DROPPED_SIGINT, how)
    lines = done.stdout.strip()
    assert lines.startswith(printed), (done.stdout, done.stderr)
    if how != "plain":
        assert float(lines.split()[-1]) < 2.0, lines  # not after the engine's 3 s


CTRL_C_WHILE_FORKING = """
import os, signal, sys, time
import psutil
from kakuro.isolation import fork_child, fork_process

real_fork = os.fork

def fork_then_ctrl_c():  # the Ctrl-C lands in the parent the moment the child exists
    pid = real_fork()
    if pid:
        os.kill(os.getpid(), signal.SIGINT)
    return pid

os.fork = fork_then_ctrl_c
try:
    if sys.argv[1] == "fork_child":
        fork_child(time.sleep, (60,))
    else:
        fork_process(lambda: time.sleep(60))
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted", len(psutil.Process().children()))
"""


@pytest.mark.parametrize("how", ["fork_child", "fork_process"])
def test_a_ctrl_c_while_forking_leaves_no_child(how: str) -> None:
    """A Ctrl-C between the fork and the moment the caller holds the child's pid raised
    KeyboardInterrupt with a child that nobody knew of still running (a minute of a grounding,
    say, in a notebook that goes on); now the fork holds SIGINT until the child is known, then
    kills and reaps it before the interrupt goes on."""
    done = run_script(CTRL_C_WHILE_FORKING, how)
    assert done.stdout.split() == ["interrupted", "0"], (done.stdout, done.stderr)


TREE = """
import os, subprocess, time
from kakuro.isolation import become_subreaper
become_subreaper()
subprocess.Popen(["sleep", "300"], start_new_session=True)
subprocess.Popen(["sh", "-c", "sleep 300 & sleep 300"])
first = os.fork()
if first == 0:  # a daemon: its own session, its parent gone
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "300"])
    os._exit(0)
os.waitpid(first, 0)
print("ready", flush=True)
time.sleep(300)
"""


def test_kill_tree_kills_a_whole_tree_even_a_daemon_below_a_subreaper() -> None:
    """The one primitive that kills what a job or a program started (`kill_tree`): a child in
    a session of its own, a grandchild, and a daemon whose parent exited (kept in the tree by a
    subreaper above it) all die with the root."""
    import psutil

    root = subprocess.Popen([sys.executable, "-c", TREE], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            start_new_session=True, env=tree_env())
    below: list[int] = []
    try:
        assert root.stdout is not None and root.stdout.readline() == "ready\n"
        tree = psutil.Process(root.pid)
        end = time.monotonic() + 10  # sh starts its two sleeps when it runs: after "ready", on a busy machine
        while len(below := [p.pid for p in tree.children(recursive=True)]) < 5 and time.monotonic() < end:
            time.sleep(0.05)
        assert len(below) >= 5  # sleep, sh with its two sleeps, the daemon (a child of the root now)
        kill_tree(tree)
        root.wait(timeout=10)
        end = time.monotonic() + 5
        while time.monotonic() < end and any(_alive(pid) for pid in below):
            time.sleep(0.05)
        assert [pid for pid in below if _alive(pid)] == []
    finally:
        for pid in [root.pid, *below]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False
