"""An exclusive lock between processes on a file that is replaced, not edited (a JSON ledger).

A file replaced by rename (core.outputs) cannot carry its own lock: a second process would
lock the old inode while the first renames a new one over it. So the lock is taken on a
companion file, ``<name>.lock`` next to it, which is never replaced or removed (removing a
lock file lets a third process lock a new one while the second still holds the old).
Whoever holds the lock reads the file, decides and writes it again; nobody else can read
it in between, so two runs cannot both spend the same budget (issue 27, High 3).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.errors import AnonymisationError

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX; Windows has no symbolic links to follow here
#: How long a run waits for another run to finish with the file before giving up.
WAIT_SECONDS = 600.0


class LockError(AnonymisationError):
    """The lock file cannot be made, or another run kept the lock too long."""


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The companion file locked for ``path``."""
    path = Path(path)
    return path.with_name(path.name + ".lock")


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


@contextmanager
def exclusive_lock(
    path: str | os.PathLike[str], *, what: str, wait_seconds: float = WAIT_SECONDS
) -> Iterator[None]:
    """Hold the lock of ``path`` (a ``what``, e.g. "privacy ledger") for the ``with`` block,
    waiting while another process holds it; the lock ends with the block or the process."""
    companion = lock_path(path)
    not_a_file = LockError(
        f"Cannot lock the {what} '{path}': '{companion}' is not a regular file (a link, pipe or "
        "folder someone put there); remove it and run again."
    )
    try:
        # never through a link (it would create the file it points to, anywhere), and
        # without waiting on a FIFO
        fd = os.open(companion, os.O_RDWR | os.O_CREAT | _NOFOLLOW | os.O_NONBLOCK, 0o600)
    except OSError as error:
        if os.path.islink(companion) or os.path.isdir(companion):
            raise not_a_file from None
        raise LockError(
            f"Cannot lock the {what} '{path}': cannot create '{companion}' "
            f"({error.strerror}). Choose a writable folder."
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise not_a_file
    try:
        deadline = time.monotonic() + wait_seconds
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise LockError(
                    f"The {what} '{path}' stayed in use by another run for "
                    f"{wait_seconds:g} s; try again when it has finished."
                )
            time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
