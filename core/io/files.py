"""The bytes of a table's source: a path, an upload or raw bytes, within the limits every
reader applies (at most :data:`MAX_FILE_BYTES`, no device or socket, a FIFO abandoned when
idle). A regular file is read when and as far as needed.

Separate from the format readers: every format (and the hierarchy reader) starts here.
"""

from __future__ import annotations

import contextlib
import os
import select
import stat
from pathlib import Path
from typing import Any

from core.errors import DataReadError

#: Largest file read (a path, upload or bytes); a FIFO that sends nothing for
#: FIFO_IDLE_TIMEOUT_S seconds is abandoned. Devices such as /dev/zero are refused.
MAX_FILE_BYTES = 2**30
FIFO_IDLE_TIMEOUT_S = 5.0


def read_bytes(source: str | Path | bytes | Any, *, name: str | None = None) -> bytes:
    """All bytes of ``source`` (a path, bytes, or a file-like object), within the limits
    :func:`core.io.read_table` applies: at most :data:`MAX_FILE_BYTES`, no device or socket, a
    FIFO abandoned when idle. For files that are not tables (hierarchies)."""
    data, _, _ = load_source(source, name)
    return all_bytes(data)


def load_source(source: Any, name: str | None) -> tuple[bytes | RegularFile, str, str]:
    """The bytes of ``source`` (a regular file: a handle that reads them when needed), the
    name to show in messages, and the extension to use."""
    if isinstance(source, (str, Path)):
        path = Path(source).expanduser()
        display = name or str(source)
        data = _open_path(path, display)
        suffix = path.suffix or Path(name or "").suffix
        return data, display, suffix.lower()
    if isinstance(source, (bytes, bytearray, memoryview)):
        display = name or "uploaded data"
        return _within_size(bytes(source), display), display, Path(name or "").suffix.lower()
    if hasattr(source, "getvalue") or hasattr(source, "read"):
        own_name = getattr(source, "name", None)
        display = name or (str(own_name) if isinstance(own_name, (str, Path)) else "uploaded file")
        try:
            raw = (
                source.getvalue()
                if hasattr(source, "getvalue")
                else source.read(MAX_FILE_BYTES + 1)
            )
        except (OSError, ValueError) as exc:
            raise DataReadError(
                f"File '{display}' could not be read ({exc}). Upload or open it again."
            ) from exc
        if isinstance(raw, str):  # a text-mode stream: treat its text as UTF-8
            raw = raw.encode("utf-8")
        suffix = Path(str(own_name or "")).suffix or Path(name or "").suffix
        return _within_size(bytes(raw), display), display, suffix.lower()
    raise DataReadError(
        f"Cannot read a table from a {type(source).__name__}: give a file path, the file's "
        "bytes, or an uploaded file."
    )


def _within_size(data: bytes, display: str) -> bytes:
    _check_size(len(data), display)
    return data


def _check_size(size: int, display: str) -> None:
    if size > MAX_FILE_BYTES:
        raise DataReadError(
            f"File '{display}' is larger than {MAX_FILE_BYTES // 2**20:,} MiB, the most this tool "
            "reads. Take a sample or split the table, or remove columns you do not release."
        )


class RegularFile:
    """A regular file, read when and as far as needed: its first bytes to detect the format,
    encoding and delimiter, a stream for pyarrow's parser (which reads it on its own
    threads while it parses), or all its bytes. Its size was checked when it was opened."""

    def __init__(self, path: Path, size: int, display: str) -> None:
        self.path, self.size, self.display = path, size, display

    def head(self, count: int) -> bytes:
        with self._errors(), self.path.open("rb") as file:
            return file.read(count)

    def read_all(self) -> bytes:
        with self._errors(), self.path.open("rb") as file:
            return _within_size(file.read(MAX_FILE_BYTES + 1), self.display)

    @contextlib.contextmanager
    def arrow_stream(self, offset: int):
        """The file from byte ``offset`` to the size it had when opened (a file that grows
        meanwhile is not read beyond the size checked)."""
        import pyarrow as pa

        with self._errors(), pa.OSFile(str(self.path)) as file:
            yield file.get_stream(offset, max(self.size - offset, 0))

    @contextlib.contextmanager
    def _errors(self):
        try:
            yield
        except OSError as exc:
            raise _unreadable(self.display, exc) from exc


def _unreadable(display: str, exc: OSError) -> DataReadError:
    return DataReadError(
        f"File '{display}' could not be opened ({exc.strerror or exc}). Check that you "
        "may read it and that no other program locks it."
    )


def data_size(data: bytes | RegularFile) -> int:
    """The size in bytes of what :func:`load_source` gave."""
    return data.size if isinstance(data, RegularFile) else len(data)


def data_head(data: bytes | RegularFile, count: int) -> bytes:
    """The first ``count`` bytes of what :func:`load_source` gave."""
    return data.head(count) if isinstance(data, RegularFile) else data[:count]


def all_bytes(data: bytes | RegularFile) -> bytes:
    """All bytes of what :func:`load_source` gave (a regular file is read now)."""
    return data.read_all() if isinstance(data, RegularFile) else data


def _open_path(path: Path, display: str) -> bytes | RegularFile:
    """A regular file up to MAX_FILE_BYTES (read later), or a FIFO's bytes (read now, with
    an idle time-out).

    Devices (``/dev/zero`` would never end), sockets and folders are refused. The type is
    checked before opening, because opening a FIFO without a writer blocks forever.
    """
    try:
        status = path.stat()
    except FileNotFoundError:
        raise DataReadError(
            f"File '{display}' not found. Check the path and the spelling of the file name."
        ) from None
    except OSError as exc:
        raise _unreadable(display, exc) from exc
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        raise DataReadError(f"'{display}' is a folder, not a file. Choose a file inside it.")
    if stat.S_ISREG(mode):
        _check_size(status.st_size, display)
        return RegularFile(path, status.st_size, display)
    if not stat.S_ISFIFO(mode):
        raise DataReadError(
            f"'{display}' is not a regular file (it is a device or a socket, which may never "
            "end). Save the table to a file and give that file's path."
        )
    try:
        return _within_size(_read_fifo(path, display), display)
    except OSError as exc:
        raise _unreadable(display, exc) from exc


def _read_fifo(path: Path, display: str) -> bytes:
    """Read a named pipe (or ``<(command)``) until its writer closes it.

    Opened without blocking; if no data arrives for FIFO_IDLE_TIMEOUT_S seconds (no writer,
    or a stalled one), a clear error is raised instead of waiting forever.
    """
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    chunks: list[bytes] = []
    size = 0
    try:
        while True:
            ready, _, _ = select.select([descriptor], [], [], FIFO_IDLE_TIMEOUT_S)
            if not ready:
                raise DataReadError(
                    f"'{display}' is a named pipe (FIFO) and nothing was written to it for "
                    f"{FIFO_IDLE_TIMEOUT_S:g} seconds. Start the program that writes to it "
                    "first, or save the table to a file and give that file's path."
                )
            try:
                chunk = os.read(descriptor, 2**20)
            except BlockingIOError:
                continue
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                return b"".join(chunks) + chunk  # _within_size names the limit
            chunks.append(chunk)
    finally:
        os.close(descriptor)
