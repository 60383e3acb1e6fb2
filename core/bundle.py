"""The release bundle: one self-contained zip that shows, and reproduces, a release.

PDPC guide, Step 5: "the details of the anonymisation process, parameters used and
controls should also be clearly recorded". A bundle holds the released table, the recipe
(``recipe.yaml``, seed fixed) with the hierarchy files it uses alongside under relative
paths, ``anonymise.py`` (the recipe as a script), the report (Markdown and JSON), the
identity mapping tables *encrypted* if any, ``MANIFEST.sha256`` (``sha256sum -c``
format) and ``README.txt`` saying how to reproduce the release: in a folder with the
original data, ``python anonymise.py ORIGINAL.csv OUT.csv`` (with this project's ``core``
importable) writes an OUT.csv byte-identical to the released file.

Recipes made elsewhere point at hierarchy files by path (``hierarchies/age-1a2b.csv``,
or anywhere on disk). :func:`portable_recipe` reads each one and renames it by content
(``hierarchies/<column>-<sha256 prefix>.csv``), so the recipe, its hierarchies and the
script travel together and the workspace can keep hierarchies as content, not paths.

The zip is deterministic: entries in a fixed order with a fixed timestamp, so the same
release gives the same bundle bytes.
"""

from __future__ import annotations

import hashlib
import io
import re
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

from core.errors import RecipeError
from core.io import table_to_bytes
from core.recipe import Recipe, RecipeResult, apply_recipe, to_python_script
from core.techniques.registry import resolve

HIERARCHY_FOLDER = "hierarchies"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip can hold: no build time leaks
_PORTABLE_NAME = re.compile(r"^hierarchies/[A-Za-z0-9_-]{1,80}\.csv$")


def _safe_stem(text: str, fallback: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", str(text)).strip("_")[:40]
    return stem or fallback


def portable_name(column: Any, text: str) -> str:
    """The name a hierarchy's text travels and is kept under (bundle, workspace):
    ``hierarchies/<column>-<first 10 hex of its sha256>.csv``."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
    return f"{HIERARCHY_FOLDER}/{_safe_stem(column or '', 'hierarchy')}-{digest}.csv"


def portable_recipe(
    recipe: Recipe,
    *,
    base_dir: str | Path | None = None,
    known: Mapping[str, str] | None = None,
) -> tuple[Recipe, dict[str, str]]:
    """The recipe with every hierarchy file renamed by content, and those files' text.

    Each step's ``hierarchy`` path is read from ``known`` (name -> text, e.g. the
    workspace's hierarchies) or else from disk (relative to ``base_dir``), and replaced
    by ``hierarchies/<column>-<first 10 hex of sha256>.csv``. The text is kept byte for
    byte, so the hierarchy reads back exactly as before.
    """
    known = dict(known or {})
    files: dict[str, str] = {}

    def portable(position: int, column: Any, source: Any) -> str:
        source = str(source)
        if source in known:
            text = known[source]
        else:
            path = Path(source)
            if base_dir is not None and not path.is_absolute():
                path = Path(base_dir) / path
            try:
                text = path.read_bytes().decode("utf-8")
            except OSError as error:
                raise RecipeError(
                    f"Step {position} (generalise '{column}'): cannot read "
                    f"hierarchy file '{source}' ({error.strerror}). Put it next to the recipe "
                    "or give its full path."
                ) from None
            except UnicodeDecodeError:
                raise RecipeError(
                    f"Step {position}: hierarchy file '{source}' is not UTF-8 text."
                ) from None
        name = portable_name(column, text)
        files[name] = text
        return name

    steps = []
    for position, step in enumerate(recipe.steps, start=1):
        if "hierarchy" in step:
            step = {**step, "hierarchy": portable(position, step.get("column"), step["hierarchy"])}
        if isinstance(step.get("hierarchies"), Mapping):  # recode_locally: one per column
            step = {**step, "hierarchies": {column: portable(position, column, source)
                                            for column, source in step["hierarchies"].items()}}  # fmt: skip
        t_closeness = step.get("t_closeness")  # hierarchical distance names the sensitive's
        if isinstance(t_closeness, Mapping) and "hierarchy" in t_closeness:
            name = portable(position, t_closeness.get("sensitive"), t_closeness["hierarchy"])
            step = {**step, "t_closeness": {**t_closeness, "hierarchy": name}}
        k_map = step.get("k_map")  # with a population table: the data's hierarchies
        if isinstance(k_map, Mapping) and isinstance(k_map.get("hierarchies"), Mapping):
            moved = {column: portable(position, column, source)
                     for column, source in k_map["hierarchies"].items()}  # fmt: skip
            step = {**step, "k_map": {**k_map, "hierarchies": moved}}
        k_map = step.get("k_map")  # the population table is data: never copied, only located
        if isinstance(k_map, Mapping) and isinstance(k_map.get("population_table"), str):
            table = Path(k_map["population_table"])
            if base_dir is not None and not table.is_absolute():
                table = Path(base_dir) / table
            # Absolute, so a replay from the workspace (hierarchies in a temporary folder)
            # still finds it; the bundle's README says where the file must be.
            step = {**step, "k_map": {**k_map, "population_table": str(table.resolve())}}
        steps.append(dict(step))
    return Recipe(tuple(steps), recipe.seed, dict(recipe.meta)), files


def _check_portable_name(name: str) -> str:
    """Only names made by :func:`portable_recipe` may become files (no ``..``, no roots)."""
    if not is_portable_name(name):
        raise RecipeError(
            f"Hierarchy name {name!r} is not a bundle file name (hierarchies/<name>.csv)."
        )
    return name


def is_portable_name(name: Any) -> bool:
    """Whether ``name`` has the shape :func:`portable_name` makes (``hierarchies/<stem>.csv``:
    no folder above, no root, no ``..``): the only hierarchy names a workspace keeps."""
    return isinstance(name, str) and _PORTABLE_NAME.fullmatch(name) is not None


def write_hierarchies(files: Mapping[str, str], folder: str | Path) -> None:
    """Write portable hierarchy files (see :func:`portable_recipe`) under ``folder``."""
    for name, text in files.items():
        path = Path(folder) / PurePosixPath(_check_portable_name(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def replay(
    original: pd.DataFrame,
    recipe: Recipe,
    hierarchies: Mapping[str, str],
    *,
    pseudonym_seed: int | None = None,
) -> RecipeResult:
    """Apply a portable recipe whose hierarchies are given as content (e.g. a workspace's)."""
    if recipe.seed is None:
        raise RecipeError("A recorded release must have a seed to be replayed.")
    with tempfile.TemporaryDirectory(prefix="anon-replay-") as folder:
        write_hierarchies(hierarchies, folder)
        return apply_recipe(original, recipe, base_dir=folder, pseudonym_seed=pseudonym_seed)


def uses_random_pseudonyms(recipe: Recipe) -> bool:
    """Whether a step draws random pseudonyms (secret entropy: not reproducible by design)."""
    return any(resolve(step).secret_seed for step in recipe.steps)


def key_variables(recipe: Recipe) -> list[str]:
    """The environment variables the recipe reads keys from (names only, never values)."""
    return sorted({str(step["key_env"]) for step in recipe.steps if "key_env" in step})


@dataclass(frozen=True)
class Bundle:
    """The files of a release bundle (name -> bytes) and the zip made of them."""

    files: dict[str, bytes]

    def manifest(self) -> str:
        return "".join(
            f"{hashlib.sha256(data).hexdigest()}  {name}\n"
            for name, data in sorted(self.files.items())
        )

    def to_zip(self) -> bytes:
        buffer = io.BytesIO()
        entries = {**self.files, "MANIFEST.sha256": self.manifest().encode("utf-8")}
        with zipfile.ZipFile(buffer, "w") as archive:
            for name in sorted(entries):
                info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3  # Unix, so the mode below means the same everywhere
                info.external_attr = 0o644 << 16
                archive.writestr(info, entries[name])
        return buffer.getvalue()


def population_tables(recipe: Recipe) -> list[str]:
    """The population tables the recipe's k-map steps read (data: never in a bundle)."""
    tables = []
    for step in recipe.steps:
        k_map = step.get("k_map")
        if isinstance(k_map, Mapping) and isinstance(k_map.get("population_table"), str):
            tables.append(k_map["population_table"])
    return tables


def _readme(released_name: str, released_sha: str, recipe: Recipe, mappings: list[str]) -> str:
    lines = [
        "Release bundle (PDPC Guide to Basic Anonymisation, Step 5: record what was done).",
        "",
        "Files",
        f"  {released_name}: the released (anonymised) table.",
        "  recipe.yaml: every step and parameter, with the seed of the random steps.",
        "  hierarchies/: the generalisation hierarchies the recipe uses (relative paths).",
        "  anonymise.py: the recipe as a Python script.",
        "  report.md, report.json: what was done, the residual risk, the controls.",
    ]
    if mappings:
        lines.append(
            "  mapping/: identity mapping tables, encrypted (AES-256-GCM, scrypt passphrase). "
            "Keep them apart from the data; the passphrase is not in this bundle."
        )
    lines += [
        "  MANIFEST.sha256: the sha256 of every file (check with: sha256sum -c MANIFEST.sha256).",
        "",
        "How to reproduce the release",
        "  1. Put the original data (the file the release was made from) in this folder.",
        "  2. Make this project's 'core' package importable, e.g.",
        "     PYTHONPATH=/path/to/the/project python anonymise.py ORIGINAL.csv OUT.csv",
        f"  3. OUT.csv is then byte-identical to {released_name}:",
        f"     sha256 {released_sha}",
        "  Use the same output format as the released file (.csv, .tsv or .parquet).",
        f"  The recipe's seed ({recipe.seed}) fixes every random step.",
    ]
    for table in population_tables(recipe):
        lines.append(
            "  k-map's population table is data, so it is not in this bundle: the recipe reads "
            f"it from {table!r} (see recipe.yaml, k_map population_table); put the same file "
            "there or change that path."
        )
    keys = key_variables(recipe)
    if keys:
        lines.append(
            "  Keyed pseudonyms need their keys in these environment variables (values are "
            f"never stored): {', '.join(keys)}."
        )
    if uses_random_pseudonyms(recipe):
        lines.append(
            "  Random pseudonyms are drawn from secret entropy and differ on every run: those "
            "columns cannot be reproduced (by design); use the mapping table instead."
        )
    return "\n".join(lines) + "\n"


def build_bundle(
    *,
    released: bytes,
    released_name: str,
    recipe: Recipe,
    hierarchies: Mapping[str, str],
    report: Any = None,
    encrypted_mappings: Mapping[str, bytes] | None = None,
) -> Bundle:
    """Gather a release's files. ``recipe`` must be portable (see :func:`portable_recipe`)
    and carry the seed the release used; ``report`` is a :class:`core.report.Report`."""
    from core.report import report_to_markdown

    if recipe.seed is None:
        raise RecipeError("A release bundle needs the seed the release used (recipe 'seed').")
    suffix = Path(str(released_name)).suffix.lower()
    if not re.fullmatch(r"\.[a-z]{1,8}", suffix):
        suffix = ".csv"
    name = f"released{suffix}"
    files: dict[str, bytes] = {
        name: bytes(released),
        "recipe.yaml": recipe.to_yaml().encode("utf-8"),
        "anonymise.py": to_python_script(recipe).encode("utf-8"),
    }
    for hierarchy, text in hierarchies.items():
        files[_check_portable_name(hierarchy)] = text.encode("utf-8")
    for step in recipe.steps:
        used = (
            list(step["hierarchies"].values())
            if isinstance(step.get("hierarchies"), Mapping)
            else []
        )
        used += [step["hierarchy"]] if "hierarchy" in step else []
        t_closeness = step.get("t_closeness")
        if isinstance(t_closeness, Mapping) and "hierarchy" in t_closeness:
            used.append(t_closeness["hierarchy"])
        for hierarchy in used:
            if hierarchy not in files:
                raise RecipeError(f"Hierarchy '{hierarchy}' is missing from the bundle.")
    if report is not None:
        import json

        files["report.md"] = report_to_markdown(report).encode("utf-8")
        files["report.json"] = json.dumps(
            report.to_dict(), indent=2, ensure_ascii=False, default=str
        ).encode("utf-8")
    mapping_names = []
    for column, blob in (encrypted_mappings or {}).items():
        entry = f"mapping/{_safe_stem(column, 'table')}.enc"
        files[entry] = bytes(blob)
        mapping_names.append(entry)
    released_sha = hashlib.sha256(bytes(released)).hexdigest()
    files["README.txt"] = _readme(name, released_sha, recipe, mapping_names).encode("utf-8")
    return Bundle(files)


def released_bytes(result: RecipeResult, name: str) -> bytes:
    """The released table as the bytes of a file called ``name`` (format from its suffix)."""
    suffix = Path(str(name)).suffix.lower().lstrip(".") or "csv"
    return table_to_bytes(result.data, "parquet" if suffix == "pq" else suffix)
