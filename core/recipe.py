"""Recipes: the ordered steps that turn an original table into a released one.

A recipe is the only way data changes (the dashboard records every action as a step),
so any result can be replayed, undone and redone, reviewed, and exported as a runnable
Python script. The guide asks for exactly this record: "the details of the
anonymisation process, parameters used and controls should also be clearly recorded"
(PDPC guide, Step 5) — and adds that the record must be kept securely, since the
parameters may help re-identification.

File format (YAML, read with a safe loader, so a recipe cannot run code; anchors and
aliases (``&name`` / ``*name``) are refused, so a few hundred bytes cannot expand into
gigabytes, the "billion laughs" attack)::

    version: 1
    name: hospital release 2026
    seed: 2024            # seeds the random steps that have no seed of their own
    quasi_identifiers: [age, sex, postal_code]
    sensitive: diagnosis
    k: 5
    direct_identifiers: [name, email, nric]   # optional: default, the Step 1 suggestions
    not_quasi_identifiers: {ward: "the ward is not published anywhere"}   # Step 1 doubts decided
    reviewed_text: {notes: {by: A. Tan, at: 2026-11-27, rows_checked: 50}}   # free text read
    targets: {l_diversity: {sensitive: diagnosis, l: 3, kind: entropy}}   # core.release.targets
    annex_d: {controls: medium, motivation: low, harm: medium}   # optional (Annex D)
    steps:
      - {step: remove, columns: [name, email]}
      - {step: pseudonymise, column: nric, method: hmac, key_env: ANON_PSEUDONYM_KEY}
      - {step: generalise, column: age, width: 10}
      - {step: mask, column: postal_code, preset: postal_code}
      - {step: suppress_records, below_k: 5, quasi_identifiers: [age, sex, postal_code]}

Secrets never appear in a recipe: HMAC keys are named by environment variable, and
random pseudonyms are drawn from the operating system's secure generator (the guide
warns that a pseudo-random generator's seed must be protected like a key), so their
only record is the identity mapping table, which is kept apart from the data.
"""

from __future__ import annotations

import datetime as dt
import io
import keyword
import math
import secrets
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from core.errors import AnonymisationError, ParameterError, RecipeError, parser_message
from core.hierarchy import read_hierarchy
from core.hierarchy_words import check_hierarchy_words
from core.progress import ProgressFn, no_progress
from core.release.targets import parse_targets
from core.techniques.pseudonymisation import Pseudonymised, chain_mapping, key_from_env
from core.techniques.registry import STEPS, TECHNIQUES, Call, Ref, describe_step_plain, resolve
from core.text_rescan import check_review
from core.validation import require_columns

RECIPE_VERSION = 1
#: Largest recipe file read (a recipe is a short list of steps; mappings can be long).
MAX_RECIPE_BYTES = 2**20
_META_KEYS = (
    "name",
    "description",
    "quasi_identifiers",
    "sensitive",
    "k",
    "use_case",
    "direct_identifiers",
    "annex_d",
    "not_quasi_identifiers",
    "reviewed_text",
    "targets",
)
#: Settings of the Annex D model a recipe may give (core.risk.annex_d_risk's keywords).
ANNEX_D_KEYS = ("controls", "motivation", "acquaintance", "breach", "harm")


class _NoAliasLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses anchors and aliases before anything is built.

    A recipe never needs them, and nested aliases ("billion laughs") let a 500-byte file
    expand into gigabytes of lists when the document is constructed.
    """

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            mark = event.start_mark
            raise RecipeError(
                f"The recipe uses a YAML anchor or alias ('&' or '*') at line {mark.line + 1}, "
                f"column {mark.column + 1}; recipes may not use them (they can expand a small "
                "file into gigabytes). Write every value out in full."
            )
        return super().compose_node(parent, index)


class _NoAliasDumper(yaml.SafeDumper):
    """``yaml.SafeDumper`` that writes a value used twice (e.g. one quasi-identifier list in
    the recipe and in a step) out in full, never as an anchor and alias, which
    :class:`_NoAliasLoader` would refuse when the recipe is read back."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


#: Deepest nesting of '[' and '{' read: PyYAML's time grows with the square of it (1,946
#: opening brackets took 1.5 s), and a recipe needs a handful.
MAX_FLOW_DEPTH = 64


def _flow_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text`` (brackets in quotes count too: an
    upper bound), counted without a Python loop over the characters."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    steps = np.isin(codes, (ord("["), ord("{"))).astype(np.int64)
    steps -= np.isin(codes, (ord("]"), ord("}")))
    return int(np.cumsum(steps).max(initial=0))


def _parse_yaml(text: str) -> Any:
    """The YAML document in ``text``, parsed without anchors/aliases (see _NoAliasLoader)."""
    loader = _NoAliasLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def _check_seed(value: Any, what: str) -> int:
    """A seed must be a whole number >= 0 (it is recorded and replayed exactly)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecipeError(f"{what} must be a whole number >= 0, got {value!r}.")
    return value


def _check_step(step: Any, position: int) -> None:
    """Check one step's technique and parameters, and its own seed if it has one."""
    resolve(step, position=position)
    if "seed" in step:
        _check_seed(step["seed"], f"Step {position} ({step['step']}): 'seed'")


@dataclass(frozen=True)
class Recipe:
    """An ordered list of steps plus what the release is about (immutable)."""

    steps: tuple[dict[str, Any], ...] = ()
    seed: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.seed is not None:
            _check_seed(self.seed, "The recipe's 'seed'")
        for position, step in enumerate(self.steps, start=1):
            _check_step(step, position)

    # -- editing (each returns a new recipe) --
    def add(self, step: Mapping[str, Any]) -> Recipe:
        """A new recipe with ``step`` appended (checked first)."""
        step = dict(step)
        _check_step(step, len(self.steps) + 1)
        return replace(self, steps=(*self.steps, step))

    def remove_step(self, index: int) -> Recipe:
        steps = list(self.steps)
        del steps[index]
        return replace(self, steps=tuple(steps))

    def move_step(self, index: int, new_index: int) -> Recipe:
        steps = list(self.steps)
        steps.insert(new_index, steps.pop(index))
        return replace(self, steps=tuple(steps))

    def with_meta(self, **meta: Any) -> Recipe:
        return replace(self, meta={**self.meta, **meta})

    # -- serialisation --
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"version": RECIPE_VERSION}
        data.update({k: self.meta[k] for k in _META_KEYS if k in self.meta})
        if self.seed is not None:
            data["seed"] = self.seed
        data["steps"] = [dict(s) for s in self.steps]
        return data

    def to_yaml(self) -> str:
        return yaml.dump(self.to_dict(), Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True)

    @classmethod
    def from_dict(cls, data: Any) -> Recipe:
        if not isinstance(data, Mapping):
            raise RecipeError("A recipe must be a YAML mapping with a 'steps' list.")
        version = data.get("version", RECIPE_VERSION)
        if version != RECIPE_VERSION:
            raise RecipeError(f"Recipe version {version!r} is not supported; use version 1.")
        unknown = set(data) - {"version", "seed", "steps", *_META_KEYS}
        if unknown:
            raise RecipeError(
                f"Unknown recipe field(s) {', '.join(sorted(map(str, unknown)))}. Allowed: "
                f"version, seed, steps, {', '.join(_META_KEYS)}."
            )
        steps = data.get("steps") or []
        if not isinstance(steps, list):
            raise RecipeError("The recipe's 'steps' must be a list of steps.")
        meta = {k: data[k] for k in _META_KEYS if k in data}
        _check_meta_types(meta)
        if meta.get("reviewed_text"):  # plain text dates (YAML reads 2026-11-27 as a date)
            meta["reviewed_text"] = {
                str(c): check_review(str(c), r) for c, r in meta["reviewed_text"].items()
            }
        return cls(
            steps=tuple(dict(s) if isinstance(s, Mapping) else s for s in steps),
            seed=data.get("seed"),
            meta=meta,
        )

    @classmethod
    def from_yaml(cls, text: str) -> Recipe:
        """A recipe from YAML text (a file's, or one kept in a workspace someone sent):
        at most :data:`MAX_RECIPE_BYTES` characters, nested as deep as Python recurses."""
        if len(text) > MAX_RECIPE_BYTES:
            raise RecipeError(
                f"The recipe is larger than {MAX_RECIPE_BYTES // 2**20} MiB; a recipe is a short "
                "list of steps. Check that this is the right recipe."
            )
        if _flow_depth(text) > MAX_FLOW_DEPTH:
            raise RecipeError(
                f"The recipe is nested too deeply to be read (more than {MAX_FLOW_DEPTH} "
                "brackets inside one another); a recipe is a short list of steps."
            )
        try:
            data = _parse_yaml(text)
            return cls.from_dict(data or {})
        except yaml.YAMLError as error:
            raise RecipeError(f"The recipe is not valid YAML: {parser_message(error)}") from None
        except RecursionError:  # '[[[[...' thousands deep: PyYAML recurses per level
            raise RecipeError(
                "The recipe is nested too deeply to be read (brackets or lists inside one "
                "another thousands of times); a recipe is a short list of steps."
            ) from None

    @classmethod
    def load(cls, path: str | Path) -> Recipe:
        """Read a recipe file: UTF-8 YAML, a regular file of at most MAX_RECIPE_BYTES."""
        path = Path(path)
        try:
            if not stat.S_ISREG(path.stat().st_mode):  # before open: a FIFO would block
                raise RecipeError(
                    f"Recipe '{path}' is not a regular file (a folder, device, pipe or "
                    "socket): give the path of a .yaml file."
                )
            with path.open("rb") as file:
                data = file.read(MAX_RECIPE_BYTES + 1)
        except OSError as error:
            raise RecipeError(
                f"Cannot read recipe file '{path}': {error.strerror or error}."
            ) from None
        if len(data) > MAX_RECIPE_BYTES:
            raise RecipeError(
                f"Recipe file '{path}' is larger than {MAX_RECIPE_BYTES // 2**20} MiB; a recipe "
                "is a short list of steps. Check that this is the right file."
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise RecipeError(
                f"Recipe file '{path}' is not UTF-8 text: byte 0x{data[error.start]:02x} on line "
                f"{line} is not valid UTF-8. Save the recipe as UTF-8 (any editor can)."
            ) from None
        return cls.from_yaml(text)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_yaml(), encoding="utf-8")


def _check_meta_types(meta: Mapping[str, Any]) -> None:
    """Column names in a recipe's header must be text (a list of texts for several)."""
    sensitive = meta.get("sensitive")
    if sensitive is not None and not isinstance(sensitive, str):
        raise RecipeError(f"The recipe's 'sensitive' must be a column name, got {sensitive!r}.")
    for key in ("quasi_identifiers", "direct_identifiers"):
        names = meta.get(key)
        if names is None or isinstance(names, str):
            continue
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise RecipeError(
                f"The recipe's '{key}' must be a list of column names, got {names!r}."
            )
    decided = meta.get("not_quasi_identifiers")
    if decided is not None and (
        not isinstance(decided, Mapping)
        or not all(
            isinstance(c, str) and isinstance(r, str) and r.strip() for c, r in decided.items()
        )
    ):
        raise RecipeError(
            "The recipe's 'not_quasi_identifiers' must map each column to the reason it is "
            f"not a quasi-identifier, e.g. {{postal: 'only the region is kept'}}, got {decided!r}."
        )
    reviews = meta.get("reviewed_text")
    if reviews is not None and not isinstance(reviews, Mapping):
        raise RecipeError(
            "The recipe's 'reviewed_text' must map each free-text column to "
            f"{{by: NAME, at: DATE, rows_checked: N}}, got {reviews!r}."
        )
    try:
        for column, review in (reviews or {}).items():
            check_review(str(column), review)
        parse_targets(meta.get("targets"))
    except ParameterError as error:
        raise RecipeError(f"The recipe's {error}") from None
    annex_d = meta.get("annex_d")
    if annex_d is not None:
        unknown = set(annex_d) - set(ANNEX_D_KEYS) if isinstance(annex_d, Mapping) else None
        if unknown is None or unknown or not {"controls", "motivation"} <= set(annex_d):
            raise RecipeError(
                "The recipe's 'annex_d' must be a mapping with 'controls' and 'motivation' "
                f"and optionally 'acquaintance', 'breach', 'harm' (PDPC guide, Annex D), got "
                f"{annex_d!r}."
            )


def check_recipe_columns(recipe: Recipe, df: pd.DataFrame) -> None:
    """Refuse recipe-level column names (``quasi_identifiers``, ``sensitive``,
    ``direct_identifiers``) that are not in the input table.

    A misspelt quasi-identifier would otherwise be left out of the risk figures and make
    the release look safer than it is (PDPC guide, Step 4). Names are checked against the
    table the recipe is applied to: a column a step later removes is still a valid name.
    """
    quasi_identifiers = recipe.meta.get("quasi_identifiers")
    if quasi_identifiers:
        require_columns(df, quasi_identifiers, parameter="quasi_identifiers")
    sensitive = recipe.meta.get("sensitive")
    if sensitive:
        require_columns(df, sensitive, parameter="sensitive")
    direct = recipe.meta.get("direct_identifiers")
    if direct:
        require_columns(df, direct, parameter="direct_identifiers")
    for key in ("not_quasi_identifiers", "reviewed_text"):
        if recipe.meta.get(key):
            require_columns(df, list(recipe.meta[key]), parameter=key)


@dataclass(frozen=True)
class StepLog:
    """What one step did when it ran."""

    position: int
    step: dict[str, Any]
    summary: str
    rows_before: int
    rows_after: int
    columns_before: tuple[str, ...]
    columns_after: tuple[str, ...]
    seed: int | None


@dataclass(frozen=True)
class RecipeResult:
    """The released table, the identity mapping tables (kept apart!), and the step log."""

    data: pd.DataFrame
    mappings: dict[str, pd.DataFrame]
    linking: dict[str, pd.DataFrame]
    log: tuple[StepLog, ...]
    seed: int


def step_seed(recipe_seed: int, position: int, step: Mapping[str, Any]) -> int:
    """The seed a random step uses: its own, else derived from the recipe's seed."""
    if "seed" in step:
        return _check_seed(step["seed"], f"Step {position} ({step.get('step')}): 'seed'")
    return (recipe_seed * 1_000_003 + position) % (2**32)


def secret_step_seed(pseudonym_seed: int | None, position: int) -> int | None:
    """The secret seed of a random pseudonymisation step (None: use OS entropy)."""
    return None if pseudonym_seed is None else step_seed(pseudonym_seed, position, {})


def _evaluate(
    value: Any,
    base_dir: Path | None,
    keys: Mapping[str, bytes] | None,
    hierarchies: Mapping[str, str] | None = None,
    tables: Mapping[str, pd.DataFrame] | None = None,
) -> Any:
    if isinstance(value, Ref):
        if value.function == "read_hierarchy":
            if hierarchies is not None and value.argument in hierarchies:
                # kept as content (a workspace's): read from memory, never through a file
                return read_hierarchy(io.StringIO(hierarchies[value.argument]))
            path = Path(value.argument)
            if base_dir is not None and not path.is_absolute():
                path = base_dir / path
            return read_hierarchy(path)
        if value.function == "read_population_table":  # k-map's population (a data file)
            if tables is not None and value.argument in tables:  # kept by name (a workspace)
                return tables[value.argument]
            from core.io import read_table  # core.io is heavy; only this step needs it

            path = Path(value.argument)
            if base_dir is not None and not path.is_absolute():
                path = base_dir / path
            return read_table(path)
        if value.function == "key_from_env":
            if keys is not None and value.argument in keys:
                return keys[value.argument]  # checked (length) by the technique itself
            return key_from_env(value.argument)
    if isinstance(value, Mapping):  # recode_locally's hierarchies, t_closeness's, k_map's
        return {k: _evaluate(v, base_dir, keys, hierarchies, tables) for k, v in value.items()}
    return value


def run_step(
    df: pd.DataFrame,
    step: Mapping[str, Any],
    *,
    seed: int | None = None,
    base_dir: Path | None = None,
    secret_seed: int | None = None,
    keys: Mapping[str, bytes] | None = None,
    hierarchies: Mapping[str, str] | None = None,
    tables: Mapping[str, pd.DataFrame] | None = None,
) -> tuple[pd.DataFrame, Pseudonymised | None]:
    """Apply one step to ``df`` (a new table is returned; ``df`` is untouched).

    ``seed`` goes to random steps (swapping, noise) and is recorded; ``secret_seed`` goes
    to random pseudonymisation, so that a session can replay its pseudonyms, and is never
    recorded anywhere. ``keys`` maps a step's ``key_env`` name to its key (bytes), for a
    key held by the caller (e.g. typed in one dashboard session) instead of the process
    environment; keys are never recorded anywhere either. ``hierarchies`` (name -> text,
    e.g. a workspace's) gives the hierarchy files a step names by content; a name not in
    it is read from disk, relative to ``base_dir``; ``tables`` likewise gives the k-map
    population tables a step names (name -> table, e.g. kept in a workspace).
    """
    call = resolve(step)
    function = TECHNIQUES[call.function].function
    kwargs = {k: _evaluate(v, base_dir, keys, hierarchies, tables) for k, v in call.kwargs.items()}
    if call.function == "generalise_hierarchy":  # words a reviewer reads must be true
        check_hierarchy_words(step, kwargs["hierarchy"])
    if call.random:
        kwargs["seed"] = seed
    if call.secret_seed and secret_seed is not None:
        kwargs["seed"] = secret_seed
    result = function(df, *call.args, **kwargs)
    if isinstance(result, Pseudonymised):
        return result.data, result
    return result, None


def keep_mapping(
    mappings: Mapping[str, pd.DataFrame], column: str, mapping: pd.DataFrame
) -> pd.DataFrame:
    """The identity mapping table to keep for ``column`` after a step made ``mapping``:
    that one, or for a column pseudonymised before, the two chained back to the original
    values (:func:`core.techniques.pseudonymisation.chain_mapping`)."""
    earlier = mappings.get(column)
    return mapping if earlier is None else chain_mapping(column, earlier, mapping)


def advance(
    result: RecipeResult,
    step: Mapping[str, Any],
    position: int,
    *,
    base_dir: Path | None = None,
    pseudonym_seed: int | None = None,
    keys: Mapping[str, bytes] | None = None,
    hierarchies: Mapping[str, str] | None = None,
    tables: Mapping[str, pd.DataFrame] | None = None,
) -> RecipeResult:
    """Apply the step at ``position`` (1-based) to a partial result: one replay step.

    The step's seed comes from ``result.seed`` (recorded in the log); random pseudonyms
    use ``pseudonym_seed`` when given; ``keys``, ``hierarchies`` and ``tables`` as in
    :func:`run_step`.
    Errors name the step that failed.
    """
    call = resolve(step, position=position)
    used_seed = step_seed(result.seed, position, step) if call.random else None
    try:
        data, pseudonymised = run_step(
            result.data,
            step,
            seed=used_seed,
            base_dir=base_dir,
            secret_seed=secret_step_seed(pseudonym_seed, position),
            keys=keys,
            hierarchies=hierarchies,
            tables=tables,
        )
    except AnonymisationError as error:
        raise type(error)(f"Step {position} ({step['step']}): {error}") from None
    mappings, linking = dict(result.mappings), dict(result.linking)
    if pseudonymised is not None:
        column = call.args[0]
        if pseudonymised.mapping is not None:
            try:
                mappings[column] = keep_mapping(mappings, column, pseudonymised.mapping)
            except AnonymisationError as error:
                raise type(error)(f"Step {position} ({step['step']}): {error}") from None
        if pseudonymised.linking is not None:
            linking[column] = pseudonymised.linking
    entry = StepLog(
        position=position,
        step=dict(step),
        summary=describe_step(step),
        rows_before=len(result.data),
        rows_after=len(data),
        columns_before=tuple(map(str, result.data.columns)),
        columns_after=tuple(map(str, data.columns)),
        seed=used_seed,
    )
    return RecipeResult(data, mappings, linking, (*result.log, entry), result.seed)


def apply_recipe(
    df: pd.DataFrame,
    recipe: Recipe,
    *,
    base_dir: str | Path | None = None,
    progress: ProgressFn | None = None,
    pseudonym_seed: int | None = None,
    keys: Mapping[str, bytes] | None = None,
    hierarchies: Mapping[str, str] | None = None,
    tables: Mapping[str, pd.DataFrame] | None = None,
) -> RecipeResult:
    """Replay every step of ``recipe`` on ``df``; the same input and seed give the same output.

    A recipe without a seed gets a fresh one, returned in the result so the run can be
    recorded and replayed. ``progress(fraction, message)`` (core.progress) hears each step.
    Errors name the step that failed. Random pseudonyms use ``pseudonym_seed`` when given
    (a secret the caller keeps, never recorded), else fresh operating-system entropy.
    HMAC keys come from ``keys`` (``key_env`` name -> key bytes) when given there, else
    from the environment variable the step names; they are never recorded. ``hierarchies``
    (name -> text) and ``tables`` as in :func:`run_step`.
    """
    check_recipe_columns(recipe, df)
    seed = recipe.seed if recipe.seed is not None else secrets.randbelow(2**31)
    base = Path(base_dir) if base_dir is not None else None
    result = RecipeResult(df, {}, {}, (), seed)
    report = progress or no_progress
    total = len(recipe.steps)
    for position, step in enumerate(recipe.steps, start=1):
        result = advance(
            result,
            step,
            position,
            base_dir=base,
            pseudonym_seed=pseudonym_seed,
            keys=keys,
            hierarchies=hierarchies,
            tables=tables,
        )
        report(position / total, f"step {position} of {total}: {result.log[-1].summary}")
    return result


def describe_step(step: Mapping[str, Any]) -> str:
    """A step in plain words, for lists, progress and reports ("removed: name, email").

    One describer for the dashboard and the report (each step's words in the registry,
    :mod:`core.step_words`); the recipe keeps the exact parameters.
    """
    return describe_step_plain(step)


# --- export as a Python script ----------------------------------------------------------
#
# The script is code built from data: column names, values, mapping labels, file names and
# the recipe's name are all chosen by whoever made the data or the recipe. Each of them is
# written as a Python literal built here from plain types (never ``str()`` of an object,
# never inside a comment or a docstring), so no text can end a string or a line and run
# as code when the script runs (issue 11, item 1).

_REF_FUNCTIONS = frozenset({"read_hierarchy", "read_population_table", "key_from_env"})


def _literal(value: Any) -> str:
    """``value`` as Python source that evaluates to it, built only from literals.

    Strings go through ``repr`` of a plain ``str`` (quotes, backslashes, newlines and every
    other line break become escapes); containers are rebuilt element by element; anything
    that is not plain data is refused rather than written with its own ``repr``.
    """
    if isinstance(value, Ref):
        if value.function not in _REF_FUNCTIONS:
            raise RecipeError(f"Unknown reference {value.function!r} in a recipe step.")
        return f"{value.function}({_literal(value.argument)})"
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, float):
        number = float(value)
        return repr(number) if math.isfinite(number) else f"float({str(number)!r})"
    if isinstance(value, str):
        return repr(str(value))
    if isinstance(value, (dt.date, dt.datetime, pd.Timestamp)):
        return repr(value.isoformat())
    if isinstance(value, (list, tuple)):
        items = ", ".join(_literal(v) for v in value)
        return f"({items},)" if isinstance(value, tuple) else f"[{items}]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_literal(k)}: {_literal(v)}" for k, v in value.items()) + "}"
    raise RecipeError(
        f"A recipe parameter of type {type(value).__name__} cannot be written in a Python "
        "script; use text, numbers, lists or mappings."
    )


def _call_code(call: Call, seed: int | None) -> str:
    args = ["df", *(_literal(a) for a in call.args)]
    for name, value in call.kwargs.items():
        if not name.isidentifier() or keyword.iskeyword(name):  # names come from the registry
            raise RecipeError(f"Parameter name {name!r} cannot be written in a Python script.")
        args.append(f"{name}={_literal(value)}")
    if call.random:
        args.append(f"seed={_literal(seed)}")
    return f"t.{call.function}({', '.join(args)})"


def to_python_script(recipe: Recipe) -> str:
    """A runnable script that replays the recipe with explicit calls into ``core``.

    Usage of the script: ``python script.py INPUT OUTPUT``. Identity mapping tables are
    written next to OUTPUT as ``OUTPUT.mapping-<column>.enc``, encrypted with the
    passphrase in ``$ANON_MAPPING_PASSPHRASE`` and readable by the owner only (0600), like
    the command line's (the column name is made safe for a file name,
    :func:`core.outputs.file_name_part`); the script checks the passphrase before any work,
    never writes OUTPUT onto INPUT, and never replaces an existing file: keep mapping
    tables apart from the data (Annex A, Pseudonymisation). A recipe without a seed gets one now, so
    the script is reproducible. Relative hierarchy paths are read next to the script (so a
    release bundle works in any folder). Every value from the recipe is a literal (see
    :func:`_literal`); comments hold only the step number and the registry's own text.
    """
    seed = recipe.seed if recipe.seed is not None else secrets.randbelow(2**31)
    makes_mappings = any(
        resolve(step, position=position).produces_mapping
        for position, step in enumerate(recipe.steps, start=1)
    )
    lines = [
        "#!/usr/bin/env python3",
        '"""Replays an anonymisation recipe (PDPC Guide to Basic Anonymisation).',
        "",
        "Usage: python this_script.py INPUT OUTPUT",
        "Generated from a recipe; needs the 'core' package of this project on the path.",
        "Keys are read from environment variables; none is written here.",
        '"""',
        "",
        "import sys",
        "from pathlib import Path",
        "",
        "from core.techniques.registry import FUNCTIONS as t",
        "from core.errors import AnonymisationError",
        "from core.hierarchy import read_hierarchy as _read_hierarchy",
        "from core.io import output_format, read_table, table_to_bytes",
        "from core.outputs import Output, file_name_part, plan_outputs, write_outputs",
        "from core.recipe import keep_mapping",
        "from core.techniques.pseudonymisation import (  # noqa: F401",
        "    encrypt_table,",
        "    key_from_env,",
        "    passphrase_from_env,",
        ")",
        "",
        "",
        "def read_hierarchy(path):",
        '    """Relative hierarchy paths are found next to this script, wherever it runs."""',
        "    return _read_hierarchy(Path(__file__).resolve().parent / path)",
        "",
        "",
        "def read_population_table(path):",
        '    """k-map\'s population table (a data file, never in the script), found like the',
        '    hierarchies: a relative path is read next to this script."""',
        "    return read_table(Path(__file__).resolve().parent / path)",
        "",
        # An unnamed recipe gets None, not an empty name ('').
        f"RECIPE_NAME = {_literal(str(name)) if (name := recipe.meta.get('name')) else None}",
        "",
        "",
        "MAPPING_PASSPHRASE_ENV = 'ANON_MAPPING_PASSPHRASE'",
        "",
        "",
        "def main(source: str, target: str) -> None:",
        "    # Checked before any work: identity mapping tables are only written encrypted.",
        f"    makes_mappings = {makes_mappings!r}",
        "    passphrase = passphrase_from_env(MAPPING_PASSPHRASE_ENV) if makes_mappings else None",
        "    # OUTPUT may replace an earlier output, never INPUT; mapping tables are never replaced.",
        "    plan_outputs([Output('OUTPUT', Path(target))], {'INPUT': Path(source)}, force=True)",
        "    df = read_table(source)",
        "    mappings = {}",
    ]
    for position, step in enumerate(recipe.steps, start=1):
        call = resolve(step, position=position)
        spec = STEPS[step["step"]]
        used_seed = step_seed(seed, position, step) if call.random else None
        lines.append(f"    # Step {position}: {spec.name} ({spec.guide})")
        if call.produces_mapping:
            lines.append(f"    result = {_call_code(call, used_seed)}")
            column = _literal(call.args[0])
            lines.append(
                f"    mappings[{column}] = keep_mapping(mappings, {column}, result.mapping)"
            )
            lines.append("    df = result.data")
        else:
            lines.append(f"    df = {_call_code(call, used_seed)}")
    lines += [
        "    files = [(Output('OUTPUT', Path(target)), table_to_bytes(df, output_format(target)))]",
        "    for column, mapping in mappings.items():",
        "        # The column name is data: made safe before it becomes part of a file name.",
        "        path = Path(target)",
        "        path = path.with_name(f'{path.name}.mapping-{file_name_part(column)}.enc')",
        "        # private: 0600; keep_existing: an earlier mapping table is never replaced",
        "        output = Output('identity mapping table', path, private=True, keep_existing=True)",
        "        files.append((output, encrypt_table(mapping, passphrase)))",
        "    plan_outputs([output for output, _ in files], {'INPUT': Path(source)}, force=True)",
        "    write_outputs(files, force=True)  # all or nothing",
        "    for output, _ in files[1:]:",
        "        print(f'Identity mapping table written to {output.path} (encrypted): keep it '",
        "              'secure and apart from the data.')",
        "",
        "",
        'if __name__ == "__main__":',
        "    if len(sys.argv) != 3:",
        '        sys.exit("usage: python this_script.py INPUT OUTPUT")',
        "    try:",
        "        main(sys.argv[1], sys.argv[2])",
        "    except AnonymisationError as error:  # a user's mistake: one line, no traceback",
        "        sys.exit(f'error: {error}')",
        "",
    ]
    return "\n".join(lines)


class EditHistory:
    """Undo/redo over recipes: every edit pushes a new immutable :class:`Recipe`."""

    def __init__(self, recipe: Recipe | None = None) -> None:
        self._states: list[Recipe] = [recipe or Recipe()]
        self._position = 0

    @property
    def current(self) -> Recipe:
        return self._states[self._position]

    def push(self, recipe: Recipe) -> Recipe:
        del self._states[self._position + 1 :]
        self._states.append(recipe)
        self._position += 1
        return recipe

    @property
    def can_undo(self) -> bool:
        return self._position > 0

    @property
    def can_redo(self) -> bool:
        return self._position < len(self._states) - 1

    def undo(self) -> Recipe:
        if self.can_undo:
            self._position -= 1
        return self.current

    def redo(self) -> Recipe:
        if self.can_redo:
            self._position += 1
        return self.current


__all__ = [
    "EditHistory",
    "Recipe",
    "RecipeResult",
    "StepLog",
    "advance",
    "apply_recipe",
    "check_recipe_columns",
    "describe_step",
    "run_step",
    "step_seed",
    "to_python_script",
]
