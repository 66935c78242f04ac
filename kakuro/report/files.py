"""Writing report files: never over an existing file unless asked."""

from __future__ import annotations

import os
from pathlib import Path

from kakuro.errors import KakuroError


def write_new(path: str | os.PathLike[str], data: bytes, *, overwrite: bool = False) -> Path:
    """Write `data` to a new file at `path` (folders are created); an existing file raises
    KakuroError unless `overwrite`. Returns the path."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb" if overwrite else "xb") as stream:
            stream.write(data)
    except FileExistsError:
        raise KakuroError(f"{target} already exists; choose another name or pass --force") from None
    except OSError as exc:
        raise KakuroError(f"{target}: cannot be written: {exc.strerror or exc}") from None
    return target
