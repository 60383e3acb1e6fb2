"""core.engines.packed: the frequency table counted in this process as packed codes (the
DuckDB engine's way) equals an independent count, whatever the batches and the bit
fields do on the way; keys too wide for 64 bits fall back to DuckDB's GROUP BY."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from core.engines import frequency_table, packed
from core.engines.packed import KeyLayout, KeysTooWide, RunningCounts, count_packed
from core.io import read_table
from core.risk import risk_report


def _rows(table: pd.DataFrame, counts: np.ndarray) -> list[tuple]:
    """The frequency table's rows as sorted (value as text, ..., count) tuples (NaN and
    None both read 'nan'/'None': compared as text, as they print)."""
    frame = table.astype(object).where(table.notna(), None)
    return sorted(
        (*map(str, row), int(n))
        for row, n in zip(frame.itertuples(index=False), counts, strict=True)
    )


def _independent(frame: pd.DataFrame) -> list[tuple]:
    """The same rows counted by pandas' groupby (missing kept as a group of its own)."""
    grouped = frame.groupby(list(frame.columns), dropna=False, sort=False).size()
    out = grouped.reset_index()
    values = out.drop(columns=0).astype(object)
    values = values.where(values.notna(), None)
    return sorted(
        (*map(str, row), int(n))
        for row, n in zip(values.itertuples(index=False), out[0], strict=True)
    )


def test_running_counts_by_hand(monkeypatch):
    monkeypatch.setattr(packed, "SORT_ROWS", 3)  # a merge after every 3 keys or more
    running = RunningCounts()
    running.add(np.array([5, 1, 5], dtype=np.int64))  # sorted, counted: 1 x1, 5 x2
    running.add(np.array([2, 5], dtype=np.int64))
    running.add(np.array([9], dtype=np.int64))  # pending: 2, 5, 9 -> merged at 3
    running.add(np.array([1], dtype=np.int64))  # pending until flush
    running.flush()
    assert running.keys.tolist() == [1, 2, 5, 9]
    assert running.counts.tolist() == [2, 1, 3, 1]  # 1: twice, 2: once, 5: three, 9: once


def test_layout_packs_unpacks_and_repacks_in_order():
    layout = KeyLayout((3, 2))  # column 0 in bits 0-2, column 1 in bits 3-4
    first, second = np.array([0, 7, 5, 1]), np.array([3, 0, 1, 1])
    keys = layout.pack([first, second])
    assert keys.tolist() == [0 + 3 * 8, 7, 5 + 8, 1 + 8]  # by hand: c0 + c1 * 2**3
    assert layout.unpack(keys, 0).tolist() == first.tolist()
    assert layout.unpack(keys, 1).tolist() == second.tolist()
    wider = KeyLayout((5, 4))
    moved = layout.repack(keys, wider)
    assert moved.tolist() == (first + second * 32).tolist()
    # the order of keys (last column first, then the one before) is the same in both layouts
    assert np.argsort(keys, kind="stable").tolist() == np.argsort(moved, kind="stable").tolist()


def test_layout_widens_with_spare_bits_then_tightly_then_refuses():
    layout = KeyLayout((1, 1))
    assert layout.holds([2, 2]) and not layout.holds([3, 2])
    # 3 codes need 2 bits: the field grows with SPARE_BITS to spare; the other stays
    assert layout.widened([3, 2]).widths == (2 + packed.SPARE_BITS, 1)
    crowded = KeyLayout((60, 1))
    # 2**2 + 1 codes need 3 bits: 60 + 3 + 2 spare = 65 > 63, so exactly 3 (60 + 3 = 63)
    assert crowded.widened([2**60, 5]).widths == (60, 3)
    with pytest.raises(KeysTooWide):
        crowded.widened([2**60, 9])  # 60 + 4 = 64 bits
    # fields wider than needed give their spare bits back when the key would overflow
    assert KeyLayout((40, 20)).widened([2**38, 2**24]).widths == (38, 24)


def _batches(frame: pd.DataFrame, rows: int) -> list[pa.RecordBatch]:
    table = pa.Table.from_pandas(frame, preserve_index=False)
    return table.to_batches(max_chunksize=rows)


def test_count_packed_equals_groupby_over_growing_code_books(monkeypatch):
    # values appear over the batches (a code book grows past its field: re-packed), a
    # missing value in every column, text and integers; counts merged every 500 keys
    monkeypatch.setattr(packed, "SORT_ROWS", 500)
    rng = np.random.default_rng(3)
    n = 6_000
    ramp = np.minimum(np.arange(n) // 40, 140)  # codes 0..140: field widened several times
    frame = pd.DataFrame(
        {
            # an integer column with a gap reads as floats (as read_table gives it)
            "age": rng.integers(0, 1 + ramp).astype(float),
            "town": rng.choice(["north", "south", "NA", "0012"], size=n).astype(object),
            "sex": rng.choice(["F", "M"], size=n).astype(object),
        }
    )
    frame.loc[rng.choice(n, 50, replace=False), "age"] = np.nan
    frame.loc[rng.choice(n, 50, replace=False), "town"] = None
    table, counts = count_packed(_batches(frame, 333), list(frame.columns), as_read=False)
    assert counts.sum() == n
    assert _rows(table, counts) == _independent(frame)
    assert table["age"].isna().any() and table["town"].isna().any()


def test_count_packed_judges_csv_text_as_the_reader_does():
    # as_read: '7' and '7.0' are one number (one category, two rows of the frequency table
    # as in a GROUP BY of the text); '007' keeps its leading zeros, so the column is text
    batches = [
        pa.record_batch(
            [pa.array(["7", "7.0", None]), pa.array(["007", "007", "1"])], names=["g0", "g1"]
        ),
    ]
    table, counts = count_packed(batches, ["n", "code"], as_read=True)
    assert table["n"].cat.categories.tolist() == [7.0]
    assert table["code"].cat.categories.tolist() == ["007", "1"]
    assert sorted(counts.tolist()) == [1, 1, 1]
    empty, none = count_packed([], ["n"], as_read=True)
    assert len(empty) == 0 and none.size == 0


def test_duckdb_falls_back_to_its_group_by_when_keys_are_too_wide(tmp_path, monkeypatch):
    pytest.importorskip("duckdb")
    from core.engines import duckdb_engine

    rng = np.random.default_rng(11)
    frame = pd.DataFrame(
        {
            "postal": [f"{v:06d}" for v in rng.integers(0, 900, size=3_000)],
            "age": rng.integers(18, 80, size=3_000),
            "sex": rng.choice(["F", "M"], size=3_000),
            "diagnosis": rng.choice(["flu", "cold", "asthma"], size=3_000),
        }
    )
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    qis = ["postal", "age", "sex"]
    expected = risk_report(read_table(path), qis, sensitive="diagnosis").to_dict()
    grouped = []
    real_group_by = duckdb_engine.group_count_batches
    monkeypatch.setattr(
        duckdb_engine, "group_count_batches", lambda *a: grouped.append(a) or real_group_by(*a)
    )
    monkeypatch.setattr(packed, "KEY_BITS", 12)  # ~900 postal codes alone need 10 bits
    freq = frequency_table(str(path), [*qis, "diagnosis"], engine="duckdb")
    assert grouped, "the GROUP BY was not used"
    got = risk_report(freq.table, qis, sensitive="diagnosis", counts=freq.counts).to_dict()
    assert got == expected
    monkeypatch.setattr(packed, "KEY_BITS", 63)
    grouped.clear()
    freq = frequency_table(str(path), [*qis, "diagnosis"], engine="duckdb")
    assert not grouped  # 10 + 6 + 1 + 2 bits: packed
    got = risk_report(freq.table, qis, sensitive="diagnosis", counts=freq.counts).to_dict()
    assert got == expected


def test_duckdb_progress_counts_every_record(tmp_path):
    pytest.importorskip("duckdb")
    frame = pd.DataFrame({"age": np.arange(5_000) % 70, "sex": ["F", "M"] * 2_500})
    csv = tmp_path / "people.csv"
    frame.to_csv(csv, index=False)
    parquet = tmp_path / "people.parquet"
    frame.to_parquet(parquet, index=False)
    for path, about in ((csv, "about "), (parquet, "")):
        heard = []
        frequency_table(
            str(path),
            ["age", "sex"],
            engine="duckdb",
            progress=lambda f, m, heard=heard: heard.append((f, m)),
        )
        fractions = [f for f, _ in heard]
        assert fractions == sorted(fractions) and 0 < fractions[-1] < 1
        assert heard[-1][1].startswith("counted 5,000 of " + about)
        if not about:  # Parquet's footers give the exact number
            assert heard[-1][1] == "counted 5,000 of 5,000 records"


def test_count_packed_codes_dictionary_batches_as_their_values():
    """Parquet's text comes dictionary-encoded (core.engines.parquet_scan): each batch has
    its own dictionary, in its own order, with values no row uses, missing rows (null
    indices), and once a value written twice; the counts are those of the values."""
    town = [
        pa.DictionaryArray.from_arrays(
            pa.array([0, 1, 1, None, 2], pa.int32()), pa.array(["north", "south", "east"])
        ),
        pa.DictionaryArray.from_arrays(  # another order, 'unused' in no row
            pa.array([2, 2, 0, None, 0], pa.int32()), pa.array(["east", "unused", "north"])
        ),
        pa.DictionaryArray.from_arrays(  # 'north' twice in the dictionary
            pa.array([0, 2, 1, 1, 0], pa.int32()), pa.array(["north", "west", "north"])
        ),
    ]
    sex = [pa.array(["F", "M", "F", "F", None]) for _ in town]
    batches = [pa.record_batch([t, s], names=["g0", "g1"]) for t, s in zip(town, sex, strict=True)]
    table, counts = count_packed(batches, ["town", "sex"], as_read=False)
    frame = pd.DataFrame(
        {
            "town": [v for t in town for v in t.dictionary_decode().to_pylist()],
            "sex": [v for s in sex for v in s.to_pylist()],
        },
        dtype=object,
    )
    assert counts.sum() == 15
    assert _rows(table, counts) == _independent(frame)
    assert "unused" not in table["town"].cat.categories
    missing = table["town"].isna().to_numpy()  # row 4 of the first two batches: (missing, F)
    assert missing.sum() == 1 and counts[missing].tolist() == [2]
