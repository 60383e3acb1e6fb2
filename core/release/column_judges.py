"""The release gate's judgement of single columns: direct identifiers kept, free text,
and the columns Step 1 doubts that the recipe gives no place.

Split from :mod:`core.release.gate`, which gathers the verdict: each function here judges
one kind of column of the released table and reports each problem through ``problem``
(kind, sentence), in the order the gate lists them. PDPC guide, Step 1 (know your data)
and Step 2 (remove or pseudonymise direct identifiers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from core.release.backstops import rare_values_back
from core.release.kept_identifiers import RUN, advice, form_words, identifying_runs, treatment
from core.roles import Role, Suggestion
from core.text_rescan import MIN_REVIEWED_CELLS, describe_findings, rescan, review_shortfall

#: Step 1 kinds of an "other" column it could not place: high-cardinality text.
UNSURE_KINDS = ("text", "mixed", "unseen")  # unseen: empty in an engine's first rows
#: Step 1 kinds of a column unique (or nearly) for every record.
NEAR_UNIQUE_KINDS = ("near_unique", "identifier_like")

#: How a judge reports a problem: ``problem(kind, sentence)``.
Problem = Callable[[str, str], None]


def judge_identifier(
    column: str,
    original: pd.DataFrame,
    released: pd.DataFrame,
    recipe_steps: Sequence[Mapping[str, Any]] | None,
    mappings: Mapping[str, pd.DataFrame] | None,
    rare_below: int,
    problem: Problem,
) -> bool:
    """Judge one direct identifier the release keeps (PDPC guide, Step 2); True when it is
    kept in a form other than pseudonyms, so that it counts as a quasi-identifier."""
    done = treatment(recipe_steps or (), column)
    if recipe_steps is not None and done.pseudonymised:
        # tokens are trusted for what the recipe says, but not when a later step (a
        # 'mapping' from tokens the key holder computed) writes the originals back
        back = rare_values_back(original[column], released[column], rare_below)
        if back:
            problem(
                "direct_identifiers",
                f"Column {column!r} is pseudonymised but {back:,} released record(s) hold its "
                "original values again (a step after the pseudonymisation writes them back): "
                "remove that step, or remove the column (PDPC guide, Step 2).",
            )
        if done.pseudonymisations > 1 and not _chained(original[column], column, mappings):
            problem(
                "direct_identifiers",
                f"Column {column!r} is pseudonymised {done.pseudonymisations} times and its "
                "identity mapping table no longer leads back to the original values: "
                "pseudonymise it once (PDPC guide, Annex A: Pseudonymisation).",
            )
        return False
    leak = identifying_runs(original[column], released[column], k=rare_below)
    if leak.records:
        shown = (
            "are values"
            if leak.equal == leak.records
            else f"hold {RUN} or more characters in a row of values"
        )
        problem(
            "direct_identifiers",
            f"Column {column!r}, a direct identifier, is {form_words(done.forms)} but "
            f"{leak.records:,} released record(s) {shown} of that column that fewer than "
            f"{rare_below} original records share (rule: no released value may equal or "
            f"contain {RUN} characters in a row of such a value): " + advice(done, leak),
        )
    return True


def _chained(values: pd.Series, column: str, mappings: Mapping[str, pd.DataFrame] | None) -> bool:
    """True when the column's identity mapping table maps to the original values."""
    table = (mappings or {}).get(column)
    if table is None or column not in table.columns:
        return False
    return bool(values.dropna().astype(str).isin(table[column].dropna().astype(str)).all())


def judge_streamed_identifiers(
    direct: Sequence[str],
    identifiers_left: Sequence[str] | None,
    recipe_steps: Sequence[Mapping[str, Any]] | None,
    kinds_of: Mapping[str, Suggestion],
    problem: Problem,
) -> None:
    """A release an engine streamed keeps no values to compare: a direct identifier is
    handled only when removed or pseudonymised."""
    left = [c for c in direct if c in (identifiers_left or ())]
    if left:
        names = ", ".join(repr(str(column)) for column in left)
        problem(
            "direct_identifiers",
            f"Column(s) {names} classified as direct identifiers still hold original "
            "values: remove or pseudonymise them (PDPC guide, Step 2).",
        )
    if recipe_steps is None:
        return
    for column in direct:
        done = treatment(recipe_steps, column)
        if column in left or done.removed or done.pseudonymised:
            continue
        if done.forms:
            problem(
                "direct_identifiers",
                f"Column {column!r}, a direct identifier, is {form_words(done.forms)}: a release "
                "streamed by an engine is judged without its values, so remove or pseudonymise "
                "it (PDPC guide, Step 2).",
            )


def judge_free_text(
    column: str,
    original: pd.DataFrame,
    released: pd.DataFrame,
    recipe_steps: Sequence[Mapping[str, Any]] | None,
    review: Mapping[str, Any] | None,
    problem: Problem,
) -> tuple[str, str, str, int] | None:
    """A free-text column Step 1 calls direct, kept in the release: handled after a
    redaction whose rescan finds nothing, read and signed for by a person (Step 2)."""
    done = treatment(recipe_steps or (), column)
    redacted = "redact_text" in done.forms or (
        recipe_steps is None and not original[column].equals(released[column])
    )
    if not redacted:
        problem(
            "free_text",
            f"Free-text column {column!r} (Step 1: its text can hold names, NRIC numbers "
            "and other direct identifiers) is released without redaction: remove it, or "
            "redact it (redact_text with residue: true) and record that you read the result "
            "(PDPC guide, Step 2).",
        )
        return None
    found = rescan(released[column])
    if found:
        problem(
            "free_text",
            f"After redaction, a rescan of free-text column {column!r} still finds "
            f"{describe_findings(found)}: redact again with residue: true (or add the kinds "
            "to redact), or remove the column (PDPC guide, Step 2).",
        )
    cells = int(released[column].notna().sum())
    if review is None:
        problem(
            "text_review",
            f"No one has recorded reading the redacted free-text column {column!r}: a person "
            f"must read at least {min(MIN_REVIEWED_CELLS, cells)} of its cells and sign for "
            f"it (reviewed_text: {{{column}: {{by: NAME, at: DATE, rows_checked: N}}}} in the "
            "recipe, or the Report page) (PDPC guide, Step 2).",
        )
        return None
    short = review_shortfall(review, cells)
    if int(review["rows_checked"]) > cells:  # a signature, not a reading
        problem(
            "text_review",
            f"The review of free-text column {column!r} says {review['rows_checked']:,} cells "
            f"were read, but the released column holds {cells:,}: record the cells the "
            "reviewer read (PDPC guide, Step 2).",
        )
    elif short:
        problem(
            "text_review",
            f"The review of free-text column {column!r} read {review['rows_checked']} cells; "
            f"read at least {min(MIN_REVIEWED_CELLS, cells)} (PDPC guide, Step 2).",
        )
    return (column, review["by"], review["at"], int(review["rows_checked"]))


def undecided_columns(
    suggestions: Sequence[Suggestion],
    original: pd.DataFrame,
    released: pd.DataFrame,
    recipe_steps: Sequence[Mapping[str, Any]] | None,
    streamed: bool,
    *,
    listed: set[str],
    rare_below: int,
    problem: Problem,
) -> list[str]:
    """Columns Step 1 doubts (indirect, near-unique, unsure text, a category some of whose
    released values fewer than ``rare_below`` records share) that the release keeps but
    the recipe gives no place (PDPC guide, Step 1: know your data); returns them.

    A category is doubted for what it does, not what it is: Step 1 cannot read names it
    has no list for (``Ngozi Eze``, ``山田太郎``), and a column of them in a table with a
    few records per person is a "category" to it. When most of its values are each held
    by fewer than k records it singles people out as names do (one rare value among
    common ones, a small town, is left to the quasi-identifiers the recipe lists)."""
    doubts, columns = [], []
    for suggestion in suggestions:
        column = suggestion.column
        if column in listed or column not in original.columns:
            continue
        if treatment(recipe_steps or (), str(column)).pseudonymised:
            continue  # tokens: nothing to link on without the identity mapping table
        if streamed:
            if treatment(recipe_steps or (), str(column)).removed:
                continue
        elif column not in released.columns:
            continue
        if suggestion.role is Role.INDIRECT:
            doubts.append(
                f"{column!r} (an indirect identifier: {suggestion.kind.replace('_', ' ')})"
            )
        elif suggestion.kind in NEAR_UNIQUE_KINDS:
            doubts.append(f"{column!r} (nearly unique for every record)")
        elif suggestion.role is Role.DIRECT:  # one Step 1 is unsure of (with_classified)
            doubts.append(
                f"{column!r} (perhaps a direct identifier: {suggestion.kind.replace('_', ' ')})"
            )
        elif suggestion.kind == "unseen":
            doubts.append(
                f"{column!r} (no value in the first rows Step 1 read; the rest of "
                "the file is unread)"
            )
        elif suggestion.kind in UNSURE_KINDS:
            doubts.append(f"{column!r} (Step 1 is unsure what this text holds)")
        elif suggestion.kind == "category" and not streamed:
            counts = released[column].value_counts()
            rare = int((counts < rare_below).sum())
            if rare * 2 <= counts.size:  # most values single out small groups: like names
                continue
            doubts.append(
                f"{column!r} (a category of which {rare:,} value"
                f"{' is' if rare == 1 else 's are each'} held by fewer than "
                f"{rare_below} records: it singles them out)"
            )
        else:
            continue
        columns.append(str(column))
    if doubts:
        problem(
            "undecided",
            f"Step 1 doubts column(s) {', '.join(doubts)} that the recipe neither counts as "
            "quasi-identifiers nor removes: add them to quasi_identifiers (or "
            "direct_identifiers), remove them, or record why they are not quasi-identifiers "
            "(not_quasi_identifiers: {column: reason}) (PDPC guide, Step 1).",
        )
    return columns


def original_values_left(before: pd.Series, after: pd.Series) -> bool:
    """True when some record still shows its original (non-missing) value in ``after``.

    A direct identifier replaced by pseudonyms in every record is handled (PDPC guide,
    Step 2: remove *or* pseudonymise); one left as it was, or only partly replaced, is not.
    Records are matched by index label, so suppressed records do not count.
    """
    common = before.index.intersection(after.index)
    kept, aligned = before.loc[common], after.loc[common]
    same = kept.astype(str).to_numpy() == aligned.astype(str).to_numpy()
    return bool((same & kept.notna().to_numpy()).any())
