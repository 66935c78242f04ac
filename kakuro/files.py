"""Writing the files a user asks for without ever losing one they already have.

Every output of the toolkit (converted puzzles, generated puzzles, pictures, reports, results
files) is created through this module:

- `write_new(path, data)` writes the whole file atomically: the data goes to a temporary file
  in the same folder, which then becomes `path` by a hard link. The link is refused when
  anything exists at `path` (a file, a folder, a dangling symlink, or a file created while the
  data was being made), so nothing is ever replaced or written through a link.
  With `overwrite`, a rename replaces `path` itself (a symlink there is replaced, never
  followed).
- `write_all([(path, data), ...])` writes several files all or none: every one is made as a
  temporary file first, then all are put in place; a failure removes what was placed.
- `open_new_log(path)` opens a results file for appending, refusing an existing one unless it
  is resumed, and locks it while it is open.

`special_kind(mode)` names what is not a regular file, for readers that must refuse it at once
(a FIFO blocks a read, a device such as /dev/zero never ends).

Failures are one-line `KakuroError`s naming the file: `OutputExistsError` (naming `--force` and
`overwrite=True`), or the reason the system gave (a read-only folder, a full disk, a file
where a folder should be...).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from kakuro.errors import KakuroError, OutputExistsError


def cannot_write(path: str | os.PathLike[str], exc: OSError) -> KakuroError:
    """The one-line error for an OSError met while writing `path`; a file where one of its
    folders should be is named (the system only says "File exists" or "Not a directory")."""
    reason = exc.strerror or str(exc)
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        blocker = next((p for p in Path(os.fspath(path)).parents if os.path.lexists(p) and not p.is_dir()), None)
        if blocker is not None:
            reason = f"{blocker} is not a folder"
    return KakuroError(f"{path}: cannot be written: {reason}")


def refuse_existing(path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], overwrite: bool = False) -> None:
    """Raise OutputExistsError when something exists at `path`, or at any of several paths
    (all of them named; a dangling symlink counts), and `overwrite` is not set: a check before
    any work; `write_new` checks again atomically."""
    paths = [path] if isinstance(path, (str, os.PathLike)) else list(path)
    taken = [p for p in paths if os.path.lexists(p)]
    if taken and not overwrite:
        raise OutputExistsError(*taken)


def write_new(path: str | os.PathLike[str], data: bytes | str, *, overwrite: bool = False) -> Path:
    """Write `data` (str as UTF-8; characters UTF-8 cannot hold, such as the undecodable bytes
    of a file name it mentions, escaped with backslashes) to `path`, creating its folders; an
    existing `path` raises OutputExistsError unless `overwrite`. The file gets the permissions
    the umask allows (or, when replacing, the replaced file's). Returns the path."""
    return write_all([(path, data)], overwrite=overwrite)[0]


def write_all(
    items: Sequence[tuple[str | os.PathLike[str], bytes | str]], *, overwrite: bool = False
) -> list[Path]:
    """Write every (path, data) as `write_new` does, all or none: each file is first made in
    full as a temporary file beside its path, and only then are they all put in place; if
    anything fails (a folder that cannot be written, a full disk, a path taken meanwhile) the
    files already placed are removed again (or, with `overwrite`, the replaced ones restored),
    and the error is raised. Returns the paths."""
    targets = [Path(path) for path, _ in items]
    refuse_existing(targets, overwrite)
    staged: list[tuple[Path, str]] = []
    made = list(dict.fromkeys(folder for target in targets for folder in _missing_folders(target.parent)))
    done = False
    try:
        for target, (_, data) in zip(targets, items):
            staged.append((target, _stage(target, data)))
        placed: list[tuple[Path, str | None]] = []
        try:
            for target, temporary in staged:
                placed.append((target, _place(target, temporary, overwrite)))
        except BaseException:
            for target, backup in reversed(placed):
                with contextlib.suppress(OSError):
                    if backup:
                        os.replace(backup, target)
                    else:
                        os.unlink(target)
            raise
        for _, backup in placed:
            if backup:
                with contextlib.suppress(OSError):
                    os.unlink(backup)
        done = True
    finally:
        for _, temporary in staged:
            if os.path.lexists(temporary):
                os.unlink(temporary)
        if not done:  # the folders made for the files go too (deepest first; only if empty)
            for folder in sorted(made, key=lambda f: len(f.parts), reverse=True):
                with contextlib.suppress(OSError):
                    folder.rmdir()
    return targets


def _missing_folders(folder: Path) -> list[Path]:
    """`folder` and its ancestors that do not exist yet."""
    missing = []
    while not os.path.lexists(folder) and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _stage(target: Path, data: bytes | str) -> str:
    """A temporary file beside `target` holding `data`, flushed to disk, with the mode
    `target` will have."""
    payload = data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise cannot_write(target, exc) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _mode_for(target))
    except OSError as exc:
        os.unlink(temporary)
        raise cannot_write(target, exc) from None
    return temporary


def _place(target: Path, temporary: str, overwrite: bool) -> str | None:
    """Put the staged file at `target`: a hard link, refused when anything is there (even if
    it appeared meanwhile), or with `overwrite` a rename over it. Returns a hard link to the
    file it replaced (to restore it), or None."""
    try:
        if not overwrite:
            os.link(temporary, target)
            return None
        backup = None
        if os.path.lexists(target) and not target.is_dir():
            backup = f"{temporary}.old"
            os.link(target, backup, follow_symlinks=False)
        try:
            os.replace(temporary, target)
        except OSError:
            if backup:
                os.unlink(backup)
            raise
        return backup
    except FileExistsError:
        raise OutputExistsError(target) from None
    except OSError as exc:
        raise cannot_write(target, exc) from None


def open_new(path: str | os.PathLike[str]) -> TextIO:
    """A new UTF-8 text file at `path`, line-buffered, for writing as work goes (an experiment's
    JSON lines), its folders created: an existing `path` raises OutputExistsError (it is never
    appended to or replaced); one that cannot be made, a KakuroError naming it."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return target.open("x", encoding="utf-8", buffering=1)
    except FileExistsError:
        raise OutputExistsError(target) from None
    except OSError as exc:
        raise cannot_write(target, exc) from None


def open_new_log(path: str | os.PathLike[str], *, resume: bool = False) -> int:
    """A file descriptor for appending to the results file `path`, creating its folders: a new
    file unless `resume` (then an existing one is continued; a missing one is created). The
    file is locked (an exclusive `flock`) until the descriptor is closed: a second writer,
    another campaign resuming the same file, is refused with a KakuroError saying so."""
    target = Path(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    if not resume:
        flags |= os.O_EXCL
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, flags, 0o666)
    except FileExistsError:
        raise KakuroError(
            f"{target} already exists and is never overwritten; pass --resume to continue it, or choose another -o"
        ) from None
    except OSError as exc:
        raise cannot_write(target, exc) from None
    try:
        lock(fd)
    except BlockingIOError:
        os.close(fd)
        raise KakuroError(
            f"{target} is being written by another run (it holds the file's lock); wait for that run to end, "
            "or write to another -o FILE"
        ) from None
    return fd


def special_kind(mode: int) -> str | None:
    """What a file of `os.stat` st_mode `mode` is when it is not a regular file ("a folder", "a
    FIFO (named pipe)", "a character device"...), None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a file")


def lock(fd: int) -> None:
    """Take an exclusive lock on an open file without waiting (BlockingIOError when another
    process holds it). A no-op where `fcntl` does not exist."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _mode_for(target: Path) -> int:
    """The replaced file's permissions, else what the umask allows (mkstemp alone would leave
    the file readable by its owner only)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
