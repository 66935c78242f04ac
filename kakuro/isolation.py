"""The one place that forks, limits and kills a solver's child process: a function run in a
child that is killed at a deadline (or when the parent is interrupted or dies); for an engine
in-process that holds its thread, a call that Ctrl-C and a deadline still stop
(`call_interruptibly`); and killing a whole process tree (`kill_tree`, `kill_descendants`),
frozen first so that nothing escapes, with subreapers (`become_subreaper`) keeping orphans in it.

Some engines ignore every polite way of stopping them (PySAT's `interrupt()` is ignored by
CaDiCaL; python-constraint has no limit at all), so a backend with a time limit runs its
search in a forked child and the parent kills it when the `Deadline` passes. The child is a
plain `os.fork()` (it inherits the parent's memory, so arguments are not pickled; only
results travel back, pickled through a pipe), which also works inside daemonic worker
processes where `multiprocessing` refuses to start children. POSIX only.

Without a deadline (`deadline.end is None`) the function still runs in a child: an engine in C
or Java does not notice Ctrl-C, but the parent does (KeyboardInterrupt while it waits) and kills
the child before the exception goes on.

Measured here (2 cores): a fork + pipe round trip costs about 3 ms per call from a bare
interpreter and about 6 ms from one with OR-Tools, numba and PySAT imported (~150 MB resident);
`multiprocessing` with the fork context took 8 ms and a pebble `concurrent.process` 10 ms.
Every forked child first takes the parent's objects out of the garbage collector's reach
(`gc.freeze`, as Python's documentation advises for fork without exec): a collection in the
child would otherwise walk them all, writing to each one's header and so copying the parent's
memory page by page.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar, cast

from kakuro.clock import Deadline

T = TypeVar("T")
U = TypeVar("U")

ITEM, RETURN, RAISE = "item", "return", "raise"
"""Tags of the (tag, payload) messages a child sends (see `fork_child`)."""
_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


class DeadlineReached(Exception):
    """The deadline passed before the child finished; the child has been killed."""


class ChildProcessFailed(RuntimeError):
    """The child died without an answer (killed by a signal, out of memory, a crash in C).
    `exitcode` is its exit code, or minus the signal that killed it (None when unknown)."""

    def __init__(self, message: str, exitcode: int | None = None) -> None:
        super().__init__(message)
        self.exitcode = exitcode


def call_with_deadline(function: Callable[..., T], *args: Any, deadline: Deadline) -> T:
    """`function(*args)`, run in a child process killed at `deadline`.

    Returns what it returns (it must be picklable); re-raises what it raises. Raises
    `DeadlineReached` when the deadline passes first, `ChildProcessFailed` when the child dies.
    """
    finished, value = collect(fork_child(function, args), deadline)
    if not finished:
        raise DeadlineReached()
    return cast(T, value)


def stream_with_deadline(
    function: Callable[..., Iterable[T]], *args: Any, deadline: Deadline
) -> tuple[list[T], bool]:
    """Collect the items `function(*args)` yields, run in a child process killed at `deadline`.

    Returns `(items, finished)`: every item received (each must be picklable) and whether
    the iteration ended before the deadline. Items found before the kill are kept.
    Re-raises what the function raises; `ChildProcessFailed` when the child dies.
    """
    finished, items, _ = _collect(fork_child(function, args, stream=True), deadline)
    return items, finished


def collect(child: tuple[Connection, int], deadline: Deadline) -> tuple[bool, Any]:
    """What a `fork_child` child (stream=False) returns: (True, its value), or (False, None)
    when `deadline` passes first (it is killed; an answer already sent is still read).
    Re-raises what it raised; `ChildProcessFailed` when it died. It is reaped either way."""
    finished, _, value = _collect(child, deadline)
    return finished, value


def _collect(child: tuple[Connection, int], deadline: Deadline) -> tuple[bool, list[Any], Any]:
    """Read what a `fork_child` child sends until it returns: (True, the items it sent, the
    value it returned). At the deadline it is killed and what it had sent is still read to the
    end: (False, items, None) unless its RETURN was among it. Re-raises what it raised;
    `ChildProcessFailed` when it died. It is closed and reaped in the end. The wait is in slices
    of `WAIT_SLICE`, each ending with a look for a Ctrl-C an `interrupts_kept` block remembered."""
    receiver, pid = child
    items: list[Any] = []
    try:
        while True:
            if deadline.expired():
                reap(pid)  # stopped first, so that what it sent before the kill can be read to the end
                finished, value = _drain(receiver, items)
                return finished, items, value
            ready = wait([receiver], wait_slice(deadline))
            raise_kept_interrupt()
            if not ready:
                continue
            kind, payload = _receive(child)
            if kind == RETURN:
                return True, items, payload
            items.append(payload)
    finally:
        discard(child)


def _receive(child: tuple[Connection, int]) -> tuple[str, Any]:
    """The next (ITEM or RETURN, payload) a `fork_child` child sends, waiting for it.
    Re-raises what the child raised; `ChildProcessFailed` when it died first."""
    receiver, pid = child
    try:
        kind, payload = receiver.recv()
    except EOFError:
        raise _died(pid) from None
    if kind not in (ITEM, RETURN):
        raise payload
    return kind, payload


def discard(child: tuple[Connection, int]) -> None:
    """Kill a `fork_child` child whose answer is no longer wanted; close its pipe, reap it."""
    child[0].close()
    reap(child[1])


def _drain(receiver: Connection, items: list[Any]) -> tuple[bool, Any]:
    """After the deadline, with the child killed: what it had sent that the parent had not
    read yet (a parent that the system scheduled late is not a reason to lose it), appended to
    `items`; (True, the returned value) when its RETURN was among it, else (False, None)."""
    try:
        while receiver.poll(0):
            kind, payload = receiver.recv()
            if kind == ITEM:
                items.append(payload)
            elif kind == RETURN:
                return True, payload
            else:
                break
    except (EOFError, OSError, pickle.UnpicklingError, ValueError):
        pass  # a message cut short by the kill
    return False, None


def _fork(run: Callable[[], int]) -> int:
    """Fork a child that runs `run()` and exits with the code it returns (1 when it raises),
    starting with everything it inherited frozen out of the garbage collector (`gc.freeze`: see
    the module docstring). Returns the child's pid. SIGINT is held while forking: a Ctrl-C in that
    moment raises KeyboardInterrupt here only once the child is known, killed and reaped, so that
    none is left running that its caller never heard of."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    if pid == 0:  # the child: never returns
        code = 1
        try:
            gc.freeze()
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            code = run()
        finally:
            os._exit(code)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a Ctrl-C held meanwhile is raised here
    except BaseException:
        reap(pid)
        raise
    return pid


def fork_child(function: Callable[..., Any], args: tuple[Any, ...], *, stream: bool = False) -> tuple[Connection, int]:
    """Run `function(*args)` in a forked child that dies with its parent. Returns the parent's
    receiving end and the child's pid: the child sends (ITEM, item) per yielded item when
    `stream`, then (RETURN, value) or (RAISE, exception). End with `collect` or `discard`.
    Raises KeyboardInterrupt instead for a Ctrl-C an `interrupts_kept` block remembered (one a
    finalizer may have dropped while the work was prepared)."""
    raise_kept_interrupt()
    read_fd, write_fd = os.pipe()
    try:
        pid = _fork(lambda: _child_main(function, args, read_fd, write_fd, stream))
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    return Connection(read_fd, writable=False), pid


def _child_main(function: Callable[..., Any], args: tuple[Any, ...], read_fd: int, write_fd: int, stream: bool) -> int:
    """`fork_child`'s child: run `function(*args)` and send what it gives on `write_fd`; 0."""
    os.close(read_fd)
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sender = Connection(write_fd, readable=False)
    try:
        result = function(*args)
        if stream:
            for item in result:
                sender.send((ITEM, item))
            result = None
        sender.send((RETURN, result))
    except BaseException as exc:  # reported to the parent, which re-raises it
        sender.send((RAISE, _portable(exc)))
    sender.close()
    return 0


def _portable(exc: BaseException) -> BaseException:
    """`exc` if it survives pickling, else a RuntimeError carrying its traceback text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        text = "".join(traceback.format_exception(exc))
        return RuntimeError(f"{type(exc).__name__} in the solver process: {exc}\n{text}")


def die_with_parent(parent: int | None = None, signum: int = signal.SIGKILL) -> None:
    """Ask Linux to SIGKILL this process (or send it `signum`) when its parent dies (best effort,
    a no-op elsewhere). Linux counts the thread that forked this process as its parent: fork from
    a thread that lives as long as the parent process. With `parent` (the pid this process was
    forked from), a parent that died before the request was made ends this process at once."""
    _prctl(_PR_SET_PDEATHSIG, signum)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # orphaned already: the signal will never come


def become_subreaper() -> bool:
    """Make this process adopt its orphaned descendants (Linux): a process that a child
    leaves behind, even in a session of its own, stays below this one and can be found and
    killed. True when the system agreed."""
    return _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def _prctl(option: int, value: int) -> bool:
    """`prctl(option, value)` through libc; False where there is none (not Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def reap(pid: int) -> None:
    """Kill the child if it still runs, and wait for it (no zombie is left)."""
    try:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    except ChildProcessError:
        pass  # already reaped


MAX_ROUNDS = 100
"""Looks for processes that appear while a tree is being killed (each round freezes what it finds)."""


def fork_process(main: Callable[[], object]) -> int:
    """Fork a child that runs `main()` and then exits (status 0; 1 when `main` raised), and
    dies with this thread (`die_with_parent`); returns its pid. The caller reaps it."""
    parent = os.getpid()

    def run() -> int:
        die_with_parent(parent)
        main()
        return 0

    return _fork(run)


def kill_tree(root: Any) -> None:
    """SIGKILL `root` (a psutil.Process), its process group when it leads one, and every
    process below it. All are frozen (SIGSTOP) first, again and again until no new one
    appears, so that none forks meanwhile; a process that left the tree before (a daemon whose
    parent exited) is below it only when `root` or a process in between is a subreaper
    (`become_subreaper`). A `root` that has ended already only has its group killed."""
    import psutil

    frozen: dict[int, Any] = {}
    for _ in range(MAX_ROUNDS):
        try:
            found = [root, *root.children(recursive=True)]
        except psutil.Error:
            found = []
        new = [proc for proc in found if proc.pid not in frozen and running(proc)]
        if not new:
            break
        for proc in new:
            frozen[proc.pid] = proc
            with contextlib.suppress(psutil.Error):
                proc.suspend()  # psutil checks it is still the process recorded (no reused pid)
    try:  # the root itself, or gone: not a new process that reuses the number (a live group keeps it reserved)
        ours = root.is_running() or not psutil.pid_exists(root.pid)
    except psutil.Error:
        ours = False
    if ours:
        with contextlib.suppress(OSError):
            os.killpg(root.pid, signal.SIGKILL)
    _freeze_and_kill([root, *frozen.values()])


def kill_descendants() -> None:
    """SIGKILL every process below this one (frozen first, so that none forks meanwhile), and
    reap those that were its children. Descendants that were orphaned are found too when this
    process is a subreaper (`become_subreaper`)."""
    import psutil

    try:
        me = psutil.Process()
    except psutil.Error:
        return
    for _ in range(MAX_ROUNDS):
        _reap_children()
        try:
            below = [p for p in me.children(recursive=True) if running(p)]
        except psutil.Error:
            below = []
        if not below:
            return
        _freeze_and_kill(below)
        time.sleep(0.001)


def running(proc: Any) -> bool:
    """True for a psutil.Process that runs (a zombie does not) and is still the one recorded."""
    import psutil

    try:
        return bool(proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE)
    except psutil.Error:
        return False


KILL_WAIT = 5.0
"""Seconds a kill waits at most for the processes it killed to be gone."""


def _freeze_and_kill(procs: list[Any]) -> None:
    """Freeze `procs`, kill them, and wait (up to `KILL_WAIT` s) until none runs any more: a
    process SIGKILLed is still tearing down, its files (a results file's lock among them) still
    open, for a moment after the signal."""
    import psutil

    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.suspend()
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    until = time.monotonic() + KILL_WAIT
    while any(running(proc) for proc in procs) and time.monotonic() < until:
        time.sleep(0.001)


def _reap_children() -> None:
    """Wait for every child of this process that has ended (no zombie stays)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _died(pid: int) -> ChildProcessFailed:
    """The error of a child that closed its pipe without an answer: it is reaped here."""
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return ChildProcessFailed("the solver process died without an answer (exit status unknown)")
    code = os.waitstatus_to_exitcode(status)
    how = f"exit code {code}"
    if code < 0:
        try:
            how = f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            how = f"killed by signal {-code}"
    return ChildProcessFailed(f"the solver process died without an answer ({how})", code)


def race(here: Callable[[], T], there: Callable[[], U], *, stop_here: Callable[[], None],
         here_won: Callable[[T], bool], grace: Callable[[], float]) -> tuple[T, U | None, Exception | None]:
    """`there()` in a forked child and `here()` in this process, side by side, the first answer
    winning. The child calls `stop_here()` once it has its answer, so `stop_here` must reach
    this process (a flag in shared memory) and `here()` must then return. When `here_won(what
    here() returned)` the child is killed; otherwise its answer is awaited `grace()` seconds (asked then).

    Returns (here's value, there's value or None when it did not answer, the exception that kept
    it from answering or None). An exception in `here()` kills the child and goes on."""
    child = fork_child(_answer_then, (there, stop_here))
    try:
        mine = here()
    except BaseException:
        discard(child)
        raise
    if here_won(mine):
        discard(child)
        return mine, None, None
    try:
        answered, theirs = collect(child, Deadline(time.perf_counter() + grace()))
    except Exception as exc:  # the child raised or died: here's answer stands
        return mine, None, exc
    return mine, theirs if answered else None, None


def _answer_then(function: Callable[[], U], then: Callable[[], None]) -> U:
    """`function()`'s value, `then()` called once it is known (in `race`'s child)."""
    value = function()
    then()
    return value


def answers(children: Sequence[tuple[Connection, int]], deadline: Deadline) -> Iterator[tuple[int, Any]]:
    """(index, returned value) of each `fork_child` child (stream=False) as it answers, until all
    have or `deadline` passes. Re-raises what a child raised; `ChildProcessFailed` when one
    died; KeyboardInterrupt for a Ctrl-C an `interrupts_kept` block remembered (looked for every
    `WAIT_SLICE`). The children left when the iteration ends, however it ends, are killed and reaped."""
    waiting = {child[0]: (index, child) for index, child in enumerate(children)}
    try:
        while waiting:
            if deadline.expired():
                return
            ready_now = wait(list(waiting), wait_slice(deadline))
            raise_kept_interrupt()
            for ready in ready_now:
                index, child = waiting.pop(cast(Connection, ready))
                try:
                    kind, payload = _receive(child)
                finally:
                    discard(child)
                if kind == RETURN:
                    yield index, payload
    finally:
        for _, child in waiting.values():
            discard(child)


WAIT_SLICE = 0.05
"""Seconds between two looks of a waiting parent (`call_interruptibly`'s caller, a child's
collector, clingo's waiter) at its signals and its deadline."""


def wait_slice(deadline: Deadline) -> float:
    """Seconds to wait before the next look: `WAIT_SLICE`, or less when `deadline` comes sooner."""
    remaining = deadline.remaining()  # never negative
    return WAIT_SLICE if remaining is None else min(WAIT_SLICE, remaining)


def call_interruptibly(call: Callable[[], T], stop: Callable[[], None], deadline: Deadline = Deadline(),
                       name: str = "engine-call") -> T:
    """`call()`'s value (or what it raised) for an engine that holds the thread it runs in (a
    solve in C++ that does not look at Python's signals): the call runs in a helper thread and
    this one waits in slices of `WAIT_SLICE`, so that signal handlers run. At `deadline`
    `stop()` is called (again each slice until the call returns); whatever the caller's SIGINT
    handler raises (KeyboardInterrupt by default; the handler is never replaced) calls `stop()`
    too, as does one an `interrupts_kept` block remembered, waits for the call to return (a
    second Ctrl-C only calls `stop()` again: an engine is never left running) and goes on. (The
    wait is on an Event: after an interrupted `Thread.join`, Python 3.11 may report a running
    thread as ended.)"""
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the caller's thread below
            outcome["error"] = exc
        finally:
            done.set()

    raise_kept_interrupt()  # a Ctrl-C that a finalizer dropped while the call was prepared
    threading.Thread(target=work, name=name, daemon=True).start()
    try:
        while not done.wait(WAIT_SLICE):
            raise_kept_interrupt()
            if deadline.expired():
                stop()
    except BaseException:
        while not done.is_set():
            stop()
            with contextlib.suppress(KeyboardInterrupt):
                done.wait(WAIT_SLICE)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return cast(T, outcome["value"])


_kept: list[list[int]] = []
"""The SIGINTs remembered by the `interrupts_kept` blocks open in this thread, the outermost
first (a block inside another shares the outer's)."""


def raise_kept_interrupt() -> None:
    """Raise KeyboardInterrupt when the open `interrupts_kept` block remembered a SIGINT (one
    that a finalizer may have dropped); nothing outside such a block."""
    if _kept and _kept[-1]:
        raise KeyboardInterrupt


def _remember(signum: int, frame: Any) -> None:
    if _kept:
        _kept[-1].append(signum)
    raise KeyboardInterrupt


@contextlib.contextmanager
def interrupts_kept() -> Iterator[Callable[[], None]]:
    """Keep Ctrl-C inside the block: Python raises KeyboardInterrupt wherever the signal lands,
    and one that lands in a finalizer (`__del__`, which an engine's wrapper objects run at any
    moment: pychoco's handles, z3's and OR-Tools' objects) is printed and dropped.
    `Solver.solve` and `count_solutions` run every backend inside one. Inside, a SIGINT is also
    remembered; the block gets `check` (`raise_kept_interrupt`), which raises KeyboardInterrupt
    for one remembered, `call_interruptibly` and `fork_child` look too (before an engine starts),
    and leaving the block raises it. A block inside another is the outer one. Only in the main
    thread and where SIGINT has Python's default handler (a worker that ignores it, a caller's
    own handler: left alone; `check` then does nothing)."""
    if _kept and signal.getsignal(signal.SIGINT) is _remember:
        yield raise_kept_interrupt
        return
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield lambda: None
        return
    caught: list[int] = []
    _kept.append(caught)
    signal.signal(signal.SIGINT, _remember)
    hook, sys.unraisablehook = sys.unraisablehook, _quiet_about_kept(sys.unraisablehook)
    try:
        yield raise_kept_interrupt
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = hook
        _kept.pop()
    if caught:
        raise KeyboardInterrupt


def _quiet_about_kept(hook: Callable[[Any], None]) -> Callable[[Any], None]:
    """`sys.unraisablehook` that says nothing of a KeyboardInterrupt dropped in a finalizer (it
    is remembered and raised again: no traceback for the user) and hands anything else to `hook`."""

    def unraisable(info: Any) -> None:
        if not isinstance(info.exc_value, KeyboardInterrupt):
            hook(info)

    return unraisable
