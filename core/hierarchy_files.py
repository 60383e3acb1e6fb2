"""Several ARX hierarchy files at once: read them (or a .zip of a folder of them) and match
each to a column by its name, as ARX names them (PDPC guide, Annex A: Generalisation).

ARX saves the hierarchy of column ``age`` of data set ``adult`` as
``adult_hierarchy_age.csv``; a file may also be named after its column alone (``age.csv``).
Matching is by name, case-insensitive (an exact spelling wins over a case-folded one).

Everything someone sends is hostile: a zip is read in memory, member by member, never
unpacked to disk, within :data:`MAX_FILES` files and :data:`MAX_TOTAL_BYTES` unpacked bytes
(a zip bomb stops at the cap, whatever its headers say); only a member's own name is kept
(a path such as ``../../etc/x.csv`` shows as ``x.csv``), and any failure is one line naming
the file. No path of this machine ever reaches a message.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from core.errors import AnonymisationError, DataReadError
from core.hierarchy import Hierarchy, read_hierarchy

#: Most hierarchy files one import reads (a data set has a few dozen columns at most).
MAX_FILES = 200
#: Largest hierarchy file read (ARX's adult hierarchies are a few KB; a postal-code
#: hierarchy of a country a few MB).
MAX_FILE_BYTES = 20 * 2**20
#: Most bytes the files of one zip may hold together once unpacked.
MAX_TOTAL_BYTES = 100 * 2**20
#: The file endings read as hierarchies; other files of a zip are listed as skipped.
HIERARCHY_SUFFIXES = (".csv", ".txt")
_ARX_NAME = re.compile(r".*_hierarchy_(?P<column>.+)", re.IGNORECASE | re.DOTALL)
_READABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


@dataclass(frozen=True)
class HierarchyFile:
    """One file of an import: its name as sent (no folder), its bytes, the column it was
    matched to (or None), the hierarchy read from it (or None), and why not (one line)."""

    name: str
    data: bytes
    column: str | None = None
    hierarchy: Hierarchy | None = None
    problem: str | None = None

    @property
    def ok(self) -> bool:
        """Read, and matched to a column."""
        return self.hierarchy is not None and self.column is not None


def shown_name(name: str) -> str:
    """A file name as it may be shown: its last part only (no folder, whatever the
    separator), characters that do not print replaced by '?', at most 120 characters."""
    last = PurePosixPath(str(name).replace("\\", "/")).name or "(no name)"
    printable = "".join(ch if ch.isprintable() else "?" for ch in last)
    return printable if len(printable) <= 120 else printable[:117] + "..."


def column_for(name: str, columns: Sequence[str]) -> str | None:
    """The column a hierarchy file's name points at: ARX's ``<anything>_hierarchy_<column>``
    or ``<column>`` itself (the ending ``.csv``/``.txt`` dropped), exact spelling first,
    then case-insensitive; None when no column has that name."""
    stem = shown_name(name)
    lowered = stem.lower()
    for suffix in HIERARCHY_SUFFIXES:
        if lowered.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    wanted = [stem]
    if match := _ARX_NAME.fullmatch(stem):
        wanted.insert(0, match.group("column"))
    by_name = {str(c): str(c) for c in columns}
    by_folded: dict[str, str] = {}
    for column in map(str, columns):
        by_folded.setdefault(column.casefold(), column)
    for candidate in wanted:
        if candidate in by_name:
            return by_name[candidate]
    for candidate in wanted:
        if candidate.casefold() in by_folded:
            return by_folded[candidate.casefold()]
    return None


def separator_of(text: str) -> str:
    """';' (ARX's separator), or ',' when the text has commas and no ';' at all."""
    return "," if ";" not in text and "," in text else ";"


def read_hierarchy_bytes(name: str, data: bytes) -> Hierarchy:
    """A hierarchy from an uploaded file's bytes (';'-separated, or ',' when unambiguous),
    named by the file's own name; any problem is one :class:`DataReadError` line naming
    the file."""
    shown = shown_name(name)
    if not data.strip():
        raise DataReadError(f"'{shown}' is empty: a hierarchy has one line per value.")
    if len(data) > MAX_FILE_BYTES:
        raise DataReadError(
            f"'{shown}' is larger than {MAX_FILE_BYTES // 2**20} MB: too large for a "
            "hierarchy (one line per value of a column)."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataReadError(f"'{shown}' is not UTF-8 text: save it as UTF-8.") from None
    try:
        hierarchy = read_hierarchy(io.StringIO(text), sep=separator_of(text))
    except AnonymisationError as error:
        raise DataReadError(f"'{shown}': {error}") from None
    return Hierarchy(hierarchy.levels, name=shown)


def _zip_members(name: str, data: bytes) -> list[tuple[str, bytes | None, str | None]]:
    """The files of an uploaded zip as (name, bytes or None, problem or None), read in
    memory within the caps; a zip that cannot be read at all raises one line."""
    shown = shown_name(name)
    end = zipfile._EndRecData(io.BytesIO(data))  # the count, before zipfile lists entries
    if end is None:
        raise DataReadError(f"'{shown}' is not a readable zip archive.")
    if end[zipfile._ECD_ENTRIES_TOTAL] > 4 * MAX_FILES or end[zipfile._ECD_SIZE] > MAX_FILES * 4096:
        raise DataReadError(
            f"'{shown}' holds more than {4 * MAX_FILES:,} entries; a folder of hierarchies "
            "holds one file per column."
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
        raise DataReadError(f"'{shown}' is not a readable zip archive.") from None
    members: list[tuple[str, bytes | None, str | None]] = []
    total = 0
    with archive:
        seen: set[str] = set()
        twice = next((n for n in archive.namelist() if n in seen or seen.add(n)), None)
        if twice is not None:  # this reader took the first, unzip leaves the last on disk
            raise DataReadError(
                f"'{shown}' holds '{shown_name(twice)}' twice (tools disagree on which one "
                "they read): zip the folder of hierarchy files again."
            )
        for info in archive.infolist():
            inner = shown_name(info.filename)
            parts = PurePosixPath(info.filename.replace("\\", "/")).parts
            if info.is_dir() or "__MACOSX" in parts or inner.startswith("."):
                continue  # folders, and the resource forks macOS adds to its zips
            if not inner.lower().endswith(HIERARCHY_SUFFIXES):
                members.append((inner, None, "not a .csv file: skipped"))
                continue
            if len(members) >= MAX_FILES:
                raise DataReadError(
                    f"'{shown}' holds more than {MAX_FILES} hierarchy files; import at most "
                    f"{MAX_FILES} at once."
                )
            if info.flag_bits & 0x1:
                members.append((inner, None, f"'{inner}' in '{shown}' is encrypted."))
                continue
            if info.compress_type not in _READABLE:
                members.append(
                    (
                        inner,
                        None,
                        f"'{inner}' in '{shown}' uses a compression this tool does not read.",
                    )
                )
                continue
            room = min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - total)
            try:
                with archive.open(info) as member:
                    content = member.read(room + 1)  # never more, whatever the header says
            except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, zlib.error):
                members.append((inner, None, f"'{inner}' in '{shown}' could not be read."))
                continue
            if len(content) > room:
                if room < MAX_FILE_BYTES:
                    raise DataReadError(
                        f"'{shown}' unpacks to more than {MAX_TOTAL_BYTES // 2**20} MB: too "
                        "large for a folder of hierarchies."
                    )
                members.append(
                    (
                        inner,
                        None,
                        f"'{inner}' in '{shown}' is larger than {MAX_FILE_BYTES // 2**20} MB: "
                        "too large for a hierarchy.",
                    )
                )
                continue
            total += len(content)
            members.append((inner, content, None))
    return members


def read_hierarchy_files(
    files: Iterable[tuple[str, bytes]], columns: Sequence[str]
) -> list[HierarchyFile]:
    """Each file sent (name, bytes; a ``.zip`` stands for the files inside it), read and
    matched to one of ``columns`` by its name (:func:`column_for`). A column matched by
    two files keeps the first; the second says so. Files are never written anywhere."""
    sent: list[tuple[str, bytes | None, str | None]] = []
    for name, data in files:
        if shown_name(name).lower().endswith(".zip"):
            try:
                sent.extend(_zip_members(name, data))
            except DataReadError as error:
                sent.append((shown_name(name), None, str(error)))
        else:
            sent.append((shown_name(name), data, None))
        if len(sent) > MAX_FILES:
            raise DataReadError(f"More than {MAX_FILES} files sent: import at most {MAX_FILES}.")
    out: list[HierarchyFile] = []
    taken: dict[str, str] = {}
    for name, data, problem in sent:
        if data is None:
            out.append(HierarchyFile(name, b"", problem=problem))
            continue
        column = column_for(name, columns)
        try:
            hierarchy = read_hierarchy_bytes(name, data)
        except DataReadError as error:
            out.append(HierarchyFile(name, data, column, problem=str(error)))
            continue
        if column is not None and column in taken:
            problem = f"'{taken[column]}' already gives the hierarchy of '{column}'."
            out.append(HierarchyFile(name, data, None, hierarchy, problem))
            continue
        if column is not None:
            taken[column] = name
        out.append(HierarchyFile(name, data, column, hierarchy))
    return out
