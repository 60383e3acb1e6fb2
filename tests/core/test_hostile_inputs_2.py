"""A second attacker's review of what reads strings from files someone else sent (issue 27,
red team round 2): hierarchy rules in a recipient's recipe, bundles, the DP ledger's lock,
the recipe's review and decision fields. Each test failed before its fix."""

from __future__ import annotations

import os
import time
import zipfile

import pandas as pd
import pytest

from core.dp import open_ledger
from core.errors import AnonymisationError, ParameterError, RecipeError
from core.file_lock import LockError, exclusive_lock
from core.hierarchy import build_hierarchy, masking_hierarchy
from core.hierarchy_rules import HierarchyRule
from core.recipe import Recipe, describe_step
from core.release.targets import parse_targets
from core.techniques.generalisation import generalise_bands
from core.text_rescan import scrub

# --- hierarchy rules (a recipient's recipe carries any rule it likes) ---------------------


def test_a_masking_rule_of_a_billion_levels_is_refused_before_anything_is_built():
    # before: accepted; building it ran one pass per level (100,000 levels: over a minute)
    for height in (100, 10**9):
        with pytest.raises(ParameterError, match=r"'height'.* at most 99"):
            HierarchyRule.from_mapping({"kind": "masking", "height": height})
    assert HierarchyRule.from_mapping({"kind": "masking", "height": 99}).height == 99
    step = {
        "step": "generalise",
        "column": "nric",
        "level": 1,
        "hierarchy_rule": {"kind": "masking", "height": 10**9},
    }
    with pytest.raises(RecipeError, match=r"Step 1: .*'height' must be at most 99"):
        Recipe.from_yaml(Recipe(steps=(step,), seed=1).to_yaml())


def test_a_masking_hierarchy_of_a_long_value_needs_a_height():
    # before: one level per character of the longest value (a 10,000-character cell: 55 s,
    # growing with the cube of the length; a 10 MiB cell would never end)
    values = pd.Series(["018956", "x" * 500], name="postal")
    started = time.perf_counter()
    with pytest.raises(
        ParameterError, match=r"'postal'.*500 characters.*at most 100 levels: give 'height'"
    ):
        masking_hierarchy(values, name="postal")
    assert time.perf_counter() - started < 2
    # with a height, the long value keeps its first characters up to the last level
    built = masking_hierarchy(values, height=3, name="postal")
    assert built.levels.shape == (2, 4)


@pytest.mark.parametrize(
    ("rule", "parameter"),
    [
        ({"kind": "numeric", "widths": [1e-300], "start": 0}, "widths"),
        ({"kind": "numeric", "widths": [1e16], "start": 0}, "widths"),
        ({"kind": "numeric", "widths": [10], "start": -1e300}, "start"),
        ({"kind": "numeric", "widths": [10], "start": 1e308}, "start"),
    ],
)
def test_a_numeric_rule_beyond_the_bounds_of_a_step_is_refused(rule, parameter):
    # before: accepted; a start of -1e300 labelled every value '[inf, inf)' and a start of
    # 1e308 was written back into the recipe as a 309-digit number
    with pytest.raises(ParameterError, match=rf"'{parameter}'.*1e\+15"):
        HierarchyRule.from_mapping(rule)


def test_a_band_start_beyond_the_bounds_of_a_step_is_refused():
    # before: a start of 1e308 overflowed (a RuntimeWarning) and labelled 1, 5 and 1e14 '0-9'
    df = pd.DataFrame({"age": [1.0, 5.0, 1e14]})
    with pytest.raises(ParameterError, match=r"'start' must be a number between -1e\+15"):
        generalise_bands(df, "age", width=10, start=1e308)


# --- the DP ledger and its lock ------------------------------------------------------------


def test_the_ledger_lock_is_never_a_link_or_a_pipe(tmp_path):
    # before: the lock followed a link planted as '<ledger>.lock' and created the file it
    # points to (anywhere the user may write), and locked a FIFO
    outside = tmp_path / "elsewhere" / "made.txt"
    outside.parent.mkdir()
    (tmp_path / "linked.json.lock").symlink_to(outside)
    os.mkfifo(tmp_path / "piped.json.lock")
    for ledger in ("linked.json", "piped.json"):
        lock = exclusive_lock(tmp_path / ledger, what="privacy ledger", wait_seconds=1)
        with pytest.raises(LockError, match=rf"{ledger}.lock' is not a regular file.*remove it"):
            lock.__enter__()
    assert not outside.exists()
    with exclusive_lock(tmp_path / "plain.json", what="privacy ledger", wait_seconds=1):
        assert (tmp_path / "plain.json.lock").is_file()


def test_a_ledger_nested_deep_or_a_pipe_is_one_line(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    with pytest.raises(ParameterError, match=r"Cannot read the privacy ledger .*deep\.json"):
        open_ledger(deep, epsilon=None)  # before: RecursionError, a traceback
    piped = tmp_path / "piped.json"
    os.mkfifo(piped)
    started = time.perf_counter()
    with pytest.raises(ParameterError, match=r"'.*piped\.json' is not a regular file"):
        open_ledger(piped, epsilon=None)  # before: waited for a writer for ever
    assert time.perf_counter() - started < 5


# --- the recipe's decisions and reviews on the terminal -------------------------------------


def test_a_reason_in_the_recipe_cannot_retitle_or_recolour_the_terminal(tmp_path, capsys):
    # before: apply --engine printed the release check's statement raw, so a reason holding
    # ESC ] 0 ; ... BEL retitled the terminal and ESC [ 31 m turned it red
    pytest.importorskip("duckdb")
    from core.cli import main

    people = pd.DataFrame(
        {"age": [31, 32, 33, 34, 35, 36] * 2, "sex": ["F", "M"] * 6, "ward": ["A", "B", "C"] * 4}
    )
    people.to_csv(tmp_path / "people.csv", index=False)
    (tmp_path / "recipe.yaml").write_text(
        "seed: 1\nquasi_identifiers: [age, sex]\nk: 2\n"
        'not_quasi_identifiers: {ward: "kept\\e]0;PWNED\\a\\e[31m red"}\n'
        "steps:\n  - {step: generalise, column: age, width: 10}\n"
    )
    capsys.readouterr()
    code = main(
        [
            "apply",
            str(tmp_path / "people.csv"),
            "--recipe",
            str(tmp_path / "recipe.yaml"),
            "--out",
            str(tmp_path / "out.csv"),
            "--engine",
            "duckdb",
        ]
    )
    err = capsys.readouterr().err
    assert code == 0, err
    assert "\x1b" not in err and "\x07" not in err
    assert "kept\\x1b]0;PWNED\\x07\\x1b[31m red" in err


# --- the rescan's scrub on a huge cell --------------------------------------------------------


def test_name_words_in_a_million_character_cell_are_scrubbed_in_linear_time():
    # before: each name-like word was cut out by copying the whole value (value[:start] +
    # "[NAME]" + value[end:]): 100,000 characters took 0.5 s, 500,000 took 10.5 s, growing
    # with the square of the length (a 10 MiB cell: over an hour)
    cell = "tan ah " * 150_000  # 1,050,000 characters; each pair is a family and a given name
    started = time.perf_counter()
    out = scrub(pd.Series([cell, None]))
    assert time.perf_counter() - started < 10
    assert out[0] == "[NAME] " * 300_000 and pd.isna(out[1])


def test_an_area_shape_nested_deep_is_named_by_its_row():
    # before: json.loads raised RecursionError on the Contextual page's areas table (a
    # traceback's type only), only ValueError was caught
    from core.geo import area_shapes

    areas = pd.DataFrame({"shape": ["", "[" * 100_000]})
    with pytest.raises(ParameterError, match=r"Column 'shape', row 2: not a GeoJSON"):
        area_shapes(areas, "shape")


# --- the recipe's targets ------------------------------------------------------------------


@pytest.mark.parametrize("sensitive", [["diagnosis"], {"a": 1}, None, True])
def test_a_target_whose_sensitive_column_is_not_a_name_is_refused_when_read(sensitive):
    # before: accepted when the recipe was read; judging the release then raised
    # TypeError: unhashable type: 'list' (a traceback)
    spec = {"sensitive": sensitive, "l": 2}
    with pytest.raises(ParameterError, match=r"'sensitive' must be one column name"):
        parse_targets({"l_diversity": spec})
    text = Recipe((), 1, {"targets": {"l_diversity": spec}}).to_yaml()
    with pytest.raises(RecipeError, match=r"'sensitive' must be one column name"):
        Recipe.from_yaml(text)


# --- hierarchies kept in a workspace someone sent --------------------------------------------


def test_a_stored_hierarchy_that_is_not_text_is_one_line(tmp_path, capsys):
    # before: SQLite keeps any type in any column; a hierarchy stored as bytes made
    # 'verify' fail with AttributeError: 'bytes' object has no attribute 'encode'
    from core.cli import main
    from core.workspace import Workspace, WorkspaceError

    path = tmp_path / "sent.anon.db"
    with Workspace(path) as ws:
        with ws.transaction() as conn:
            conn.execute(
                "INSERT INTO hierarchies (name, column_name, sha256, content, "
                "created_at) VALUES ('hierarchies/a.csv', 'age', 'x', X'3330', 'now')"
            )
            ws.log("hierarchy", "hierarchy:hierarchies/a.csv", {"sha256": "x"})
        with pytest.raises(WorkspaceError, match=r"hierarchy 'hierarchies/a.csv' is not text"):
            ws.hierarchies()
    capsys.readouterr()
    assert main(["verify", "--workspace", str(path)]) == 2
    assert "is not text" in capsys.readouterr().err


@pytest.mark.parametrize("level", [-3, "x", 2.5, True])
def test_a_rule_level_that_is_not_a_level_is_refused_when_the_recipe_is_read(level):
    # before: read without a word; describing the step (sidebar, report) raised IndexError
    # for -3, and 'x' or 2.5 were shown as levels
    step = {
        "step": "generalise",
        "column": "age",
        "level": level,
        "hierarchy_rule": {"kind": "numeric", "widths": [5], "start": 0},
    }
    with pytest.raises(RecipeError, match=r"Step 1: .*'level' must be"):
        Recipe.from_yaml(Recipe((step,), 1, {}).to_yaml())
    assert "level" in describe_step(step)  # a step built in code is described, not a crash


def test_a_bundle_of_a_million_entries_is_refused_before_its_list_is_built(tmp_path):
    # before: zipfile built every entry's record first (300,000 empty entries in a 27 MB
    # zip: 1.2 s and 180 MB; a 2 GB zip of them would need about 13 GB) and only then
    # were they counted
    from core.release.bundle_reader import read_bundle

    path = tmp_path / "many.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(20_000):
            archive.writestr(f"h{i}", b"")
    built = []
    original_init = zipfile.ZipInfo.__init__

    def counting_init(self, *args, **kwargs):
        built.append(1)
        original_init(self, *args, **kwargs)

    zipfile.ZipInfo.__init__ = counting_init
    try:
        with pytest.raises(AnonymisationError, match=r"more than 10,000 files"):
            read_bundle(path)
    finally:
        zipfile.ZipInfo.__init__ = original_init
    assert not built


def test_a_bundle_whose_end_record_understates_its_entries_is_refused(tmp_path):
    # zipfile reads the central directory by its size, not its count: a count of 1 over
    # 300,000 entries must not get them read
    from core.release.bundle_reader import read_bundle

    path = tmp_path / "lying.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(300_000):
            archive.writestr(f"h{i}", b"")
    raw = bytearray(path.read_bytes())
    for signature, offsets in ((b"PK\x06\x06", (24, 32)), (b"PK\x05\x06", (8, 10))):
        at = raw.rfind(signature)
        if at >= 0:
            for offset in offsets:  # entries on this disk and in all: 1
                width = 8 if signature == b"PK\x06\x06" else 2
                raw[at + offset : at + offset + width] = (1).to_bytes(width, "little")
    path.write_bytes(bytes(raw))
    started = time.perf_counter()
    with pytest.raises(AnonymisationError, match=r"more than 10,000 files"):
        read_bundle(path)
    assert time.perf_counter() - started < 0.5


def test_a_recorded_row_of_json_nested_deep_is_one_line(tmp_path, capsys):
    # before: verify read a risk row's quasi-identifiers with json.loads: RecursionError
    from core.cli import main
    from core.workspace import Workspace

    path = tmp_path / "sent.anon.db"
    with Workspace(path) as ws:
        ws.add_risk(data_sha256="d" * 64, quasi_identifiers=["age"], k=2, p_reid=0.5)
        with ws.transaction() as conn:
            conn.execute(
                "UPDATE risk_computations SET quasi_identifiers_json = ?", ("[" * 100_000,)
            )
    capsys.readouterr()
    assert main(["verify", "--workspace", str(path)]) == 2
    assert "is not readable JSON" in capsys.readouterr().err


def test_a_numeric_hierarchy_of_values_beyond_a_step_is_refused():
    # before: values of -1e308 and 1e308 (a CSV someone sent) overflowed: a RuntimeWarning
    # and bands labelled with inf
    values = pd.Series([-1e308, 1e308, 30.0], name="income")
    with pytest.raises(ParameterError, match=r"at most 1e\+15 in size.*-1e\+308"):
        build_hierarchy(values, "numeric", widths=[10])
