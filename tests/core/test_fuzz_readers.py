"""Fuzzing every reader of a file someone may have sent (issue 27): CSV, xlsx, Parquet,
recipe YAML (read and run), hierarchy files and workspaces.

For any input, a reader returns or raises one of the project's errors
(:class:`core.errors.AnonymisationError`, a one-line message): never another exception,
which would reach the user as a traceback. Nothing is written outside the test's own
folder, and the process's peak memory grows by less than :data:`MEMORY_GROWTH_BYTES`.

Inputs are both made up (text from an alphabet of the characters that matter to each
format) and mutated from a valid file (bytes flipped, cut, repeated), which reaches
deeper into a format's parser than random bytes do. Hypothesis is derandomised (the
suite's runs are reproducible, as STYLE.md asks of randomness) and bounded: a few hundred
examples per reader and a deadline each, so the whole file runs in well under a minute.
"""

from __future__ import annotations

import io
import os
import resource
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import AnonymisationError
from core.hierarchy import read_hierarchy
from core.io import read_table, table_to_bytes
from core.recipe import Recipe, apply_recipe
from core.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
#: Largest growth of the process's peak memory (ru_maxrss) one reader's fuzzing may cause.
MEMORY_GROWTH_BYTES = 512 * 2**20

FUZZ = settings(
    max_examples=300,
    deadline=2000,  # milliseconds per example: a reader that takes longer is a finding
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

PEOPLE = pd.DataFrame(
    {
        "nric": ["S1234567D", "S7654321A", "T0123456B"],
        "age": [31, 45, 58],
        "sex": ["F", "M", "F"],
        "postal": ["018956", "560123", "099999"],
        "income": [3200.5, None, 12000.0],
    }
)


@pytest.fixture(autouse=True)
def contained(tmp_path, monkeypatch):
    """Each test runs in its own empty folder: afterwards, nothing may have been written
    there or in the repository, and peak memory may have grown only so much."""
    monkeypatch.chdir(tmp_path)
    before_root = sorted(p.name for p in ROOT.iterdir())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    yield tmp_path
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - peak
    assert grown < MEMORY_GROWTH_BYTES, f"peak memory grew by {grown / 2**20:.0f} MiB"
    assert sorted(p.name for p in ROOT.iterdir()) == before_root


def _only_our_errors(read, *args, **kwargs):
    """``read(...)``'s result, None when it refused the input with one of our errors."""
    try:
        return read(*args, **kwargs)
    except AnonymisationError as error:
        assert "\n" not in str(error).strip(), str(error)  # one line
        assert "Traceback" not in str(error)
        return None


@st.composite
def mutated(draw, valid: bytes) -> bytes:
    """``valid`` with a few bytes replaced, a slice cut out or repeated, or cut short."""
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "repeat", "truncate"]))
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        if kind == "flip":
            data[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        elif kind == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 64))] * draw(st.integers(1, 8))
        else:
            del data[at:]
    return bytes(data)


# --- tables --------------------------------------------------------------------------------

CSV_TEXT = st.text(
    alphabet=st.sampled_from(list(",;\t|\"'\n\r =+-@.0123456789abcXYZ\x00\ufeff\u00e9\u202e")),
    max_size=300,
)
CSV_BYTES = st.one_of(
    CSV_TEXT.map(lambda text: text.encode("utf-8")),
    CSV_TEXT.map(lambda text: text.encode("utf-16")),
    mutated(table_to_bytes(PEOPLE, "csv")),
    st.binary(max_size=300),
)


@FUZZ
@given(data=CSV_BYTES)
def test_csv_reader_returns_a_table_or_one_of_our_errors(data):
    table = _only_our_errors(read_table, data, name="sent.csv")
    assert table is None or isinstance(table, pd.DataFrame)


@FUZZ
@given(data=CSV_BYTES)
def test_csv_file_reader_returns_the_table_of_its_bytes_or_one_of_our_errors(contained, data):
    """A file is read by another path (pyarrow streams it, the head decides the dialect):
    it gives the table its bytes give, or an error."""
    path = contained / "sent.csv"
    path.write_bytes(data)
    table = _only_our_errors(read_table, path)
    if table is not None:
        pd.testing.assert_frame_equal(table, read_table(data, name="sent.csv"), check_like=False)


@FUZZ
@given(data=st.one_of(CSV_BYTES, mutated(table_to_bytes(PEOPLE, "parquet"))))
def test_engine_sources_are_checked_or_refused_with_one_of_our_errors(contained, data):
    """The DuckDB and Spark engines' first look at a file (header, dialect, schema)."""
    from core.engines.sources import resolve_sources

    suffix = ".parquet" if data.startswith(b"PAR1") else ".csv"
    (contained / f"sent{suffix}").write_bytes(data)
    _only_our_errors(resolve_sources, str(contained / f"sent{suffix}"))


@FUZZ
@given(data=mutated(table_to_bytes(PEOPLE, "xlsx")))
def test_xlsx_reader_returns_a_table_or_one_of_our_errors(data):
    table = _only_our_errors(read_table, data, name="sent.xlsx")
    assert table is None or isinstance(table, pd.DataFrame)


@FUZZ
@given(data=mutated(table_to_bytes(PEOPLE, "parquet")))
def test_parquet_reader_returns_a_table_or_one_of_our_errors(data):
    table = _only_our_errors(read_table, data, name="sent.parquet")
    assert table is None or isinstance(table, pd.DataFrame)


# --- recipes -------------------------------------------------------------------------------

VALID_RECIPE = """\
seed: 7
quasi_identifiers: [age, sex]
k: 2
steps:
  - {step: remove, columns: [nric]}
  - {step: generalise, column: age, width: 10}
  - {step: mask, column: postal, keep_first: 2}
  - {step: round, column: income, base: 100}
  - {step: pseudonymise, column: sex}
  - {step: suppress_records, below_k: 2, quasi_identifiers: [age, sex]}
"""
YAML_TOKENS = st.sampled_from(
    [
        "steps:",
        "step:",
        " ",
        "\n",
        "  - ",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "&a",
        "*a",
        "!!python",
        "seed",
        "1e3",
        "1.0e+308",
        "-1",
        "0",
        "null",
        "~",
        "'",
        '"',
        "age",
        "remove",
        "generalise",
        "width",
        "columns",
        "hierarchy",
        "/etc/passwd",
        "../x",
        "\t",
        "#",
    ]
)
RECIPE_TEXT = st.one_of(
    st.lists(YAML_TOKENS, max_size=40).map("".join),
    # nesting: PyYAML recursed past Python's limit on '[[[[...' (RecursionError)
    st.tuples(st.sampled_from(["[", "- ", "{a: ", "steps: ["]), st.integers(1, 5000)).map(
        lambda opener: opener[0] * opener[1]
    ),
    mutated(VALID_RECIPE.encode()).map(lambda data: data.decode("utf-8", "replace")),
)


@FUZZ
@given(text=RECIPE_TEXT)
def test_a_recipe_is_read_and_run_or_refused_with_one_of_our_errors(text):
    recipe = _only_our_errors(Recipe.from_yaml, text)
    if recipe is not None:  # what a recipe says is hostile too: run it on a small table
        _only_our_errors(apply_recipe, PEOPLE, recipe, base_dir=Path.cwd())


# --- hierarchies ---------------------------------------------------------------------------

HIERARCHY_TEXT = st.text(
    alphabet=st.sampled_from(list(';,\n\r"* -0123456789ab\x00\ufeff')), max_size=300
)


@FUZZ
@given(
    data=st.one_of(
        HIERARCHY_TEXT.map(lambda text: text.encode("utf-8")),
        mutated(b"20;20-29;*\n25;20-29;*\n31;30-39;*\n45;40-49;*\n"),
        st.binary(max_size=300),
    )
)
def test_hierarchy_reader_returns_a_hierarchy_or_one_of_our_errors(data):
    hierarchy = _only_our_errors(read_hierarchy, io.BytesIO(data))
    if hierarchy is not None:
        _only_our_errors(hierarchy.generalise, pd.Series(["20", "31"], name="age"), 1)


# --- workspaces ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def workspace_bytes(tmp_path_factory) -> bytes:
    """A small valid workspace: a data set, roles, a recipe version, a hierarchy."""
    path = tmp_path_factory.mktemp("ws") / "valid.anon.db"
    with Workspace(path) as ws:
        sha = ws.add_dataset(PEOPLE, name="people.csv", store_data=True)
        ws.set_roles(sha, {"age": "indirect", "sex": "indirect"}, author="test")
        ws.add_recipe_version(Recipe.from_yaml(VALID_RECIPE).to_yaml(), message="first")
        ws.put_hierarchy("hierarchies/age-0123456789.csv", "20;*\n31;*\n", column="age")
    for suffix in ("-wal", "-shm"):  # everything in the one file
        assert not Path(f"{path}{suffix}").exists() or os.path.getsize(f"{path}{suffix}") == 0
    return path.read_bytes()


def _read_everything(path: Path) -> None:
    with Workspace(path) as ws:
        ws.verify_chain()
        ws.audit_entries()
        ws.settings()
        ws.datasets()
        ws.recipe_versions()
        ws.hierarchies()
        ws.releases()


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_a_damaged_workspace_is_read_or_refused_with_one_of_our_errors(
    workspace_bytes, contained, data
):
    damaged = data.draw(mutated(workspace_bytes))
    path = contained / "sent.anon.db"
    for leftover in contained.glob("sent.anon.db*"):
        leftover.unlink()
    path.write_bytes(damaged)
    _only_our_errors(_read_everything, path)
    written = sorted(p.name for p in contained.iterdir())
    # the workspace and SQLite's own journal files beside it, nothing else
    assert all(name.startswith("sent.anon.db") for name in written), written
