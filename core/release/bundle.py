"""What a release leaves the building with: the recipient bundle and the internal archive.

PDPC guide, Step 5: "the details of the anonymisation process, parameters used and
controls should also be clearly recorded", and identity mapping tables are kept securely
and apart. So a release has two packages (issue 25, item 5):

- The **recipient bundle** (:func:`build_bundle`, ``apply --bundle``, the Report page's
  bundle) holds the released table, the report, the recipe and the script, and no value of
  the original table that the released table does not hold. A hierarchy built from the
  data (bands, dates to a period, masking, suppression) goes in as the rule that builds it
  (``hierarchy_rule: {kind: dates, levels: [month, year]}``, see
  :mod:`core.hierarchy_rules`), never as its list of original values. An enumerated
  hierarchy file (a grouping, a file made by hand or by ARX) is left out and named in the
  README: cut down to the released values it could no longer re-run the step, and its
  upper levels are labels someone typed, which may name anything. Identity mapping
  tables never go in, not even encrypted.
- The **internal archive** (:func:`build_archive`, ``apply --archive``, the Report page's
  "For your records (internal)") holds what reproduces the release: the recipe with every
  hierarchy file (original values), the script, the encrypted identity mapping tables,
  the released table and the report. Its README says it holds personal data; the command
  line writes it with mode 0600 and never over an existing file.

Both are zips with ``MANIFEST.sha256`` (``sha256sum -c`` format) and ``README.txt``. In a
folder with the original data, ``python anonymise.py ORIGINAL.csv OUT.csv`` (with this
project's ``core`` importable) writes an OUT.csv byte-identical to the released file: from
the archive always, from the recipient bundle when every hierarchy is a rule.

Recipes made elsewhere point at hierarchy files by path (``hierarchies/age-1a2b.csv``,
or anywhere on disk). :func:`portable_recipe` reads each one and renames it by content
(``hierarchies/<column>-<sha256 prefix>.csv``), so the recipe, its hierarchies and the
script travel together and the workspace can keep hierarchies as content, not paths.

The zips are deterministic: entries in a fixed order with a fixed timestamp, so the same
release gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import re
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

import pandas as pd

from core.errors import RecipeError
from core.formatting import json_figures
from core.io import table_to_bytes
from core.outputs import file_name_part
from core.recipe import Recipe, RecipeResult, apply_recipe, describe_step, to_python_script
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
            step = {
                **step,
                "hierarchies": {
                    column: portable(position, column, source)
                    if isinstance(source, str)
                    else source  # a rule
                    for column, source in step["hierarchies"].items()
                },
            }
        t_closeness = step.get("t_closeness")  # hierarchical distance names the sensitive's
        if isinstance(t_closeness, Mapping) and "hierarchy" in t_closeness:
            name = portable(position, t_closeness.get("sensitive"), t_closeness["hierarchy"])
            step = {**step, "t_closeness": {**t_closeness, "hierarchy": name}}
        k_map = step.get("k_map")  # with a population table: the data's hierarchies
        if isinstance(k_map, Mapping) and isinstance(k_map.get("hierarchies"), Mapping):
            moved = {
                column: portable(position, column, source)
                for column, source in k_map["hierarchies"].items()
            }
            step = {**step, "k_map": {**k_map, "hierarchies": moved}}
        k_map = step.get("k_map")  # the population table is data: never copied, only located
        if (
            isinstance(k_map, Mapping)
            and isinstance(k_map.get("population_table"), str)
            and stored_table_sha256(k_map["population_table"]) is None
        ):
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
    tables: Mapping[str, pd.DataFrame] | None = None,
) -> RecipeResult:
    """Apply a portable recipe whose hierarchies are given as content (e.g. a workspace's),
    and its k-map population tables kept by name as ``tables``."""
    if recipe.seed is None:
        raise RecipeError("A recorded release must have a seed to be replayed.")
    with tempfile.TemporaryDirectory(prefix="anon-replay-") as folder:
        write_hierarchies(hierarchies, folder)
        return apply_recipe(
            original, recipe, base_dir=folder, pseudonym_seed=pseudonym_seed, tables=tables
        )


def uses_random_pseudonyms(recipe: Recipe) -> bool:
    """Whether a step draws random pseudonyms (secret entropy: not reproducible by design)."""
    return any(resolve(step).secret_seed for step in recipe.steps)


def key_variables(recipe: Recipe) -> list[str]:
    """The environment variables the recipe reads keys from (names only, never values)."""
    return sorted({str(step["key_env"]) for step in recipe.steps if "key_env" in step})


@dataclass(frozen=True)
class Bundle:
    """The files of a release package (name -> bytes) and the zip made of them.

    ``private``: the zip's entries say mode 0600, so that unzipping the internal archive
    keeps its files readable by their owner only (the recipient bundle's are 0644).
    """

    files: dict[str, bytes]
    private: bool = False

    def manifest(self) -> str:
        return "".join(
            f"{hashlib.sha256(data).hexdigest()}  {name}\n"
            for name, data in sorted(self.files.items())
        )

    def to_zip(self) -> bytes:
        buffer = io.BytesIO()
        entries = {**self.files, "MANIFEST.sha256": self.manifest().encode("utf-8")}
        mode = 0o600 if self.private else 0o644
        with zipfile.ZipFile(buffer, "w") as archive:
            for name in sorted(entries):
                info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3  # Unix, so the mode below means the same everywhere
                info.external_attr = mode << 16
                archive.writestr(info, entries[name])
        return buffer.getvalue()


#: How a recipe names a k-map population table kept in a workspace (its rows stored as a
#: data set, by the sha256 of the upload): the dashboard writes no file for it (issue 25).
STORED_TABLE_PREFIX = "workspace:population-"


def stored_table_name(sha256: str) -> str:
    """The name a recipe gives a population table kept in the workspace."""
    return f"{STORED_TABLE_PREFIX}{sha256}"


def stored_table_sha256(name: str) -> str | None:
    """The sha256 of the data set a stored table's name points at (None: a file path)."""
    digest = name[len(STORED_TABLE_PREFIX) :] if name.startswith(STORED_TABLE_PREFIX) else ""
    return digest if re.fullmatch(r"[0-9a-f]{64}", digest) else None


def stored_tables(workspace: Any, recipe: Recipe) -> dict[str, pd.DataFrame]:
    """The population tables ``recipe`` names that ``workspace`` keeps (name -> table), for
    core.recipe's ``tables``; one it names but does not keep is left out (its step then
    says it cannot read it)."""
    tables = {}
    for name in population_tables(recipe):
        digest = stored_table_sha256(name)
        table = workspace.dataset_table(digest) if digest else None
        if table is not None:
            tables[name] = table
    return tables


def population_tables(recipe: Recipe) -> list[str]:
    """The population tables the recipe's k-map steps read (data: never in a bundle)."""
    tables = []
    for step in recipe.steps:
        k_map = step.get("k_map")
        if isinstance(k_map, Mapping) and isinstance(k_map.get("population_table"), str):
            tables.append(k_map["population_table"])
    return tables


def hierarchy_names(step: Mapping[str, Any]) -> list[str]:
    """Every hierarchy file a (portable) step names: generalise's, recode_locally's, and
    those of t-closeness (hierarchical distance) and k-map (population table)."""
    names = [step["hierarchy"]] if "hierarchy" in step else []
    if isinstance(step.get("hierarchies"), Mapping):  # recode_locally: a file or a rule each
        names += [v for v in step["hierarchies"].values() if isinstance(v, str)]
    t_closeness = step.get("t_closeness")
    if isinstance(t_closeness, Mapping) and "hierarchy" in t_closeness:
        names.append(t_closeness["hierarchy"])
    k_map = step.get("k_map")
    if isinstance(k_map, Mapping) and isinstance(k_map.get("hierarchies"), Mapping):
        names += list(k_map["hierarchies"].values())
    return [str(name) for name in names]


@dataclass(frozen=True)
class RecipientRecipe:
    """The recipe as a recipient gets it: rules instead of hierarchy files where a rule
    rebuilds the file (``rules``: file name -> words), and the files left out."""

    recipe: Recipe
    rules: dict[str, str]
    left_out: dict[str, str]  # file name -> why (and its rule in words, if it has one)
    held_back: int = 0  # rare original values the recipe named, written [held back n]

    @property
    def replayable(self) -> bool:
        """Whether the bundle's script can re-run the release from the original data."""
        return not self.left_out and not self.held_back


def recipient_recipe(
    recipe: Recipe,
    hierarchies: Mapping[str, str],
    *,
    rare_values: frozenset[str] = frozenset(),
) -> RecipientRecipe:
    """``recipe`` (portable, see :func:`portable_recipe`) with no hierarchy file in it.

    A ``generalise`` step whose hierarchy a builder made gets ``hierarchy_rule`` instead of
    ``hierarchy``, and ``recode_locally`` the rule in place of the file name
    (:func:`core.hierarchy_rules.rule_of_text` checks that the rule rebuilds the file cell
    for cell), so they still run. Any other hierarchy file keeps its name in the recipe,
    and is left out: the internal archive has it. A step's ``level_example`` is left out
    (a label of its hierarchy, which may name one person). A literal of the recipe in
    ``rare_values`` is written ``[held back n]`` (:mod:`core.release.recipient_values`).
    """
    from core.hierarchy_rules import HierarchyRule, rule_of_text
    from core.release.recipient_values import hold_back

    def rule(name: str) -> HierarchyRule | None:
        text = hierarchies.get(name)
        return rule_of_text(text) if text is not None else None

    rules: dict[str, str] = {}
    left_out: dict[str, str] = {}
    steps = []
    for step in recipe.steps:
        # a level's example is a label of the hierarchy, which may be one person's (a street
        # the release removed): the recipient reads the levels in the released table instead
        step = {name: value for name, value in step.items() if name != "level_example"}
        found = rule(str(step["hierarchy"])) if "hierarchy" in step else None
        if step.get("step") == "generalise" and found is not None:
            rules[str(step.pop("hierarchy"))] = found.describe()
            step = {**step, "hierarchy_rule": found.to_dict()}
        if step.get("step") == "recode_locally" and isinstance(step.get("hierarchies"), Mapping):
            given = dict(step["hierarchies"])
            for column, name in given.items():
                found = rule(name) if isinstance(name, str) else None
                if found is not None:
                    rules[name] = found.describe()
                    given[column] = found.to_dict()
            step = {**step, "hierarchies": given}
        for name in hierarchy_names(step):
            found = rule(name)
            if found is not None:  # a rule, but this step needs the file (local recoding...)
                left_out[name] = f"built by a rule ({found.describe()}); this step reads the file"
            else:
                left_out[name] = "enumerated (lists original values)"
        steps.append(step)
    held, count = hold_back(Recipe(tuple(steps), recipe.seed, dict(recipe.meta)), rare_values)
    return RecipientRecipe(held, rules, left_out, count)


def _reproduce_lines(released_name: str, released_sha: str, recipe: Recipe) -> list[str]:
    lines = [
        "  1. Put the original data (the file the release was made from) in this folder.",
        "  2. Make this project's 'core' package importable, e.g.",
        "     PYTHONPATH=/path/to/the/project python anonymise.py ORIGINAL.csv OUT.csv",
        f"  3. OUT.csv is then byte-identical to {released_name}:",
        f"     sha256 {released_sha}",
        "  Use the same output format as the released file (.csv, .tsv or .parquet).",
        f"  The recipe's seed ({recipe.seed}) fixes every random step.",
    ]
    for table in population_tables(recipe):
        if stored_table_sha256(table) is not None:
            lines.append(
                "  k-map's population table is data, so it is not in this package: it is kept "
                f"in the workspace the release was recorded in ({table!r} in recipe.yaml, its "
                "sha256); save it from there as a file and put that file's path in its place."
            )
            continue
        lines.append(
            "  k-map's population table is data, so it is not in this package: the recipe reads "
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
            "columns cannot be reproduced (by design); the internal archive keeps the "
            "identity mapping tables."
        )
    return lines


def _recipient_readme(
    released_name: str, released_sha: str, recipient: RecipientRecipe, mappings: bool
) -> str:
    lines = [
        "Release bundle for the recipient (PDPC Guide to Basic Anonymisation, Step 5).",
        "",
        "It holds no value of the original table that the released table does not also",
        "hold: hierarchies built from the data are written as the rule that builds them, and",
        "hierarchy files that list original values, and identity mapping tables, stay with",
        "the data holder (in the internal reproduction archive).",
        "",
        "Files",
        f"  {released_name}: the released (anonymised) table.",
        "  recipe.yaml: every step and parameter, with the seed of the random steps.",
        "  anonymise.py: the recipe as a Python script.",
        "  report.md, report.json: what was done, the residual risk, the controls.",
        "  MANIFEST.sha256: the sha256 of every file (check with: sha256sum -c MANIFEST.sha256).",
    ]
    if recipient.rules:
        lines += ["", "Hierarchies, as rules (recipe.yaml, hierarchy_rule)"]
        lines += [f"  {name}: {words}." for name, words in sorted(recipient.rules.items())]
    if recipient.left_out:
        lines += ["", "Hierarchy files not in this bundle (named in recipe.yaml)"]
        lines += [f"  {name}: {why}." for name, why in sorted(recipient.left_out.items())]
    if recipient.held_back:
        lines += [
            "",
            f"{recipient.held_back} value(s) the recipe names are rare values of the "
            "original table that the released table does not hold: recipe.yaml writes "
            "them [held back 1], [held back 2]...; the internal archive's recipe has them.",
        ]
    if mappings:
        lines += ["", "Identity mapping tables were made; they are not in this bundle."]
    lines += ["", "How to reproduce the release (for the data holder)"]
    if recipient.replayable:
        lines += _reproduce_lines(released_name, released_sha, recipient.recipe)
    else:
        lines += [
            "  The hierarchy files or values held back above are needed: re-run the release",
            "  from the internal reproduction archive, which has them. The released file's",
            f"  sha256 is {released_sha}.",
        ]
    return "\n".join(lines) + "\n"


def _report_files(report: Any) -> dict[str, bytes]:
    if report is None:
        return {}
    import json

    from core.release.report import report_to_markdown

    return {
        "report.md": report_to_markdown(report).encode("utf-8"),
        "report.json": json.dumps(
            json_figures(report.to_dict()), indent=2, ensure_ascii=False, default=str
        ).encode("utf-8"),
    }


def _recipient_report(report: Any, recipe: Recipe) -> Any:
    """The report with the recipient's recipe: its steps say "dates to year", not the name
    of a hierarchy file the recipient does not get (and its recipe is recipe.yaml's)."""
    steps = recipe.steps
    log = tuple(
        {
            **entry,
            "step": steps[entry["position"] - 1],
            "summary": describe_step(steps[entry["position"] - 1]),
        }
        if 0 < entry.get("position", 0) <= len(steps)
        else entry
        for entry in report.step_log
    )
    return replace(report, recipe=recipe, step_log=log)


def _released_name(released_name: str) -> str:
    suffix = Path(str(released_name)).suffix.lower()
    if not re.fullmatch(r"\.[a-z]{1,8}", suffix):
        suffix = ".csv"
    return f"released{suffix}"


def build_bundle(
    *,
    released: bytes,
    released_name: str,
    recipe: Recipe,
    hierarchies: Mapping[str, str],
    report: Any = None,
    made_mappings: bool = False,
    original: pd.DataFrame | None = None,
    released_table: pd.DataFrame | None = None,
    k: int | None = None,
) -> Bundle:
    """The recipient bundle (see the module docstring). ``recipe`` must be portable (see
    :func:`portable_recipe`) and carry the seed the release used; ``hierarchies`` are its
    files by name (read only to find their rules, never copied); ``report`` is a
    :class:`core.release.report.Report`. ``made_mappings``: the README says that identity mapping
    tables exist and are kept by the data holder. Given the ``original`` table (and the
    ``released_table``), the recipe's literals that are rare original values the release
    does not hold are held back (:mod:`core.release.recipient_values`): those that fewer than ``k``
    records hold (the release's target k; else the recipe's, else 5)."""
    from core.release.recipient_values import rare_unreleased_values, recipe_literals

    if recipe.seed is None:
        raise RecipeError("A release bundle needs the seed the release used (recipe 'seed').")
    _require_hierarchies(recipe, hierarchies)
    rare = frozenset()
    if original is not None:
        below = k if k is not None else recipe.meta.get("k")
        below = below if isinstance(below, int) and not isinstance(below, bool) else 5
        rare = rare_unreleased_values(
            original, released_table, below=max(below, 2), among=recipe_literals(recipe)
        )
    recipient = recipient_recipe(recipe, hierarchies, rare_values=rare)
    name = _released_name(released_name)
    files: dict[str, bytes] = {
        name: bytes(released),
        "recipe.yaml": recipient.recipe.to_yaml().encode("utf-8"),
        "anonymise.py": to_python_script(recipient.recipe).encode("utf-8"),
        **_report_files(None if report is None else _recipient_report(report, recipient.recipe)),
    }
    released_sha = hashlib.sha256(bytes(released)).hexdigest()
    readme = _recipient_readme(name, released_sha, recipient, made_mappings)
    files["README.txt"] = readme.encode("utf-8")
    return Bundle(files)


def _require_hierarchies(recipe: Recipe, hierarchies: Mapping[str, str]) -> None:
    for step in recipe.steps:
        for hierarchy in hierarchy_names(step):
            if hierarchy not in hierarchies:
                raise RecipeError(f"Hierarchy '{hierarchy}' is missing from the bundle.")


def _archive_readme(
    released_name: str, released_sha: str, recipe: Recipe, mappings: list[str]
) -> str:
    lines = [
        "INTERNAL REPRODUCTION ARCHIVE: HOLDS PERSONAL DATA. DO NOT SEND IT TO A RECIPIENT.",
        "",
        "Its hierarchy files list values of the original table (addresses, dates of birth,",
        "postal codes...) and its identity mapping tables link pseudonyms back to people.",
        "Keep it as securely as the original data, apart from the released data (PDPC Guide",
        "to Basic Anonymisation, Step 5 and Annex A: Pseudonymisation). What goes to a",
        "recipient is the release bundle, which holds none of this.",
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
            "The passphrase is not in this archive."
        )
    lines += [
        "  MANIFEST.sha256: the sha256 of every file (check with: sha256sum -c MANIFEST.sha256).",
        "",
        "How to reproduce the release",
        *_reproduce_lines(released_name, released_sha, recipe),
    ]
    return "\n".join(lines) + "\n"


def build_archive(
    *,
    released: bytes,
    released_name: str,
    recipe: Recipe,
    hierarchies: Mapping[str, str],
    report: Any = None,
    encrypted_mappings: Mapping[str, bytes] | None = None,
) -> Bundle:
    """The internal reproduction archive (see the module docstring): ``recipe`` portable
    with its seed, every hierarchy file, the identity mapping tables *encrypted* (a plain
    one is never taken), the released table and the report. Its zip entries are 0600."""
    if recipe.seed is None:
        raise RecipeError("A reproduction archive needs the seed the release used (recipe 'seed').")
    name = _released_name(released_name)
    files: dict[str, bytes] = {
        name: bytes(released),
        "recipe.yaml": recipe.to_yaml().encode("utf-8"),
        "anonymise.py": to_python_script(recipe).encode("utf-8"),
        **_report_files(report),
    }
    for hierarchy, text in hierarchies.items():
        files[_check_portable_name(hierarchy)] = text.encode("utf-8")
    _require_hierarchies(recipe, files)
    mapping_names = []
    for column, blob in (encrypted_mappings or {}).items():
        # file_name_part: 'NRIC no' and 'NRIC/no' differ by a hash (a plain stem merged them)
        entry = f"mapping/{file_name_part(column)}.enc"
        if entry in files:
            raise RecipeError(
                f"Two identity mapping tables would both be stored as {entry!r}; "
                "rename one of their columns."
            )
        files[entry] = bytes(blob)
        mapping_names.append(entry)
    released_sha = hashlib.sha256(bytes(released)).hexdigest()
    readme = _archive_readme(name, released_sha, recipe, mapping_names)
    files["README.txt"] = readme.encode("utf-8")
    return Bundle(files, private=True)


def released_bytes(result: RecipeResult, name: str) -> bytes:
    """The released table as the bytes of a file called ``name`` (format from its suffix)."""
    suffix = Path(str(name)).suffix.lower().lstrip(".") or "csv"
    return table_to_bytes(result.data, "parquet" if suffix == "pq" else suffix)
