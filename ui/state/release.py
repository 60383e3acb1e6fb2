"""Release preparation (Step 5): the release's settings (use case, decisions, text
reviews, targets), its recipe, the release check, and recording the release in the
workspace before its bundle and archive are offered (issue 27).

The release's steps (check, record first, bundle and archive) are those of
core.release.pipeline, which the command line's ``apply`` runs too (issue 28).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from core._text import as_text
from core.errors import AnonymisationError
from core.recipe import Recipe, RecipeResult
from core.release.gate import ReleaseCheck, marked_name
from core.release.inputs import ReleasedFile, ReleaseRoles, ReleaseSource
from core.release.pipeline import ReleasePackages, check_recipe_release
from core.release.targets import parse_targets
from core.schema import Role
from core.text_rescan import check_review
from core.workspace import Workspace, sha256_bytes
from ui.state.cache import memo
from ui.state.classify import (
    columns_with_role,
    k_target,
    quasi_identifiers,
    roles_confirmed,
    sensitive_column,
    suggestions,
)
from ui.state.replay import current, current_data
from ui.state.risk import annex_d_settings, insider_table, use_case
from ui.state.session import (
    DECISIONS_KEY,
    REVIEWS_KEY,
    ROOT,
    SIGN_OFF_KEY,
    TARGETS_KEY,
    has_data,
    original,
    recipe,
    session,
)
from ui.state.workspace import author, open_workspace, write, write_through

# --- release (Step 5) -------------------------------------------------------------------


def data_file_name(fmt: str, *, released_anyway: bool) -> str:
    """The released data file's one name: the download, the file inside the bundle and
    the workspace's record (History) all say it (issue 29: History listed
    ``released.csv`` for a file downloaded as ``anonymised.csv``). A table released
    despite the release check is marked as such (core.release.gate.marked_name)."""
    return marked_name(f"released.{fmt}") if released_anyway else f"anonymised.{fmt}"


def set_use_case(name: str) -> None:
    """Keep the use case chosen; the Report calls this on every run, so the one already in
    force (the default on a first visit) is no change and writes no audit entry."""
    if use_case() == name:
        return
    session()["release_use_case"] = name
    write(lambda ws: ws.set_setting("use_case", name))


def sign_off_fields() -> dict[str, str]:
    """The Report's sign-off fields as last typed (field key -> text), kept in the
    workspace so a restart brings them back (issue 29)."""
    return dict(session().get(SIGN_OFF_KEY) or {})


def set_sign_off_fields(values: Mapping[str, str]) -> None:
    """Keep the sign-off fields typed on Report (empty ones left out); the Report calls
    this on every run, so unchanged fields write nothing."""
    typed = {str(k): str(v) for k, v in values.items() if str(v or "").strip()}
    if typed == sign_off_fields():
        return
    session()[SIGN_OFF_KEY] = typed
    write(lambda ws: ws.set_setting(SIGN_OFF_KEY, typed))


def release_decisions() -> dict[str, str]:
    """Columns Step 1 doubts that are not quasi-identifiers, with the reason recorded on the
    Report page (the recipe's ``not_quasi_identifiers``; core.release.gate)."""
    columns = set(map(str, original().columns)) if has_data() else set()
    return {c: r for c, r in (session().get(DECISIONS_KEY) or {}).items() if c in columns}


def set_release_decision(column: str, reason: str | None) -> None:
    """Record (or, with no reason, withdraw) why ``column`` is not a quasi-identifier."""
    decisions = dict(session().get(DECISIONS_KEY) or {})
    if reason and reason.strip():
        decisions[str(column)] = " ".join(reason.split())
    else:
        decisions.pop(str(column), None)
    if decisions == (session().get(DECISIONS_KEY) or {}):
        return
    session()[DECISIONS_KEY] = decisions
    write(lambda ws: ws.set_setting("not_quasi_identifiers", decisions))


def column_fingerprint(values: pd.Series) -> str:
    """The sha256 of a column's values as text: a review holds for the text it read."""
    text = as_text(values).fillna("\x00")
    return sha256_bytes("\x1f".join(text.tolist()).encode("utf-8", "surrogatepass"))


def text_reviews() -> dict[str, dict[str, Any]]:
    """The recorded reviews of redacted free-text columns that still hold: those whose
    column, as the current recipe releases it, is the text that was read."""
    stored = session().get(REVIEWS_KEY) or {}
    data = current_data()
    return {
        column: {k: review[k] for k in ("by", "at", "rows_checked")}
        for column, review in stored.items()
        if column in data.columns and review.get("fingerprint") == column_fingerprint(data[column])
    }


def set_text_review(column: str, *, by: str, rows_checked: int) -> None:
    """Record that ``by`` read ``rows_checked`` cells of the redacted column as released
    now (who, when, how many: PDPC guide, Step 2); checked by core.text_rescan."""
    at = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    review = check_review(column, {"by": by, "at": at, "rows_checked": int(rows_checked)})
    review["fingerprint"] = column_fingerprint(current_data()[column])
    reviews = {**(session().get(REVIEWS_KEY) or {}), str(column): review}
    session()[REVIEWS_KEY] = reviews
    write(lambda ws: ws.set_setting("reviewed_text", reviews))


def release_targets() -> dict[str, Any]:
    """The privacy-model targets of the release (the recipe's ``targets``)."""
    return dict(session().get(TARGETS_KEY) or {})


def set_release_targets(targets: dict[str, Any]) -> None:
    """Keep the targets chosen on the Report page (checked first: core.release.targets)."""
    parse_targets(targets)
    if targets == release_targets():
        return
    session()[TARGETS_KEY] = dict(targets)
    write(lambda ws: ws.set_setting("targets", dict(targets)))


def release_recipe() -> Recipe:
    """The recipe with what the release is about: quasi-identifiers, sensitive, k, use case,
    and the decisions, reviews and targets the release check reads."""
    meta: dict[str, Any] = {
        "quasi_identifiers": quasi_identifiers(original()),
        "k": k_target(),
        "use_case": use_case(),
    }
    sensitive = sensitive_column(original())
    if sensitive is not None:
        meta["sensitive"] = sensitive
    extra = {
        "not_quasi_identifiers": release_decisions(),
        "reviewed_text": text_reviews(),
        "targets": release_targets(),
    }
    meta.update({key: value for key, value in extra.items() if value})
    return recipe().with_meta(**meta)


def release_result() -> RecipeResult:
    """The current replay as a core.recipe.RecipeResult, for core.release.report.build_report."""
    return current()


def release_check() -> ReleaseCheck:
    """The release gate (core.release.gate) on the current replay, with this session's
    roles, sensitive column, target k and Annex D settings (cached per recipe and settings).
    """
    table = original()
    quasi = quasi_identifiers(table)
    direct = columns_with_role(Role.DIRECT, table)
    sensitive = sensitive_column(table)
    annex_d = {**annex_d_settings(), "insider_table": insider_table()}
    confirmed = roles_confirmed()
    decisions, reviews, targets = release_decisions(), text_reviews(), release_targets()

    def compute() -> ReleaseCheck:  # release_recipe() carries the decisions, reviews, targets
        return check_recipe_release(
            table,
            current_data(),
            release_recipe(),
            roles=ReleaseRoles(
                quasi_identifiers=quasi, direct_identifiers=direct, sensitive=sensitive
            ),
            k_target=k_target(),
            annex_d=annex_d,
            suggestions=list(suggestions().values()),
            roles_confirmed=confirmed,
            mappings=current().mappings,
        )

    settings = (
        tuple(quasi),
        tuple(direct),
        sensitive,
        k_target(),
        repr(annex_d),
        confirmed,
        repr(decisions),
        repr(reviews),
        repr(targets),
    )
    return memo("release_check", compute, *settings)


def _prepared_recipe() -> tuple[Recipe, dict[str, str]]:
    """The prepared release's recipe and hierarchies as its record holds them (hierarchies
    by content, see core.release.bundle; the seed used): what its bundle and archive carry."""
    prepared = session()[_PREPARED]
    return prepared["recipe"], prepared["hierarchies"]


def _packages(report: Any, data_bytes: bytes, fmt: str) -> ReleasePackages:
    """What the prepared release's bundle and archive carry (core.release.pipeline)."""
    portable, hierarchies = _prepared_recipe()
    name = session()[_PREPARED].get("data_name") or data_file_name(fmt, released_anyway=False)
    return ReleasePackages(data_bytes, name, portable, hierarchies, report)


def release_bundle(report: Any, data_bytes: bytes, fmt: str, result: RecipeResult) -> bytes:
    """The recipient's bundle (core.release.bundle) of the prepared release, as a zip: no
    original value, hierarchies as rules, no identity mapping table."""
    return (
        _packages(report, data_bytes, fmt)
        .bundle(
            made_mappings=bool(result.mappings or result.linking),
            original=original(),
            released_table=result.data,
            k=k_target(),
        )
        .to_zip()
    )


def release_archive(
    report: Any, data_bytes: bytes, fmt: str, encrypted_mappings: dict[str, bytes]
) -> bytes:
    """The internal reproduction archive (core.release.bundle) of the current release, as a
    zip: every hierarchy file and the encrypted identity tables (personal data)."""
    return _packages(report, data_bytes, fmt).archive(encrypted_mappings).to_zip()


_PREPARED = "prepared_release"


def _release_key(data_bytes: bytes, fmt: str, acknowledged: bool, signed: Mapping[str, str]) -> str:
    """What a prepared release stands for: the recipe as released (with its decisions and
    targets), its seed, the data set, the released bytes and their format, a "release
    anyway" and the sign-off. Any change makes the prepared downloads stale."""
    parts = [
        release_recipe().to_yaml(),
        current().seed,
        session().get("data_sha256"),
        sha256_bytes(data_bytes),
        fmt,
        acknowledged,
        sorted(signed.items()),
    ]
    return sha256_bytes(repr(parts).encode("utf-8"))


def prepared_release(
    data_bytes: bytes, fmt: str, acknowledged: bool, signed: Mapping[str, str]
) -> dict[str, Any] | None:
    """The release recorded for these downloads (its anchor and whether it was new), or
    None: not prepared yet, or prepared for another recipe, format or sign-off."""
    prepared = session().get(_PREPARED)
    if prepared and prepared["key"] == _release_key(data_bytes, fmt, acknowledged, signed):
        return prepared
    return None


def stale_release() -> int | None:
    """The id of the release prepared earlier in this session (for a note once the recipe
    or sign-off changed: its downloads are withdrawn), or None."""
    prepared = session().get(_PREPARED)
    return prepared["anchor"]["release"] if prepared else None


def prepare_release(
    report: dict[str, Any], data_bytes: bytes, fmt: str, acknowledged: bool
) -> str | None:
    """Record the release in the workspace before any of its files is offered (issue 27):
    the record made by ``apply`` (core.release.record), once per output and recipe
    version, with the sign-off typed on the page. Returns None, or the one-line reason it
    could not be recorded (then nothing is offered)."""
    from core.release.record import record_once

    signed = dict(report.get("sign_off") or {})
    data_sha = session().get("data_sha256")
    data_name = data_file_name(fmt, released_anyway=acknowledged)
    try:
        with open_workspace() as ws:
            current_data_set = ws.settings().get("current_data") or {}
    except (AnonymisationError, sqlite3.Error) as error:
        return _one_line(error)
    source = current_data_set.get("source_path")
    source = source if source and Path(source).is_file() else None

    def record(ws: Workspace) -> Any:
        return record_once(
            ws,
            original=original(),
            source=ReleaseSource(path=source, sha256=data_sha),
            recipe=release_recipe(),
            result=current(),
            output=ReleasedFile(name=data_name, content=None, sha256=sha256_bytes(data_bytes)),
            base_dir=ROOT,
            quasi_identifiers=quasi_identifiers(original()),
            report=report,
            author=author(),
            annex_d=annex_d_settings(),
            sign_off=signed,
        )

    try:
        done = write_through(record)
    except (AnonymisationError, sqlite3.Error, OSError) as error:
        return _one_line(error)
    session()[_PREPARED] = {
        "key": _release_key(data_bytes, fmt, acknowledged, signed),
        "anchor": done.anchor,
        "new": done.new,
        "recipe": done.recipe,
        "hierarchies": done.hierarchies,
        "data_name": data_name,
    }
    return None


def _one_line(error: BaseException) -> str:
    """An error as the one line the page shows (a library's own text may span lines)."""
    return " ".join(str(error).split()) or type(error).__name__
