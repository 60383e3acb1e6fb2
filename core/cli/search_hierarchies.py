"""``search``'s hierarchies, as the dashboard's Explore trade-offs gives them (issue 30):
files named one by one (``--hierarchy COLUMN=FILE``), folders or zips of ARX hierarchy
files matched to columns by their names (``--hierarchies``, :mod:`core.hierarchy_files`),
and hierarchies built from the data by the kind Step 1 finds in a column (``--auto``,
``--quasi-identifiers``; :mod:`core.auto_hierarchy`). PDPC guide, Annex A: Generalisation.

What was matched, built or left out is said in one line each, on stderr (stdout may carry
--json). A hierarchy that is no file on disk (built from the data, or a member of a zip) is
kept, when a recipe names it, in the workspace under its content name
(``hierarchies/<column>-<hash>.csv``, core.release.bundle.portable_name), as the dashboard
keeps it: never written as a file, since a built hierarchy lists original values (dates of
birth, postal codes, addresses); ``apply --workspace`` reads it back from there, and a
recipient's bundle carries its rule, or leaves it out (core.release.bundle.recipient_recipe).
"""

from __future__ import annotations

import argparse
import io
import os
import zipfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import pandas as pd

from core._text import as_text
from core.cli.common import comma_list
from core.errors import AnonymisationError, DataReadError
from core.hierarchy import Hierarchy, read_hierarchy
from core.hierarchy_files import (
    HIERARCHY_SUFFIXES,
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_TOTAL_BYTES,
    HierarchyFile,
    column_for,
    read_hierarchy_files,
    shown_name,
)
from core.workspace import ENV_VAR as WORKSPACE_ENV

#: What a hierarchy built from the data is called where a file name would stand.
BUILT = "built from the data"


@dataclass(frozen=True)
class ColumnHierarchy:
    """One quasi-identifier's hierarchy: the ``file`` a person gave (its name; None: built
    from the data), its ``path`` on disk when it is one (a recipe names it; None: a zip's
    member or built, kept in the workspace), and for a built one the ``kind`` Step 1 found
    and its ``rule`` in words."""

    column: str
    hierarchy: Hierarchy
    file: str | None = None
    path: Path | None = None
    kind: str | None = None
    rule: str | None = None

    def words(self) -> str:
        """ "dob: date of birth: day → month → ..." or "age: 'adult_hierarchy_age.csv'"."""
        levels = f"{self.hierarchy.height} levels"  # as "level 3 of 4" counts them
        if self.file is None:
            found = (self.kind or "no kind").replace("_", " ")
            return f"{self.column}: {found}: {self.rule} ({BUILT}, {levels})"
        return f"{self.column}: '{self.file}' ({levels})"

    def as_dict(self) -> dict[str, object]:
        return {
            "column": self.column,
            "source": self.file or BUILT,
            "levels": self.hierarchy.height,
            **({"kind": self.kind, "rule": self.rule} if self.file is None else {}),
        }


@dataclass(frozen=True)
class PlannedHierarchies:
    """The quasi-identifiers and where each one's hierarchy comes from, decided from the
    column names alone (before the data is read): ``given`` the hierarchies read from
    files, ``auto`` the columns to build one for."""

    quasi_identifiers: tuple[str, ...]
    given: Mapping[str, ColumnHierarchy]
    auto: tuple[str, ...]


def add_hierarchy_options(find: argparse.ArgumentParser) -> None:
    """``--hierarchy``, ``--hierarchies``, ``--auto``, ``--quasi-identifiers`` and the
    ``--workspace`` that keeps hierarchies that are no file."""
    find.add_argument(
        "--hierarchy",
        action="append",
        default=[],
        metavar="COLUMN=FILE",
        help="a quasi-identifier and its hierarchy file (ARX format); repeat; wins over "
        "a file --hierarchies matches to the same column",
    )
    find.add_argument(
        "--hierarchies",
        action="append",
        default=[],
        metavar="DIR_OR_ZIP",
        help="a folder, a .zip or a file of ARX hierarchies, each matched to a column by "
        "its name (adult_hierarchy_age.csv or age.csv gives 'age''s); repeat",
    )
    find.add_argument(
        "--auto",
        action="append",
        default=[],
        metavar="COLUMN",
        help="build this quasi-identifier's hierarchy from the data by the kind Step 1 "
        "finds in it (dates: day, month, year, decade; postal codes and IDs: masked from "
        "the right; addresses: street, postal sector; numbers: bands; categories: rare "
        "values grouped); repeat",
    )
    find.add_argument(
        "--quasi-identifiers",
        metavar="A,B,C",
        help="the quasi-identifiers (default: the columns given a hierarchy); those "
        "without a hierarchy file get one built as --auto builds it",
    )
    find.add_argument(
        "--workspace",
        help="with --recipe-out: keep the hierarchies that are no file (built from the "
        "data, or inside a .zip) in this workspace, where 'apply --workspace' reads them "
        f"(default ${WORKSPACE_ENV})",
    )


# --- reading the files given ----------------------------------------------------------------


def _climbs_out(member: str) -> bool:
    """A zip member's name that is absolute or climbs out of its folder ('../')."""
    posix = member.replace("\\", "/")
    return posix.startswith("/") or ".." in PurePosixPath(posix).parts or posix[1:3] == ":/"


def _file_bytes(path: Path, cap: int) -> bytes:
    """A file's first ``cap + 1`` bytes (the readers refuse what passes the cap)."""
    if not path.is_file():  # a folder, a device (/dev/zero), a FIFO, a missing file
        raise DataReadError(f"--hierarchies: '{path}' is not a file or a folder of files.")
    with path.open("rb") as handle:
        return handle.read(cap + 1)


def _sent_files(given: str, skip: Collection[Path]) -> list[Path]:
    """The files a --hierarchies argument names: itself, or a folder's hierarchy files and
    zips (not its subfolders; the data file itself left out)."""
    path = Path(given).expanduser()
    if not path.is_dir():
        return [path]
    files = sorted(
        p
        for p in path.iterdir()
        if p.suffix.lower() in (*HIERARCHY_SUFFIXES, ".zip") and p.resolve() not in skip
    )
    if len(files) > MAX_FILES:
        raise DataReadError(
            f"--hierarchies: '{path}' holds more than {MAX_FILES} files; give a folder with "
            "one hierarchy file per column."
        )
    # A link to a file outside the folder (an unpacked archive can plant one, e.g. to a
    # file of this machine) would make its content a hierarchy and its path the recipe's.
    inside = path.resolve()
    for file in files:
        if file.is_symlink() and file.resolve().parent != inside:
            raise DataReadError(
                f"--hierarchies: '{shown_name(file.name)}' is a link to a file outside the "
                "folder: refused (copy the file into the folder)."
            )
    return files


def _read_one(path: Path, columns: Sequence[str]) -> list[HierarchyFile]:
    """The hierarchies in one file (a zip: its members), each matched to a column."""
    is_zip = path.suffix.lower() == ".zip"
    data = _file_bytes(path, MAX_TOTAL_BYTES if is_zip else MAX_FILE_BYTES)
    files = read_hierarchy_files([(path.name, data)], columns)
    if is_zip and not (len(files) == 1 and files[0].hierarchy is None):  # read as a zip
        # Names that climb out of the folder ('../../x.csv', '/etc/x.csv') are never made
        # by zipping a folder: an archive made to be unpacked somewhere else is refused.
        # (The entries were counted and capped by read_hierarchy_files before listing.)
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                hostile = next((n for n in archive.namelist() if _climbs_out(n)), None)
        except (zipfile.BadZipFile, OSError, ValueError):
            raise DataReadError(
                f"--hierarchies: '{shown_name(path.name)}' is not a readable zip archive."
            ) from None
        if hostile is not None:
            raise DataReadError(
                f"--hierarchies: '{shown_name(path.name)}' holds '{shown_name(hostile)}' under "
                "a path outside its folder ('../' or absolute): refused. Zip the folder of "
                "hierarchy files again."
            )
    return files


def plan_hierarchies(
    args: argparse.Namespace,
    columns: Sequence[str],
    *,
    say: Callable[[str], None],
    skip: Collection[Path] = (),
) -> PlannedHierarchies:
    """The quasi-identifiers and their hierarchies' sources, from the options and the
    table's column names; says each match and each problem in one line (``say``). A file
    no column matches, or matched to a column that is no quasi-identifier, is said and
    left out; a file that cannot be read is an error."""
    explicit: dict[str, ColumnHierarchy] = {}
    for given in args.hierarchy:
        column, sep, path = given.partition("=")
        column, path = column.strip(), path.strip()
        if not sep or not column or not path:
            raise AnonymisationError(
                f"--hierarchy {given!r} must be COLUMN=FILE, e.g. --hierarchy age=age.csv."
            )
        file = Path(path).resolve()
        explicit[column] = ColumnHierarchy(column, read_hierarchy(path), shown_name(path), file)
    matched: dict[str, ColumnHierarchy] = {}
    problems: list[str] = []
    for given in args.hierarchies:
        for path in _sent_files(given, skip):
            for file in _read_one(path, columns):
                _note_match(file, path, columns, matched, explicit, problems, say)
    if problems:  # the first is the command's error line; the others are said before it
        for problem in problems[1:]:
            say(f"error: --hierarchies: {problem}")
        raise DataReadError(f"--hierarchies: {problems[0]}")
    auto = list(dict.fromkeys(c.strip() for c in args.auto if c.strip()))
    chosen = comma_list(args.quasi_identifiers) if args.quasi_identifiers else None
    _require_known([*auto, *(chosen or [])], columns)
    both = [c for c in auto if c in explicit]
    if both:
        raise AnonymisationError(
            f"'{both[0]}' has both --auto and --hierarchy: give one of the two."
        )
    for column in auto:
        if column in matched:
            say(f"'{matched.pop(column).file}' → {column}: not used, --auto {column} builds it")
    if chosen is None:
        sensitive = getattr(args, "sensitive", None)
        if sensitive in matched and sensitive not in explicit:
            file = matched.pop(sensitive)
            say(f"'{file.file}' → {sensitive}: not used, the sensitive column (--sensitive)")
        qis = list(dict.fromkeys([*explicit, *matched, *auto]))
    else:
        qis = list(dict.fromkeys([*chosen, *auto]))
        for column in [c for c in matched if c not in qis]:
            say(f"'{matched.pop(column).file}' → {column}: not used, not in --quasi-identifiers")
        for column in [c for c in explicit if c not in qis]:
            raise AnonymisationError(
                f"--hierarchy {column}=... names a column that is not in --quasi-identifiers: "
                f"add '{column}' there, or leave the --hierarchy out."
            )
    if not qis:
        raise AnonymisationError(
            "No quasi-identifier has a hierarchy: give --hierarchy COLUMN=FILE, --hierarchies "
            "DIR_OR_ZIP (ARX files named after the columns), --auto COLUMN, or "
            "--quasi-identifiers A,B,C (hierarchies built from the data for those without a "
            "file)."
        )
    given = {c: explicit.get(c) or matched[c] for c in qis if c in explicit or c in matched}
    for column, chosen in given.items():
        flag = " (--hierarchy)" if column in explicit else ""
        say(f"'{chosen.file}'{flag} → {column} ({chosen.hierarchy.height} levels)")
    return PlannedHierarchies(tuple(qis), given, tuple(c for c in qis if c not in given))


def _note_match(
    file: HierarchyFile,
    path: Path,
    columns: Sequence[str],
    matched: dict[str, ColumnHierarchy],
    explicit: Mapping[str, ColumnHierarchy],
    problems: list[str],
    say: Callable[[str], None],
) -> None:
    """Say what became of one file sent, and keep it when it gives a column's hierarchy."""
    if file.hierarchy is None:
        problem = file.problem or f"'{file.name}' could not be read."
        if problem.endswith("skipped"):
            say(f"'{file.name}': {problem}")
        elif path.suffix.lower() == ".zip" and file.name == shown_name(path.name):
            problems.append(problem)  # the zip itself: none of its files was read
        elif column_for(file.name, columns) is None:  # another file of the folder
            why = problem.removeprefix(f"'{file.name}': ")
            say(
                f"warning: '{file.name}': not used, it matches no column and is no hierarchy: {why}"
            )
        else:
            problems.append(problem)
        return
    column = file.column
    if column is None:
        why = file.problem or "its name matches no column of the data"
        say(f"'{file.name}': not used, {_lower(why).rstrip('.')}")
        return
    if column in explicit:
        say(f"'{file.name}' → {column}: not used, --hierarchy {column}= gives it")
        return
    if column in matched:
        say(f"'{file.name}' → {column}: not used, '{matched[column].file}' already gives it")
        return
    # a file on disk is named by its path in a recipe; a zip's member is kept in the workspace
    on_disk = path.resolve() if path.name == file.name and path.suffix.lower() != ".zip" else None
    matched[column] = ColumnHierarchy(column, file.hierarchy, file.name, on_disk)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _require_known(names: Sequence[str], columns: Sequence[str]) -> None:
    missing = [n for n in names if n not in columns]
    if missing:
        shown = ", ".join(repr(c) for c in list(columns)[:12])
        raise AnonymisationError(
            f"Column '{missing[0]}' (--auto or --quasi-identifiers) is not in the data; its "
            f"columns are {shown}{', ...' if len(columns) > 12 else ''}."
        )


# --- with the data ---------------------------------------------------------------------------


def complete_hierarchies(
    plan: PlannedHierarchies, data: pd.DataFrame, *, say: Callable[[str], None]
) -> dict[str, ColumnHierarchy]:
    """Every quasi-identifier's hierarchy: the files given, and those built from the data
    by the kind Step 1 finds in the column, as the dashboard's "auto" builds them
    (core.schema.suggest_roles, then core.auto_hierarchy); each built one is said with its
    rule, and a file that does not know some value of its column is said too."""
    out = dict(plan.given)
    if plan.auto:
        from core.auto_hierarchy import auto_hierarchy, auto_words
        from core.schema import suggest_roles

        kinds = {s.column: s.kind for s in suggest_roles(data[list(plan.auto)])}
        for column in plan.auto:
            series = data[column].rename(column)
            built = auto_hierarchy(series, kinds[column])
            rule = auto_words(series, kinds[column])
            out[column] = ColumnHierarchy(column, built, kind=kinds[column], rule=rule)
            say(out[column].words())
    for column, given in plan.given.items():
        if column in data.columns:
            _say_gaps(given, data[column], say)
    return {c: out[c] for c in plan.quasi_identifiers}


def _say_gaps(given: ColumnHierarchy, values: pd.Series, say: Callable[[str], None]) -> None:
    """A value of the column that its hierarchy file does not hold, said in one line."""
    text = as_text(values).dropna()
    gaps = list(dict.fromkeys(text[~text.isin(set(given.hierarchy.values))]))
    if gaps:
        examples = ", ".join(repr(v) for v in gaps[:3])
        more = f" and {len(gaps) - 3} more" if len(gaps) > 3 else ""
        say(
            f"warning: '{given.file}' does not hold {len(gaps):,} value(s) of "
            f"'{given.column}' ({examples}{more}): it was made for other data; the search "
            "stops at the first such value."
        )


# --- in a recipe -----------------------------------------------------------------------------


def recipe_names(
    hierarchies: Mapping[str, ColumnHierarchy],
) -> tuple[dict[str, str], dict[str, str]]:
    """(column -> the name a recipe step gives its hierarchy, name -> text to keep in the
    workspace): a file's path, or the content name of one that is no file (as the
    dashboard names what it keeps: core.release.bundle.portable_name)."""
    from core.release.bundle import portable_name

    names: dict[str, str] = {}
    kept: dict[str, str] = {}
    for column, given in hierarchies.items():
        if given.path is not None:
            names[column] = str(given.path)
            continue
        text = given.hierarchy.levels.to_csv(sep=";", header=False, index=False)
        names[column] = portable_name(column, text)
        kept[names[column]] = text
    return names, kept


def unfiled_columns(plan: PlannedHierarchies) -> list[str]:
    """The quasi-identifiers whose hierarchy is no file on disk (built, or a zip's member)."""
    return [c for c in plan.quasi_identifiers if c not in plan.given or not plan.given[c].path]


def recipe_workspace(args: argparse.Namespace, unfiled: Sequence[str]) -> str:
    """The workspace that keeps the hierarchies a recipe names that are no file (""
    when none is), checked before the search; refused with what to do when none is given."""
    if not unfiled:
        return ""
    workspace = args.workspace or os.environ.get(WORKSPACE_ENV) or ""
    if not workspace:
        named = ", ".join(repr(c) for c in unfiled[:5])
        raise AnonymisationError(
            f"--recipe-out: the hierarchies of {named} are no file (built from the data, or "
            "inside a .zip) and list original values, so they are kept in a workspace, never "
            f"written as files: give --workspace FILE (or set ${WORKSPACE_ENV}), and the same "
            "to 'apply'."
        )
    if Path(workspace).exists():
        from core.workspace import Workspace

        Workspace(workspace).close()  # refuses a bad file (not SQLite, too new, read-only)
    else:
        folder = Path(workspace).parent
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise AnonymisationError(
                f"Cannot create the workspace '{workspace}': the folder '{folder}' does not "
                "exist or is not writable."
            )
    return workspace


def sent_paths(args: argparse.Namespace) -> dict[str, Path]:
    """The hierarchy files the options name (inputs: never to be overwritten)."""
    paths = {}
    for given in args.hierarchy:
        column, _, path = given.partition("=")
        if path.strip():
            paths[f"--hierarchy {column.strip()}"] = Path(path.strip())
    for given in args.hierarchies:
        for path in _sent_files(given, ()):
            paths[f"--hierarchies '{path}'"] = path
    return paths


def keep_in_workspace(workspace: str, kept: Mapping[str, str], columns: Mapping[str, str]) -> None:
    """Keep the hierarchies a recipe names by content name in ``workspace`` (one
    transaction each; the same content again is no change)."""
    from core.workspace import Workspace

    with Workspace(workspace) as ws:
        for name, text in kept.items():
            ws.put_hierarchy(name, text, column=columns[name])
