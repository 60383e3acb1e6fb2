"""The files a command writes: checked before any work, then written all or nothing.

A release is several files (the table, its identity mapping tables, the report, a DP
ledger). The PDPC guide asks that the original data and the records of a release be
kept safe (Step 5: identity mapping tables kept securely and apart; the anonymisation
details recorded), so the command line follows these rules, all in this module:

- **Never onto an input.** An output may not be an input (the data, the recipe, a
  hierarchy file, the file to decrypt) or another output of the same command, whether
  the paths are equal, resolve to the same file through a symbolic link, or are hard
  links of one file (same device and inode).
- **No silent replacement.** An existing output file is replaced only with ``--force``.
  An existing *identity mapping table* is never replaced, not even with ``--force``: it
  may be the only re-identification record of an earlier release. Move it away first.
  The DP ledger is the one file that is updated in place (it accumulates ε).
- **Folders must exist**, and an output must not be a folder: checked before any work.
- **All or nothing.** Every file is first written in full to a temporary file next to
  its target (flushed and fsynced), and only when all were written are they renamed into
  place; if anything fails, the temporary files and any file already placed are removed.
  A file that must not be replaced is placed with a hard link, which fails if a file
  appeared at that path in the meantime.
- **Ctrl-C too.** An interrupt (``KeyboardInterrupt``) while a file is written removes
  the temporary files like any failure; while the files are renamed into place (a few
  system calls) it is held back until the renames are done and noted, then removes them
  all, so an interrupted command leaves no file of the release at all.
- **Private files** (identity mapping tables) are created with mode 0600 from the start
  (``os.open(..., 0o600)``), never made private after being written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from core.errors import AnonymisationError
from core.progress import ProgressFn, no_progress, stage

# Files are written in pieces of this size, so progress can be shown and Ctrl-C is heard.
WRITE_CHUNK = 8 * 1024 * 1024


class OutputPathError(AnonymisationError):
    """An output path would overwrite an input, another output or an earlier record."""


@dataclass(frozen=True)
class Output:
    """One file a command will write.

    ``label`` names it for the user (``--out``, ``--report``, ``identity mapping table of
    'nric'``). ``private``: created with mode 0600. ``keep_existing``: an existing file is
    never replaced, even with ``--force`` (identity mapping tables). ``update``: an
    existing file is expected and replaced by its updated version (the DP ledger).
    """

    label: str
    path: Path
    private: bool = False
    keep_existing: bool = False
    update: bool = False


def _same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` are, or would be, one file (symlinks and hard links too)."""
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)  # same st_dev and st_ino: hard links
    except OSError:  # one of them does not exist yet
        return False


def plan_outputs(
    outputs: Sequence[Output], inputs: Mapping[str, str | Path], *, force: bool = False
) -> tuple[Output, ...]:
    """Check every rule above for ``outputs`` before any work is done; return them.

    ``inputs`` maps a label (``data``, ``--recipe``) to each file the command reads.
    Raises :class:`OutputPathError` with one line naming the path and what to do.
    """
    planned = tuple(
        Output(o.label, Path(o.path).expanduser(), o.private, o.keep_existing, o.update)
        for o in outputs
    )
    for output in planned:
        for label, source in inputs.items():
            if _same_file(output.path, Path(source).expanduser()):
                raise OutputPathError(
                    f"The {output.label} path '{output.path}' is the input {label} "
                    f"('{source}'): choose another path; inputs are never overwritten."
                )
    for position, output in enumerate(planned):
        for other in planned[position + 1 :]:
            if _same_file(output.path, other.path):
                raise OutputPathError(
                    f"The {output.label} and the {other.label} would both be written to "
                    f"'{output.path}': give each output its own path."
                )
    for output in planned:
        _check_target(output, force=force)
    return planned


def _check_target(output: Output, *, force: bool) -> None:
    path = output.path
    folder = path.parent
    if not folder.is_dir():
        raise OutputPathError(
            f"The folder of the {output.label} '{path}' does not exist: create it first or "
            "choose another path."
        )
    if path.is_dir():
        raise OutputPathError(
            f"The {output.label} '{path}' is a folder: give a file name inside it."
        )
    if not os.path.lexists(path) or output.update:
        return
    if output.keep_existing:
        raise OutputPathError(
            f"The {output.label} '{path}' already exists and is never replaced (it may be "
            "the only re-identification record of an earlier release): move it somewhere "
            "safe first, or choose another --out."
        )
    if not force:
        raise OutputPathError(
            f"The {output.label} '{path}' already exists: give --force to replace it, or "
            "choose another path."
        )


# Writes a file's content to an open binary file, telling its progress (a large table is
# encoded straight into its temporary file: core.io.stream_table).
ContentWriter = Callable[[BinaryIO, ProgressFn], None]


def write_outputs(
    files: Iterable[tuple[Output, bytes | Path | ContentWriter]],
    *,
    force: bool = False,
    progress: ProgressFn | None = None,
) -> None:
    """Write every file all or nothing (see the module docstring); paths already planned.

    A file's content is its bytes; or a temporary file from :func:`staging_file` that the
    caller has written in full and fsynced (a table streamed batch by batch, never held in
    memory); or a :data:`ContentWriter` that writes it (the temporary file exists, and
    Ctrl-C is safe, while a large table is being encoded). Raises
    :class:`AnonymisationError` naming the file that could not be written; then no file of
    ``files`` is left behind (staged files included), and neither after Ctrl-C.
    ``progress`` hears each file's share of the work.
    """
    files = list(files)
    staged = [data for _, data in files if isinstance(data, Path)]
    temporary: list[Path] = []
    placed: list[Path] = []
    try:
        for position, (output, data) in enumerate(files):
            if isinstance(data, Path):
                temporary.append(data)
                continue
            part = stage(progress, position / len(files), (position + 1) / len(files))
            _write_temporary(output, data, temporary, part)
        with _interrupts_held_back():
            for (output, _), temp in zip(files, temporary, strict=True):
                replace = output.update or (force and not output.keep_existing)
                _place(temp, output, replace=replace)
                placed.append(output.path)
        for folder in {output.path.parent for output, _ in files}:
            _fsync_folder(folder)
    except BaseException:
        for path in (*staged, *temporary, *placed):
            Path(path).unlink(missing_ok=True)
        raise


def stage_content(
    output: Output, data: bytes | ContentWriter, progress: ProgressFn | None = None
) -> Path:
    """Write ``data`` in full to a new temporary file next to ``output`` (fsynced), for a
    caller that needs its bytes (their sha256) before the release is placed: hand it to
    :func:`write_outputs` to place it, or delete it if the work fails."""
    created: list[Path] = []
    try:
        _write_temporary(output, data, created, progress or no_progress)
    except BaseException:
        for path in created:
            path.unlink(missing_ok=True)
        raise
    return created[0]


def staging_file(output: Output) -> Path:
    """A new empty temporary file next to ``output`` (hidden, mode as :func:`write_outputs`
    gives), for content streamed into it; hand it to :func:`write_outputs` to place it, or
    delete it if the work fails."""
    created: list[Path] = []
    _write_temporary(output, b"", created, no_progress)
    return created[0]


@contextlib.contextmanager
def _interrupts_held_back() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while the block runs; it is delivered right after.

    Without this, Ctrl-C between creating a temporary file and the line that notes it, or
    between a rename and the line that notes it, would leave that file behind. Python
    handles a signal in the main thread, whichever thread of the process received it
    (NumPy, pyarrow and the engines run threads of their own), so the block swaps in a
    handler that only remembers the signal: masking it in the main thread alone would let
    another thread receive it and the interrupt be raised inside the block anyway. Only
    the main thread can set a handler; elsewhere the block runs unguarded.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held and previous is not signal.SIG_IGN:
            if callable(previous):
                previous(signal.SIGINT, None)  # Python's own handler raises KeyboardInterrupt
            else:
                raise KeyboardInterrupt


def _write_temporary(
    output: Output, data: bytes | ContentWriter, temporary: list[Path], progress: ProgressFn
) -> None:
    """Write ``data`` to a new temporary file next to the target, appended to ``temporary``
    as soon as it exists (so that a failure or Ctrl-C at any moment after removes it)."""
    temp = output.path.with_name(f".{output.path.name}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    # Created and listed with Ctrl-C held back: an interrupt between the two would leave a
    # file nobody knows of (it is delivered right after, and the clean-up then removes it).
    with _interrupts_held_back():
        try:
            descriptor = os.open(temp, flags, 0o600 if output.private else 0o666)
        except OSError as error:
            raise _cannot_write(output, error) from error
        temporary.append(temp)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            if callable(data):
                data(handle, progress)
            else:
                view = memoryview(data)
                for start in range(0, len(view), WRITE_CHUNK):
                    handle.write(view[start : start + WRITE_CHUNK])
                    progress(
                        min(start + WRITE_CHUNK, len(view)) / max(len(view), 1),
                        f"writing {output.path.name}",
                    )
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        raise _cannot_write(output, error) from error


def _place(temp: Path, output: Output, *, replace: bool) -> None:
    try:
        if replace:
            os.replace(temp, output.path)
            return
        try:
            os.link(temp, output.path)  # fails if a file appeared there meanwhile
        except FileExistsError:
            raise OutputPathError(
                f"The {output.label} '{output.path}' appeared while the release was being "
                "written; nothing was replaced. Run the command again."
            ) from None
        except OSError:  # a file system without hard links
            if os.path.lexists(output.path):
                raise
            os.replace(temp, output.path)
            return
        temp.unlink()
    except OSError as error:
        raise _cannot_write(output, error) from error


def _fsync_folder(folder: Path) -> None:
    """Make the renames durable (a no-op where folders cannot be opened, e.g. Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _cannot_write(output: Output, error: OSError) -> AnonymisationError:
    return AnonymisationError(
        f"Cannot write the {output.label} '{output.path}' ({error.strerror or error}); "
        "nothing was written. Check that the folder exists and that you may write in it."
    )


def file_name_part(name: object) -> str:
    """A column name made safe for use inside a file name (no folders, no hidden files).

    Anything but ASCII letters, digits, ``-``, ``_`` and ``.`` becomes ``_``; a changed
    name gets 8 hex digits of its SHA-256 so two columns never share a file name.
    """
    text = str(name)
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in text)
    safe = safe.lstrip(".") or "_"
    if safe != text:
        safe = f"{safe[:60]}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}"
    return safe
