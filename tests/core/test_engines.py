"""core.engines: the frequency table computed by DuckDB and by Spark gives exactly the
figures of the in-memory (pandas) path, on adult and on a seeded table."""

from __future__ import annotations

import json
import sys
import threading
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from core import cli
from core.engines import choose_engine, coded_frequency_table, frequency_table, read_ahead
from core.errors import AnonymisationError, DataReadError
from core.io import read_table
from core.risk import risk_report

ADULT_QIS = ["age", "sex", "race", "marital-status", "education"]


def _seeded(rows: int = 20_000, seed: int = 5) -> pd.DataFrame:
    """Text with blanks, 'NA' as a value, postal codes with leading zeros, numbers."""
    rng = np.random.default_rng(seed)
    town = rng.choice(["north", "south", "east", "west", "NA", ""], size=rows)
    return pd.DataFrame(
        {
            "postal": [f"{v:06d}" for v in rng.integers(0, 3000, size=rows) * 37],
            "age": rng.integers(18, 80, size=rows),
            "town": town,
            "sex": rng.choice(["F", "M"], size=rows),
            "income": rng.integers(0, 12, size=rows) * 1000,
            "diagnosis": rng.choice(["flu", "cold", "asthma", "none"], size=rows),
        }
    )


def _same_figures(expected: dict, got: dict) -> None:
    assert got.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key
        else:
            assert got[key] == value, key


def _figures(df: pd.DataFrame, qis, sensitive) -> dict:
    return risk_report(df, qis, sensitive=sensitive).to_dict()


def _engine_figures(source, qis, sensitive, engine, **options) -> dict:
    freq = frequency_table(str(source), [*qis, sensitive], engine=engine, **options)
    return risk_report(freq.table, qis, sensitive=sensitive, counts=freq.counts).to_dict()


@pytest.fixture(scope="module")
def seeded_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeded")
    df = _seeded()
    csv = folder / "people.csv"
    df.to_csv(csv, index=False)
    parts = folder / "parts"
    parts.mkdir()
    for i, part in enumerate(np.array_split(np.arange(len(df)), 3)):
        read_table(csv).iloc[part].to_parquet(parts / f"part-{i}.parquet", index=False)
    return csv, parts


# --- DuckDB ------------------------------------------------------------------------


def test_duckdb_gives_the_pandas_figures_on_adult(adult_hierarchies_dir):
    pytest.importorskip("duckdb")
    path = adult_hierarchies_dir / "adult.csv"
    expected = _figures(read_table(path), ADULT_QIS, "occupation")
    _same_figures(expected, _engine_figures(path, ADULT_QIS, "occupation", "duckdb"))


@pytest.mark.parametrize("sensitive", ["income", "diagnosis"])  # ordered and equal t
def test_duckdb_gives_the_pandas_figures_on_a_seeded_csv(seeded_files, sensitive):
    pytest.importorskip("duckdb")
    csv, _ = seeded_files
    qis = ["postal", "age", "town", "sex"]
    expected = _figures(read_table(csv), qis, sensitive)
    got = _engine_figures(csv, qis, sensitive, "duckdb")
    _same_figures(expected, got)
    assert got["t_distance"] == ("ordered" if sensitive == "income" else "equal")


def test_duckdb_reads_text_as_the_reader_does(seeded_files):
    pytest.importorskip("duckdb")
    csv, _ = seeded_files
    freq = frequency_table(str(csv), ["postal", "town", "age"], engine="duckdb")
    assert freq.table["postal"].str.startswith("0").any()  # leading zeros kept as text
    assert "NA" in set(freq.table["town"])  # a value, not missing
    assert freq.table["town"].isna().any()  # only the empty field is missing
    assert freq.table["age"].cat.categories.dtype == np.int64  # codes of numbers
    assert freq.records == 20_000


def test_duckdb_skips_blank_lines_as_the_reader_does(tmp_path):
    pytest.importorskip("duckdb")
    path = tmp_path / "blank.csv"
    path.write_text('\n\nage,sex\n1,F\n\n2,M\n"",\n1,F\n')
    freq = frequency_table(str(path), ["age", "sex"], engine="duckdb")
    expected = read_table(path).groupby(["age", "sex"], dropna=False).size().reset_index()
    got = freq.table.assign(n=freq.counts)
    # NaN != NaN: compare the rows as text
    assert sorted(map(str, got.to_numpy().tolist())) == sorted(
        map(str, expected.to_numpy().tolist())
    )
    assert freq.records == 4  # the header is not a record


@pytest.mark.parametrize("form", ["folder", "glob"])
def test_duckdb_reads_a_folder_or_glob_of_parquet(seeded_files, form):
    pytest.importorskip("duckdb")
    csv, parts = seeded_files
    source = parts if form == "folder" else parts / "part-*.parquet"
    qis = ["postal", "age", "town"]
    _same_figures(
        _figures(read_table(csv), qis, "diagnosis"),
        _engine_figures(source, qis, "diagnosis", "duckdb"),
    )


def test_cli_risk_engine_duckdb_matches_pandas(seeded_files, capsys):
    pytest.importorskip("duckdb")
    csv, _ = seeded_files
    args = ["risk", str(csv), "--qi", "postal,age,town", "--sensitive", "income", "--json"]
    assert cli.main(args) == 0
    pandas_figures = json.loads(capsys.readouterr().out)
    assert cli.main([*args, "--engine", "duckdb"]) == 0
    duck = json.loads(capsys.readouterr().out)
    assert duck.pop("engine") == "duckdb"
    _same_figures(pandas_figures, duck)


def _batch(letter: list, number: list, records: list) -> pa.RecordBatch:
    return pa.record_batch(
        [
            pa.array(letter, pa.string()),
            pa.array(number, pa.string()),
            pa.array(records, pa.int64()),
        ],
        names=["g0", "g1", "__records__"],
    )


def test_frequency_table_is_coded_batch_by_batch():
    """Values first met in a later batch get new codes; after the reader's number rule,
    '1' and '1.0' (and ' 2' and '2') are one value; an empty field is missing (code -1)."""
    batches = [
        _batch(["x", "y", None], ["1", "2", None], [2, 1, 1]),
        _batch(["z", "x", None], ["1.0", "3", " 2"], [4, 1, 1]),
    ]
    table, counts = coded_frequency_table(iter(batches), ["letter", "number"], as_read=True)
    assert list(table.columns) == ["letter", "number"]
    assert isinstance(table["letter"].dtype, pd.CategoricalDtype)
    assert table["letter"].tolist()[:2] + table["letter"].tolist()[3:5] == ["x", "y", "z", "x"]
    assert table["letter"].isna().tolist() == [False, False, True, False, False, True]
    assert sorted(table["letter"].cat.categories) == ["x", "y", "z"]
    assert table["number"].cat.categories.dtype == np.float64  # a missing value: floats
    assert sorted(table["number"].cat.categories) == [1.0, 2.0, 3.0]
    assert table["number"].tolist()[:2] + table["number"].tolist()[3:] == [1, 2, 1, 3, 2]
    assert table["number"].cat.codes[2] == -1
    assert counts.tolist() == [2, 1, 1, 4, 1, 1] and counts.dtype == np.int64
    # classes (x, 1): 2 records, (z, 1): 4; (y, 2), (-, -), (x, 3), (-, 2): one each
    report = risk_report(table, ["letter", "number"], counts=counts, k_threshold=3).to_dict()
    assert (report["records"], report["classes"], report["k"], report["uniques"]) == (10, 6, 1, 4)
    assert report["records_below_k"] == 2 + 4  # below 3: (x, 1) and the four single records


def test_a_batch_of_values_all_seen_before_gets_their_codes():
    """Once every value of a batch has been seen (the usual case after the first batches),
    it is coded by one lookup; a new value or the first missing one takes the full path."""
    batches = [
        _batch(["x", "y"], ["1", "2"], [1, 1]),
        _batch(["y", "x", "y"], ["2", "1", "1"], [1, 1, 1]),  # all seen
        _batch([None, "x"], ["3", None], [1, 1]),  # new: missing, 3, missing
        _batch(["x", None, "y"], [None, "3", "2"], [1, 1, 1]),  # all seen, missing too
    ]
    table, _ = coded_frequency_table(iter(batches), ["letter", "number"], as_read=True)
    letters = table["letter"].astype(object).where(table["letter"].notna(), None)
    assert letters.tolist() == ["x", "y", "y", "x", "y", None, "x", "x", None, "y"]
    numbers = table["number"].astype(float).fillna(-1).tolist()
    assert numbers == [1, 2, 2, 1, 1, 3, -1, -1, 3, 2]


def _numbers(stop_after: int | None = None, log: list | None = None):
    """0, 1, 2, ...: the thread that made each, and whether the generator was closed."""
    try:
        for n in range(stop_after if stop_after is not None else 10):
            if log is not None:
                log.append(threading.current_thread().name)
            yield n
        if stop_after is not None:
            raise ValueError("the source failed")
    finally:
        if log is not None:
            log.append("closed")


def test_read_ahead_gives_every_item_in_order_first_from_the_caller():
    log: list = []
    assert list(read_ahead(_numbers(log=log), depth=2)) == list(range(10))
    assert log[0] == threading.current_thread().name  # the GROUP BY's wait: Ctrl-C hears it
    assert set(log[1:-1]) == {"read-ahead"} and log[-1] == "closed"


def test_read_ahead_raises_the_sources_error_in_the_caller():
    got = []
    with pytest.raises(ValueError, match="the source failed"):
        for item in read_ahead(_numbers(stop_after=5)):
            got.append(item)
    assert got == [0, 1, 2, 3, 4]


def test_read_ahead_closes_the_source_when_the_caller_stops_early():
    """Stopping early (an error while coding, Ctrl-C) closes the source before read_ahead
    returns: DuckDB's connection and spill folder are gone by then."""
    log: list = []
    ahead = read_ahead(_numbers(log=log), depth=1)
    assert [next(ahead), next(ahead)] == [0, 1]
    ahead.close()
    assert log[-1] == "closed" and len(log) < 12


def test_frequency_table_of_text_columns_without_the_number_rule():
    batches = [_batch(["b", "a"], ["01", "1"], [1, 2]), _batch(["a"], ["1"], [3])]
    table, counts = coded_frequency_table(batches, ["letter", "code"], as_read=False)
    assert table["code"].tolist() == ["01", "1", "1"]  # text stays text (Parquet)
    assert table["letter"].tolist() == ["b", "a", "a"] and counts.tolist() == [1, 2, 3]
    big = [_batch(["a"], ["1"], [2**31 + 5]), _batch(["b"], ["2"], [7])]
    assert coded_frequency_table(big, ["l", "n"], as_read=True)[1].tolist() == [2**31 + 5, 7]
    empty, none = coded_frequency_table([], ["letter", "code"], as_read=True)
    assert empty.shape == (0, 2) and none.size == 0


@pytest.mark.parametrize("sensitive", ["income", "diagnosis"])
def test_duckdb_in_small_batches_gives_the_pandas_figures(seeded_files, monkeypatch, sensitive):
    """The frequency table arrives in many batches, each meeting values in another order."""
    pytest.importorskip("duckdb")
    from core.engines import duckdb_engine

    monkeypatch.setattr(duckdb_engine, "BATCH_ROWS", 1_000)
    csv, parts = seeded_files
    qis = ["postal", "age", "town", "sex"]
    expected = risk_report(read_table(csv), qis, sensitive=sensitive).to_dict()
    for source in (csv, parts):
        freq = frequency_table(str(source), [*qis, sensitive], engine="duckdb")
        assert len(freq.table) > 10_000  # many batches
        got = risk_report(freq.table, qis, sensitive=sensitive, counts=freq.counts).to_dict()
        _same_figures(expected, got)


# --- bad input -----------------------------------------------------------------------


def _cli_error(capsys, *args: str) -> str:
    assert cli.main(["risk", *args, "--qi", "age", "--engine", "duckdb"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def test_a_glob_matching_no_files_is_a_clear_error(tmp_path, capsys):
    assert "matches no files" in _cli_error(capsys, str(tmp_path / "none-*.parquet"))


def test_parquet_files_with_different_types_or_columns_are_refused(tmp_path, capsys):
    pd.DataFrame({"age": [1, 2], "sex": ["F", "M"]}).to_parquet(tmp_path / "a.parquet")
    pd.DataFrame({"age": ["1", "2"], "sex": ["F", "M"]}).to_parquet(tmp_path / "b.parquet")
    err = _cli_error(capsys, str(tmp_path))
    assert "column 'age' is int64" in err and "b.parquet" in err
    (tmp_path / "b.parquet").unlink()
    pd.DataFrame({"age": [3]}).to_parquet(tmp_path / "c.parquet")
    err = _cli_error(capsys, str(tmp_path / "*.parquet"))
    assert "lacks column(s) 'sex'" in err and "c.parquet" in err


def test_csv_files_with_different_headers_are_refused(tmp_path, capsys):
    (tmp_path / "a.csv").write_text("age,sex\n1,F\n")
    (tmp_path / "b.csv").write_text("age,town\n1,x\n")
    err = _cli_error(capsys, str(tmp_path / "*.csv"))
    assert "header of" in err and "b.csv" in err and "lacks column(s) 'sex'" in err


def test_a_ragged_csv_row_is_a_clear_error(tmp_path, capsys):
    pytest.importorskip("duckdb")
    (tmp_path / "a.csv").write_text("age,sex\n1,F\n2\n")
    assert "DuckDB could not read" in _cli_error(capsys, str(tmp_path / "a.csv"))


def test_a_table_without_records_is_refused_as_read_table_refuses_it(tmp_path, capsys):
    pytest.importorskip("duckdb")
    (tmp_path / "a.csv").write_text("age,sex\n")
    err = _cli_error(capsys, str(tmp_path / "a.csv"))
    assert "has a header row (2 column(s)) but no data rows" in err  # not "0-anonymous"
    for part in ("p1", "p2"):
        pd.DataFrame({"age": pd.Series([], dtype="int64")}).to_parquet(tmp_path / f"{part}.parquet")
    with pytest.raises(DataReadError, match="The 2 files have a header row"):
        frequency_table(str(tmp_path / "*.parquet"), ["age"], engine="duckdb")


def test_missing_engine_names_the_package_to_install(monkeypatch, tmp_path, capsys):
    (tmp_path / "a.csv").write_text("age,sex\n1,F\n")
    monkeypatch.setitem(sys.modules, "duckdb", None)  # import duckdb now fails
    assert "pip install duckdb" in _cli_error(capsys, str(tmp_path / "a.csv"))


def test_missing_java_names_the_package_to_install(monkeypatch):
    pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    from core.engines import spark_engine

    monkeypatch.setattr(SparkSession, "getActiveSession", staticmethod(lambda: None))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setattr(spark_engine.shutil, "which", lambda name: None)
    with pytest.raises(AnonymisationError, match="default-jre-headless"):
        spark_engine.spark_session()


def test_auto_engine_uses_duckdb_for_folders_and_globs(tmp_path):
    (tmp_path / "a.csv").write_text("age\n1\n")
    assert choose_engine(str(tmp_path / "a.csv")) == "pandas"
    assert choose_engine(str(tmp_path)) == "duckdb"
    assert choose_engine(str(tmp_path / "*.csv")) == "duckdb"
    assert choose_engine(str(tmp_path / "a.csv"), "spark") == "spark"


def test_unknown_column_or_format_is_named(seeded_files, tmp_path):
    csv, _ = seeded_files
    with pytest.raises(AnonymisationError, match="'postcode'"):
        frequency_table(str(csv), ["postcode"], engine="duckdb")
    (tmp_path / "book.xlsx").write_bytes(b"PK")
    with pytest.raises(DataReadError, match="not CSV or Parquet"):
        frequency_table(str(tmp_path / "book.xlsx"), ["age"], engine="duckdb")


# --- Spark (real, local mode; one session for all) ------------------------------------


def test_spark_gives_the_pandas_figures_on_adult(spark, adult_hierarchies_dir):
    path = adult_hierarchies_dir / "adult.csv"
    expected = _figures(read_table(path), ADULT_QIS, "occupation")
    _same_figures(expected, _engine_figures(path, ADULT_QIS, "occupation", "spark"))


def test_spark_gives_the_pandas_figures_on_a_folder_of_seeded_parquet(spark, seeded_files):
    csv, parts = seeded_files
    qis = ["postal", "age", "town", "sex"]
    expected = _figures(read_table(csv), qis, "income")
    _same_figures(expected, _engine_figures(parts, qis, "income", "spark"))


def test_spark_frequency_table_of_a_loaded_dataframe(spark, adult):
    from core.engines.spark_engine import spark_frequency_table

    # a name with a dot would be a struct field in a Spark expression: read by position
    adult = adult.rename(columns={"marital-status": "marital.status"})
    qis = ["age", "sex", "marital.status"]
    frame = spark.createDataFrame(adult[[*qis, "occupation"]].astype({"age": "int64"}))
    freq = spark_frequency_table(frame, [*qis, "occupation"])
    got = risk_report(freq.table, qis, sensitive="occupation", counts=freq.counts).to_dict()
    _same_figures(_figures(adult, qis, "occupation"), got)


def test_spark_refuses_a_table_without_records(spark, tmp_path):
    (tmp_path / "a.csv").write_text("age,sex\n")
    with pytest.raises(DataReadError, match="but no data rows"):
        frequency_table(str(tmp_path / "a.csv"), ["age", "sex"], engine="spark")


@pytest.mark.parametrize("cap", [None, 3])  # packed codes; a GROUP BY of the values
def test_spark_counts_packed_codes_or_falls_back_to_its_group_by(
    spark, seeded_files, monkeypatch, cap
):
    from core.engines import spark_engine

    grouped = []
    real_count = spark_engine._count
    monkeypatch.setattr(spark_engine, "_count", lambda *a: grouped.append(1) or real_count(*a))
    if cap is not None:  # 'town' has 6 distinct values (one missing): more than the cap
        monkeypatch.setattr(spark_engine, "MAX_BROADCAST_VALUES", cap)
    csv, parts = seeded_files
    qis = ["postal", "age", "town", "sex"]
    expected = _figures(read_table(csv), qis, "diagnosis")
    for source in (csv, parts):
        _same_figures(expected, _engine_figures(source, qis, "diagnosis", "spark"))
    assert bool(grouped) == (cap is not None)


# --- progress of Spark jobs (core.progress fed from Spark's status tracker) -------------


class _Stage:
    def __init__(self, stage_id: int, tasks: int, completed: int):
        self.stageId, self.numTasks, self.numCompletedTasks = stage_id, tasks, completed


class _Tracker:
    """Spark's SparkStatusTracker as far as the progress reads it."""

    def __init__(self, *stages: _Stage):
        self.stages = {s.stageId: s for s in stages}

    def getActiveStageIds(self):  # noqa: N802 - Spark's name
        return list(self.stages)

    def getStageInfo(self, stage_id):  # noqa: N802 - Spark's name
        return self.stages.get(stage_id)


def test_running_stages_are_the_tasks_done_over_the_tasks_of_the_active_stages():
    from core.engines.spark_engine import running_stages

    assert running_stages(_Tracker()) is None  # between jobs: nothing to say
    # 3 + 5 of 8 + 8 tasks done: 8 / 16 = 0.5
    fraction, message = running_stages(_Tracker(_Stage(7, 8, 5), _Stage(4, 8, 3)))
    assert fraction == 0.5 and message == "Spark stages 4, 7: 8 of 16 tasks"
    assert running_stages(_Tracker(_Stage(2, 200, 50))) == (0.25, "Spark stage 2: 50 of 200 tasks")


def test_watching_polls_the_tracker_until_the_block_ends():
    import threading

    from core.engines.spark_engine import watching

    tracker = _Tracker(_Stage(1, 4, 1))
    spark = type(
        "Spark",
        (),
        {"sparkContext": type("Context", (), {"statusTracker": staticmethod(lambda: tracker)})()},
    )()
    heard, polled = [], threading.Event()

    def progress(fraction, message):
        heard.append((fraction, message))
        if len(heard) >= 3:
            polled.set()

    with watching(spark, progress, "counting the classes on Spark", interval=0.001):
        assert polled.wait(10)
    after = len(heard)
    assert heard[0] == (0.0, "counting the classes on Spark")
    assert heard[1] == (0.25, "counting the classes on Spark: Spark stage 1: 1 of 4 tasks")
    threading.Event().wait(0.05)
    assert len(heard) == after  # the thread stopped with the block
    with watching(spark, None, "nothing"):  # no progress asked: no thread, nothing heard
        pass


def test_spark_apply_reports_each_pass_and_its_tasks(spark, tmp_path, monkeypatch):
    from core.engines import spark_apply, spark_engine, streaming
    from core.engines.sources import resolve_sources
    from core.recipe import Recipe

    monkeypatch.setattr(spark_engine, "POLL_SECONDS", 0.01)
    data = tmp_path / "people.csv"
    pd.DataFrame({"age": np.arange(300) % 40, "town": ["n", "s", "e"] * 100}).to_csv(
        data, index=False
    )
    recipe = Recipe.from_dict(
        {
            "seed": 1,
            "steps": [
                {"step": "suppress_records", "below_k": 2, "quasi_identifiers": ["age", "town"]}
            ],
        }
    )
    steps = streaming.streamable_steps(recipe, 1, "spark")
    heard: list[tuple[float, str]] = []
    spark_apply.spark_stream_recipe(
        resolve_sources(str(data)),
        steps,
        lambda batch, first: None,
        seed=1,
        gate_columns=[],
        direct_identifiers=[],
        progress=lambda f, m: heard.append((f, m)),
    )
    passes = [(f, m) for f, m in heard if not m.endswith("tasks")]
    # three passes (reading, counting the classes of the one class step, writing): by hand
    assert passes == [
        (0.0, "pass 1 of 3 (reading the input)"),
        (1 / 3, "pass 2 of 3 (counting classes)"),
        (2 / 3, "pass 3 of 3 (writing the release)"),
    ]
    tasks = [(f, m) for f, m in heard if m.endswith("tasks")]
    assert tasks and all(0.0 <= f <= 1.0 for f, _ in tasks)
    assert all(" of " in m and "Spark stage" in m for _, m in tasks)


def test_a_local_spark_gets_the_heap_a_10m_row_frequency_table_needs(spark):
    """Spark's default 1 GiB heap ran out (OutOfMemoryError) on the frequency table of the
    10M-row bench_scale table in local mode; a session started here asks for more."""
    from core.engines.spark_engine import LOCAL_MEMORY

    conf = spark.sparkContext.getConf()
    assert conf.get("spark.driver.memory") == LOCAL_MEMORY["spark.driver.memory"] == "4g"
    assert conf.get("spark.driver.maxResultSize") == "2g"


# --- File names with glob characters are read literally (issue 27) -----------------------


@pytest.fixture
def glob_named_files(tmp_path):
    """``p[1].csv`` (one person) next to ``p1.csv`` (three others): a glob of the first
    name matches only the second. Also in a folder named with ``[``, ``*`` and ``?``."""
    (tmp_path / "p[1].csv").write_text("age,sex\n30,F\n")
    (tmp_path / "p1.csv").write_text("age,sex\n40,M\n40,M\n40,M\n")
    odd = tmp_path / "d[1]*?{a,b}"
    odd.mkdir()
    (odd / "x*.csv").write_text("age,sex\n30,F\n")
    (tmp_path / "d1").mkdir()
    (tmp_path / "d1" / "xy.csv").write_text("age,sex\n40,M\n40,M\n40,M\n")
    pd.DataFrame({"age": [30], "sex": ["F"]}).to_parquet(tmp_path / "q[1].parquet")
    pd.DataFrame({"age": [40] * 3, "sex": ["M"] * 3}).to_parquet(tmp_path / "q1.parquet")
    return tmp_path


def _one_record_of_30_f(freq) -> None:
    assert freq.records == 1  # the file's one record, not the three of the other file
    assert freq.table.astype(str).values.tolist() == [["30", "F"]]


@pytest.mark.parametrize("name", ["p[1].csv", "d[1]*?{a,b}/x*.csv", "q[1].parquet"])
def test_duckdb_reads_a_file_named_with_glob_characters_literally(glob_named_files, name):
    pytest.importorskip("duckdb")
    freq = frequency_table(str(glob_named_files / name), ["age", "sex"], engine="duckdb")
    _one_record_of_30_f(freq)


def test_spark_reads_a_file_named_with_glob_characters_literally(spark, glob_named_files):
    for name in ("p[1].csv", "d[1]*?{a,b}/x*.csv", "q[1].parquet"):
        freq = frequency_table(str(glob_named_files / name), ["age", "sex"], engine="spark")
        _one_record_of_30_f(freq)


def test_a_glob_matching_glob_named_files_reads_each_once(glob_named_files):
    pytest.importorskip("duckdb")
    freq = frequency_table(str(glob_named_files / "*.csv"), ["age", "sex"], engine="duckdb")
    assert freq.records == 4  # p[1].csv (1) and p1.csv (3), each read once


def test_duckdb_refuses_parquet_with_two_columns_of_one_name(tmp_path):
    """DuckDB picked one of the two 'age' columns: k 4 where the truth is 1."""
    pytest.importorskip("duckdb")
    import pyarrow.parquet as pq

    ages = pa.table([pa.array([30, 30]), pa.array([1, 2])], names=["age", "age"])
    pq.write_table(ages, tmp_path / "dup.parquet")
    with pytest.raises(DataReadError, match="'age' appear more than once"):
        frequency_table(str(tmp_path / "dup.parquet"), ["age"], engine="duckdb")


def test_engine_sources_read_a_file_crafted_against_the_delimiter_guess_at_once(tmp_path):
    from core.engines.sources import resolve_sources

    # csv.Sniffer backtracked on this for 38 s (tests/core/test_io.py, SNIFFER_TRAP)
    (tmp_path / "trap.csv").write_bytes(b'"x",y\na,b,c\n,' + b'"' * 250 + b"a\n")
    started = time.perf_counter()
    assert resolve_sources(str(tmp_path / "trap.csv")).sep == ","
    assert time.perf_counter() - started < 2


def test_engine_sources_refuse_a_header_with_a_lone_carriage_return(tmp_path):
    """Found by fuzzing (issue 27): the csv module's own error escaped."""
    from core.engines.sources import resolve_sources

    (tmp_path / "cr.csv").write_bytes(b"a,b\rc\n1,2\n")
    with pytest.raises(DataReadError, match="header row cannot be read"):
        resolve_sources(str(tmp_path / "cr.csv"))
