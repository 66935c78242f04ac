"""The processes of a job pool (`kakuro.compare.runners.JobPool`): one spawner, and the
workers it forks, each with a channel of its own to the pool's owner.

The spawner is forked from the pool's owner. It imports the `--import` modules and warms every
backend up once (`kakuro.compare.worker.prepare`), telling the owner which backend it is at
before each, so that a warm-up that ends the process or hangs is known by name (the owner
itself never runs a backend's code); then it forks warm workers on request. Each worker gets a
stream socket of its own to the owner (its other end passed to the owner over the spawner's
socket): no lock and no pipe is shared by two workers, so a worker killed at any moment harms
no other and no job is lost with it.

The spawner is the workers' parent and a subreaper: it reports each worker's exit status to the
owner, and kills every other process that comes to it, which are the orphans of a worker that
ended (even one that started a session of its own or daemonised). It leads a process group of
its own and ignores the signals that would end it (`IGNORED_SIGNALS`): a backend that signals its
parent, or its parent's group, reaches the spawner, never the harness. Workers lead process
groups of their own, are subreapers too (what a job leaves behind is killed when it ends:
`kakuro.isolation.kill_descendants`), ignore SIGINT (Ctrl-C is the owner's to handle) and die
with the spawner, which dies with the owner's thread that forked it (Linux).

A frame on a worker's channel is 8 bytes of length (big-endian), then a pickle. The owner
sends a task `(function, argument)`; the worker answers `("start", monotonic_ns,
resident_bytes)` when it starts it, then `("reply", value)` or `("error", text)`.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import socket
import struct
import time
from typing import Any

from kakuro.compare.watch import resident_bytes
from kakuro.compare.worker import WorkerConfig, described, prepare
from kakuro.isolation import become_subreaper, fork_process, kill_descendants, kill_tree

try:  # POSIX only
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]

IGNORED_SIGNALS = tuple(getattr(signal, name) for name in (
    "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGPIPE", "SIGTSTP", "SIGTTIN",
    "SIGTTOU") if hasattr(signal, name))
"""Signals the spawner ignores (SIGKILL and SIGSTOP cannot be: the owner sees the first and
undoes the second)."""
LOOK_EVERY = 0.05
"""Seconds between two looks of the spawner for ended workers and for orphans to kill."""
HEADER = struct.Struct(">Q")
"""A frame's length."""
MESSAGE_BYTES = 1 << 16
"""Bytes of a message from the spawner at the most (a backend's name, a pid, an exit status)."""


class Spawner:
    """The owner's handle on a spawner process (see the module docstring), forked from the
    calling thread, which it dies with."""

    def __init__(self, config: WorkerConfig) -> None:
        import psutil

        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        owner = os.getpid()
        self.pid = fork_process(lambda: _spawner_main(config, theirs, (mine,), owner))
        theirs.close()
        mine.setblocking(False)
        self.socket = mine
        self.exitcode: int | None = None
        self.process: Any = None
        with contextlib.suppress(psutil.Error):
            self.process = psutil.Process(self.pid)

    def request_worker(self) -> None:
        """Ask for one more worker; it comes as a `("spawned", pid, socket)` message."""
        with contextlib.suppress(OSError):  # a spawner that is gone: the owner sees it end
            self.socket.send(b"spawn")

    def messages(self) -> list[tuple[Any, ...]]:
        """What the spawner said since the last call: `("warming", spec)` ("" for the
        `--import` modules), `("ready",)`, `("spawned", pid, socket)` and `("exited", pid,
        exit code)` (minus the signal that ended it)."""
        found: list[tuple[Any, ...]] = []
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.socket, MESSAGE_BYTES, 1)
            except OSError:  # nothing more now (BlockingIOError), or the spawner is gone
                return found
            if not data:
                return found
            message = tuple(pickle.loads(data))
            if fds:
                message = (*message, socket.socket(fileno=fds[0]))
            found.append(message)

    def ended(self) -> bool:
        """True once the spawner process has ended (it is reaped; `exitcode` says how)."""
        if self.exitcode is not None:
            return True
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            self.exitcode = -signal.SIGKILL
            return True
        if pid == 0:
            return False
        self.exitcode = os.waitstatus_to_exitcode(status)
        return True

    def kill(self) -> None:
        """Kill the spawner, its workers and every process below them, and reap it."""
        if self.process is not None:
            kill_tree(self.process)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        if self.exitcode is None:
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(self.pid, 0)
                self.exitcode = os.waitstatus_to_exitcode(status)
        self.socket.close()


class Channel:
    """The owner's end of a worker's socket: frames out and in, never blocking."""

    def __init__(self, sock: socket.socket) -> None:
        sock.setblocking(False)
        self._socket = sock
        self._inbox = bytearray()
        self._outbox = bytearray()
        self.closed = False
        """True once the worker's end is closed (it ended) or the socket failed."""

    def fileno(self) -> int:
        return self._socket.fileno()

    def send(self, message: Any) -> None:
        """Queue `message` (pickled here: raises what pickling raises) and send what the
        socket takes now; `flush` sends the rest when it can."""
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        self._outbox += HEADER.pack(len(data)) + data
        self.flush()

    def sending(self) -> bool:
        """True while part of a message waits to be sent."""
        return bool(self._outbox) and not self.closed

    def flush(self) -> None:
        while self._outbox and not self.closed:
            try:
                sent = self._socket.send(self._outbox)
            except BlockingIOError:
                return
            except OSError:
                self.closed = True
                return
            del self._outbox[:sent]

    def receive(self) -> list[Any]:
        """The messages that have come in full since the last call. A message that cannot be
        unpickled is `("error", why)`."""
        while not self.closed:
            try:
                data = self._socket.recv(1 << 20)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.closed = True
                break
            self._inbox += data
        messages = []
        while len(self._inbox) >= HEADER.size:
            (length,) = HEADER.unpack_from(self._inbox)
            if len(self._inbox) < HEADER.size + length:
                break
            payload = bytes(self._inbox[HEADER.size:HEADER.size + length])
            del self._inbox[:HEADER.size + length]
            try:
                messages.append(pickle.loads(payload))
            except Exception as exc:
                messages.append(("error", f"its answer could not be read: {described(exc)}"))
        return messages

    def close(self) -> None:
        self.closed = True
        self._socket.close()


def _spawner_main(config: WorkerConfig, sock: socket.socket, unused: tuple[socket.socket, ...], owner: int) -> None:
    """The spawner process: set up, warm up, then fork workers until the owner is gone."""
    for other in unused:
        other.close()
    _lead_own_group()
    become_subreaper()
    for signum in IGNORED_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # backends' chatter must not reach the owner's output
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    if resource is not None:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash must not dump GBs
    prepare(config, lambda spec: _tell(sock, ("warming", spec)))
    _tell(sock, ("ready",))
    sock.setblocking(False)
    workers: set[int] = set()
    swept = 0.0
    requests = select.poll()  # not select(): the socket may be numbered past FD_SETSIZE
    requests.register(sock, select.POLLIN)
    while os.getppid() == owner:
        requests.poll(LOOK_EVERY * 1000)
        for _ in range(_requests(sock)):
            workers.add(_fork_worker(sock))
        ended = _reap(workers)
        if ended or time.monotonic() - swept > 1.0:
            _kill_strays(workers)  # before the owner hears of the end: its orphans are gone then
            swept = time.monotonic()
        for pid, exitcode in ended:
            _tell(sock, ("exited", pid, exitcode))


def _fork_worker(sock: socket.socket) -> int:
    """Fork a worker with a socket of its own; pass the other end to the owner."""
    mine, theirs = socket.socketpair()
    pid = fork_process(lambda: _worker_main(theirs, (sock, mine)))
    theirs.close()
    socket.send_fds(sock, [pickle.dumps(("spawned", pid))], [mine.fileno()])
    mine.close()
    return pid


def _worker_main(channel: socket.socket, unused: tuple[socket.socket, ...]) -> None:
    for other in unused:
        other.close()
    _lead_own_group()
    become_subreaper()
    for signum in IGNORED_SIGNALS:
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # as Python has it: a closed socket is an exception
    serve(channel)


def serve(channel: socket.socket) -> None:
    """A worker's loop: run each task the owner sends, one at a time, killing whatever it left
    behind when it ends, until the channel closes."""
    while True:
        task = _read_frame(channel)
        if task is None:
            return
        message: tuple[Any, ...]
        try:
            function, argument = pickle.loads(task)
            _write_frame(channel, ("start", time.monotonic_ns(), resident_bytes()))
            message = ("reply", function(argument))
        except BaseException as exc:  # the harness's own functions never raise: a fault to report
            message = ("error", described(exc))
        kill_descendants()
        try:
            _write_frame(channel, message)
        except (pickle.PicklingError, TypeError, AttributeError, ValueError) as exc:
            _write_frame(channel, ("error", f"its answer could not be sent: {described(exc)}"))


def _read_frame(channel: socket.socket) -> bytes | None:
    header = _read_exactly(channel, HEADER.size)
    if header is None:
        return None
    return _read_exactly(channel, HEADER.unpack(header)[0])


def _read_exactly(channel: socket.socket, size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = channel.recv(min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _write_frame(channel: socket.socket, message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    channel.sendall(HEADER.pack(len(data)) + data)


def _requests(sock: socket.socket) -> int:
    """How many workers the owner asked for since the last look."""
    count = 0
    while True:
        try:
            request = sock.recv(64)
        except OSError:  # none left (BlockingIOError), or the owner is gone
            return count
        if not request:
            return count
        count += request == b"spawn"


def _tell(sock: socket.socket, message: tuple[Any, ...]) -> None:
    """Send one message to the owner, waiting while its socket is full."""
    data = pickle.dumps(message)
    room = select.poll()
    room.register(sock, select.POLLOUT)
    while True:
        try:
            sock.send(data)
            return
        except BlockingIOError:
            room.poll(LOOK_EVERY * 1000)


def _lead_own_group() -> None:
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)


def _reap(workers: set[int]) -> list[tuple[int, int]]:
    """Reap every child that has ended; the workers among them, with their exit status (no
    longer in `workers`)."""
    ended: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ended
        if pid == 0:
            return ended
        if pid in workers:
            workers.discard(pid)
            ended.append((pid, os.waitstatus_to_exitcode(status)))


def _kill_strays(workers: set[int]) -> None:
    """Kill every child of the spawner that is not a worker: the orphans of ended workers."""
    import psutil

    try:
        children = psutil.Process().children()
    except psutil.Error:
        return
    for child in children:
        if child.pid not in workers:
            kill_tree(child)
