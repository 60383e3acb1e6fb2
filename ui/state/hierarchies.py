"""Hierarchies and population tables that recipe steps name, kept in the workspace and
given to the replay: never written to a file in the working folder (issues 25, 27)."""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pandas as pd

from core.errors import DataReadError
from core.hierarchy import Hierarchy, read_hierarchy
from core.hierarchy_files import read_hierarchy_bytes, shown_name
from core.recipe import Recipe
from core.release.bundle import population_tables, portable_name, stored_table_name, stored_tables
from core.workspace import WorkspaceError, sha256_bytes
from ui.state.loading import side_table
from ui.state.session import session
from ui.state.tradeoffs import hierarchy_choices
from ui.state.workspace import open_workspace, write, write_through


class StoredHierarchies(Mapping[str, str]):
    """The workspace's hierarchies (name -> text), read once, when a step first names one.

    Recipe steps name hierarchies; the dashboard gives their text from the workspace to
    the replay (core.recipe ``hierarchies``) and never writes a hierarchy file: a name in a
    workspace someone sent is not a path to write to (issue 27), and hierarchies built from
    the data hold original values that must not sit in clear in the working folder
    (issue 25). A name the workspace does not hold (a shipped sample hierarchy) is read
    from disk as the recipe gives it.
    """

    def __init__(self) -> None:
        self._texts: dict[str, str] | None = None

    def _loaded(self) -> dict[str, str]:
        if self._texts is None:
            try:
                with open_workspace() as ws:
                    self._texts = ws.hierarchies()
            except WorkspaceError:
                self._texts = {}
        return self._texts

    def __getitem__(self, name: str) -> str:
        return self._loaded()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


#: Session key of :func:`hierarchy_named`'s memo, and how many hierarchies it remembers.
_NAMED = "hierarchies_named"
_NAMED_SIZE = 64


def hierarchy_named(column: str, hierarchy: Hierarchy) -> tuple[str, str]:
    """The name a recipe step records for ``column``'s hierarchy (made from its content)
    and its text, without keeping it: a preview replays steps with it in memory.

    Remembered per hierarchy object: the trade-offs page names the hierarchies of the
    picked and every pinned option on each rerun, and writing a 30,000-value hierarchy
    out takes 70 ms. The memo holds the object itself, so its id is not reused while
    remembered."""
    memo = session().setdefault(_NAMED, {})
    kept = memo.get((column, id(hierarchy)))
    if kept is not None and kept[0] is hierarchy:
        return kept[1], kept[2]
    text = hierarchy.levels.to_csv(sep=";", header=False, index=False)
    name = portable_name(column, text)
    memo[(column, id(hierarchy))] = (hierarchy, name, text)
    while len(memo) > _NAMED_SIZE:
        memo.pop(next(iter(memo)))
    return name, text


def save_hierarchy(column: str, hierarchy: Hierarchy) -> str:
    """Keep a hierarchy that a recipe step refers to in the workspace (its text, under a
    name made from its content); return the name the step records. No file is written."""
    name, text = hierarchy_named(column, hierarchy)
    write(lambda ws: ws.put_hierarchy(name, text, column=column))
    return name


def keep_hierarchy_text(name: str, text: str, column: str) -> None:
    """Keep a hierarchy named as :func:`hierarchy_named` names it in the workspace."""
    write(lambda ws: ws.put_hierarchy(name, text, column=column))


def population_table_name(data: bytes) -> str:
    """The name a k-map step records for an uploaded population table (what
    :func:`save_population_table` returns), without keeping it."""
    return stored_table_name(sha256_bytes(data))


def save_population_table(data: bytes, name: str) -> str:
    """Keep an uploaded population table in the workspace (its rows, as a data set known by
    the upload's sha256), where a k-map step reads it when the recipe replays; return the
    name the step records (core.release.bundle.stored_table_name). No file is written: the table
    holds a population's records, which must not sit in clear in the working folder
    (issue 25). Raises WorkspaceError if the workspace cannot keep it."""
    table = side_table(name, data)
    digest = sha256_bytes(data)
    write_through(
        lambda ws: ws.add_dataset(
            table, name=f"population table {name}", sha256=digest, store_data=True
        )
    )
    return population_table_name(data)


def stored_population_tables(steps: Sequence[Mapping[str, Any]]) -> dict[str, pd.DataFrame]:
    """The population tables ``steps`` name that the workspace keeps (opened only then)."""
    steps_recipe = Recipe(tuple(steps))
    if not population_tables(steps_recipe):
        return {}
    try:
        with open_workspace() as ws:
            return stored_tables(ws, steps_recipe)
    except WorkspaceError:
        return {}  # the step then says it cannot read its table


def keep_uploaded_hierarchy(column: str, data: bytes, file_name: str = "hierarchy.csv") -> str:
    """Keep an uploaded ARX hierarchy (its text) in the workspace; return the name it is
    kept under (a key: show ``file_name`` to people, core.hierarchy_files.shown_name)."""
    hierarchy = read_hierarchy_bytes(file_name, data)  # raises DataReadError if unreadable
    return save_hierarchy(column, hierarchy)


def stored_hierarchy(name: str, shown_as: str | None = None) -> Hierarchy:
    """A hierarchy kept in the workspace, read back (never a file a stored name points at),
    named ``shown_as`` (the file a person uploaded) in its messages, never by its key."""
    text = StoredHierarchies().get(name)
    shown_as = shown_name(shown_as) if shown_as else None
    shown = f" {shown_as!r}" if shown_as else ""
    if text is None:
        raise DataReadError(
            f"The uploaded hierarchy{shown} is not in this workspace: upload it again."
        )
    hierarchy = read_hierarchy(io.StringIO(text))
    return Hierarchy(hierarchy.levels, name=shown_as) if shown_as else hierarchy


def uploaded_file_names(saved: Mapping[str, str]) -> dict[str, str]:
    """For the columns whose hierarchy, kept under ``saved[column]`` (:func:`save_hierarchy`),
    is the one uploaded for it (same content, hence same name), the uploaded file's name:
    what a recipe step says instead of the key (core.search.apply.with_hierarchy_words)."""
    choices = hierarchy_choices()
    return {
        column: shown_name(str(choice["file"]))
        for column, name in saved.items()
        if isinstance(choice := choices.get(column), Mapping)
        and choice.get("kind") == "upload"
        and choice.get("name") == name
        and choice.get("file")
    }
