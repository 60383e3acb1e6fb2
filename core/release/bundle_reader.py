"""Read a release bundle or reproduction archive someone sent, as an attacker could make it.

``verify-bundle`` and ``verify --bundle`` read zips that left the tool and may have been
changed on the way (issue 27). Before any entry is read, the list of entries must have the
shape :mod:`core.release.bundle` writes: at most :data:`MAX_ENTRIES` files of at most
:data:`MAX_BYTES` in all, each name once (a zip may hold a name twice: one tool shows the
first, Python the last), names of letters, digits, ``.``, ``-`` and ``_`` in at most one
folder (no absolute path, no ``..``: unzipped, such a name lands outside), plain files
only (a symbolic link unzips as a link to anywhere), not encrypted, stored or deflated.
Entries are then hashed as they are read, a megabyte at a time; only the few small files
a check reads (the recipe, the script, the report, the manifest) are kept, so a released
table of any size costs no memory. Every failure is one :class:`AnonymisationError` line.
"""

from __future__ import annotations

import hashlib
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from core.errors import AnonymisationError

#: Most files a bundle or archive may hold (it holds a handful, with its hierarchies and
#: identity mapping tables).
MAX_ENTRIES = 10_000
#: Most bytes its files may hold together once unpacked (a bundle holds one released table).
MAX_BYTES = 2 * 2**30
#: Largest file kept to be read (the recipe, script, report, manifest: a few hundred KB).
MAX_KEPT_BYTES = 50 * 2**20
#: Files whose bytes a check reads; every other file is only hashed.
KEPT = frozenset({"recipe.yaml", "anonymise.py", "report.json", "report.md", "MANIFEST.sha256"})
_PART = r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}"
_NAME = re.compile(rf"(?:{_PART}/)?{_PART}")
_RELEASED = re.compile(r"released\.\w+")
_READABLE = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)


@dataclass(frozen=True)
class BundleFiles:
    """A bundle's files: every file's sha256, and the bytes of the :data:`KEPT` ones."""

    path: Path
    sha256: dict[str, str]
    kept: dict[str, bytes]

    @property
    def released(self) -> str | None:
        """The name of the released table (``released.csv``...), if the bundle holds one."""
        return next((name for name in self.sha256 if _RELEASED.fullmatch(name)), None)


def _check_entries(infos: list[zipfile.ZipInfo], path: Path) -> None:
    if len(infos) > MAX_ENTRIES:
        raise AnonymisationError(
            f"The bundle '{path}' holds more than {MAX_ENTRIES:,} files; a bundle holds a few."
        )
    if sum(info.file_size for info in infos) > MAX_BYTES:
        raise AnonymisationError(f"The bundle '{path}' is too large to check.")
    seen: set[str] = set()
    released = 0
    for info in infos:
        name = info.filename
        shown = name.encode("unicode_escape").decode("ascii")
        if info.is_dir():
            name = name.rstrip("/")
        if not _NAME.fullmatch(name):
            raise AnonymisationError(
                f"The bundle '{path}' holds '{shown}', which is not a bundle file name (letters, "
                "digits, '.', '-', '_', in at most one folder): it was not made by this tool."
            )
        if name in seen:
            raise AnonymisationError(
                f"The bundle '{path}' holds '{shown}' twice: a bundle holds each file once, so "
                "it was altered; ask for it again."
            )
        seen.add(name)
        kind = stat.S_IFMT(info.external_attr >> 16) if info.create_system == 3 else 0
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            raise AnonymisationError(
                f"The bundle '{path}' holds '{shown}', which is not a plain file (a link or "
                "device): it was not made by this tool."
            )
        if info.flag_bits & 0x1:
            raise AnonymisationError(f"'{shown}' in the bundle '{path}' is encrypted.")
        if info.compress_type not in _READABLE:
            raise AnonymisationError(
                f"'{shown}' in the bundle '{path}' uses a compression this tool does not read "
                "(only stored or deflated)."
            )
        released += bool(_RELEASED.fullmatch(name))
    if released > 1:
        raise AnonymisationError(
            f"The bundle '{path}' holds {released} released tables; it holds one."
        )


def _check_count(path: Path) -> None:
    """Refuse a zip of more than :data:`MAX_ENTRIES` entries from its end record, before
    zipfile builds a record per entry (a 2 GB zip can list some 20 million: 13 GB)."""
    with open(path, "rb") as file:
        end = zipfile._EndRecData(file)  # the end record zipfile reads first; None: not a zip
    # the count, and the directory's size (zipfile reads entries until it has read that
    # many bytes, whatever the count says): at most a kilobyte an entry
    if end is not None and (
        end[zipfile._ECD_ENTRIES_TOTAL] > MAX_ENTRIES or end[zipfile._ECD_SIZE] > MAX_ENTRIES * 1024
    ):
        raise AnonymisationError(
            f"The bundle '{path}' holds more than {MAX_ENTRIES:,} files; a bundle holds a few."
        )


def read_bundle(path: str | Path) -> BundleFiles:
    """The files of the bundle or archive at ``path``, checked (see the module docstring)."""
    path = Path(path)
    sha256: dict[str, str] = {}
    kept: dict[str, bytes] = {}
    try:
        _check_count(path)
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            _check_entries(infos, path)
            for info in infos:
                if info.is_dir():
                    continue
                keep = info.filename in KEPT and info.file_size <= MAX_KEPT_BYTES
                digest, data = hashlib.sha256(), bytearray()
                with archive.open(info) as member:
                    while chunk := member.read(2**20):
                        digest.update(chunk)
                        if keep:
                            data += chunk
                sha256[info.filename] = digest.hexdigest()
                if keep:
                    kept[info.filename] = bytes(data)
    except (OSError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error) as error:
        reason = " ".join(str(error).split())
        raise AnonymisationError(f"Cannot read the bundle '{path}': {reason}.") from None
    return BundleFiles(path, sha256, kept)
