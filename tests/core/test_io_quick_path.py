"""core.io reads UTF-8 text the quick way: only the head is decoded (delimiter, header),
and pyarrow parses the rest from the file, in 1 MiB blocks, checking UTF-8 as it goes.
These tests put the awkward things where the quick way cannot see them in advance (past
the head, across block boundaries) and check that the table, the recorded encoding and
the error messages are the ones the full reading gives (which decodes everything first),
and, where a person can count, the figures themselves."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import core.io.delimited
import core.io.files
import core.io.quick_text
import core.io.reading
from core.errors import DataReadError
from core.io import read_table

HEAD = core.io.quick_text._HEAD_BYTES
BLOCK = core.io.delimited.QUICK_BLOCK_BYTES


def rows_until(size: int, template: str = "{i},person {i},{age}\n") -> str:
    """A header and numbered rows of at least ``size`` bytes in all."""
    lines = ["id,name,age\n"]
    total = len(lines[0])
    i = 0
    while total < size:
        lines.append(template.format(i=i, age=20 + i % 50))
        total += len(lines[-1].encode())
        i += 1
    return "".join(lines)


def both_ways(path: Path, monkeypatch, **options) -> tuple[pd.DataFrame, pd.DataFrame, bool]:
    """The table read as usual, the table read the full way, and whether the quick way
    gave the usual one."""
    taken: list[bool] = []
    quick = core.io.quick_text.read_utf8_text

    def spy(*args, **kwargs):
        result = quick(*args, **kwargs)
        taken.append(result is not None)
        return result

    with monkeypatch.context() as patch:
        patch.setattr(core.io.reading, "read_utf8_text", spy)
        usual = read_table(path, **options)
    with monkeypatch.context() as patch:
        patch.setattr(core.io.reading, "read_utf8_text", lambda *args, **kwargs: None)
        full = read_table(path, **options)
    return usual, full, taken == [True]


def assert_same(usual: pd.DataFrame, full: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(usual, full)
    assert usual.attrs["source"] == full.attrs["source"]


def test_a_plain_file_beyond_the_head_is_read_the_quick_way(tmp_path, monkeypatch):
    path = tmp_path / "people.csv"
    path.write_text(rows_until(3 * BLOCK))
    usual, full, quick = both_ways(path, monkeypatch)
    assert quick
    assert_same(usual, full)
    expected_rows = path.read_text().count("\n") - 1  # one record per line, minus the header
    assert len(usual) == expected_rows
    assert usual["age"].dtype == "int64" and usual["id"].iloc[-1] == expected_rows - 1
    assert usual.attrs["source"]["encoding"] == "utf-8"


def test_a_character_cut_by_the_end_of_the_head_is_decoded_whole(tmp_path, monkeypatch):
    prefix = "id,name\n"
    filler = "0,x\n" * ((HEAD - len(prefix) - 20) // 4)
    start = len(prefix) + len(filler)
    # 'é' is 2 bytes and '€' 3: one of them straddles byte HEAD
    line = "1," + "é€" * 20 + "\n"
    path = tmp_path / "accents.csv"
    path.write_bytes((prefix + filler + line + "2,y\n").encode())
    assert start < HEAD < start + len(line.encode())
    usual, full, quick = both_ways(path, monkeypatch)
    assert quick
    assert_same(usual, full)
    assert usual["name"].iloc[-2] == "é€" * 20


def test_quoted_line_breaks_across_block_boundaries(tmp_path, monkeypatch):
    text = rows_until(3 * BLOCK, '{i},"line one\nline two, with a comma",{age}\n')
    path = tmp_path / "notes.csv"
    path.write_text(text)
    usual, full, quick = both_ways(path, monkeypatch)
    assert quick
    assert_same(usual, full)
    assert len(usual) == text.count('"') // 2  # one quoted value per record
    assert (usual["name"] == "line one\nline two, with a comma").all()


def test_a_byte_that_is_not_utf8_past_the_head_makes_it_cp1252_as_before(tmp_path, monkeypatch):
    data = rows_until(2 * HEAD).encode() + "9,Zoë,30\n".encode("cp1252")
    path = tmp_path / "legacy.csv"
    path.write_bytes(data)
    usual, full, quick = both_ways(path, monkeypatch)
    assert not quick
    assert_same(usual, full)
    assert usual.attrs["source"]["encoding"] == "cp1252"
    assert usual["name"].iloc[-1] == "Zoë"


def test_a_nul_byte_past_the_head_is_refused(tmp_path):
    path = tmp_path / "binary.csv"
    path.write_bytes(rows_until(2 * HEAD).encode() + b"9,a\x00b,30\n")
    with pytest.raises(DataReadError, match=r"binary data \(NUL bytes\)"):
        read_table(path)


def test_a_ragged_line_past_the_head_is_named(tmp_path):
    text = rows_until(2 * BLOCK)
    line_number = text.count("\n") + 1  # the line appended next
    path = tmp_path / "ragged.csv"
    path.write_text(text + "9,extra,30,field\n")
    with pytest.raises(
        DataReadError, match=rf"line {line_number} has 4 field\(s\) but the header has 3"
    ):
        read_table(path)


def test_a_record_longer_than_a_block_is_read_the_full_way(tmp_path, monkeypatch):
    note = "n" * (2 * BLOCK)
    path = tmp_path / "long.csv"
    path.write_text(f"id,note\n1,{note}\n2,short\n")
    usual, full, quick = both_ways(path, monkeypatch)
    assert not quick
    assert_same(usual, full)
    assert usual["note"].str.len().tolist() == [2 * BLOCK, 5]


def test_a_header_longer_than_the_head_is_read_the_full_way(tmp_path, monkeypatch):
    header = "id," + '"' + "h" * HEAD + '"'
    path = tmp_path / "wide_header.csv"
    path.write_text(f"{header}\n1,x\n")
    usual, full, quick = both_ways(path, monkeypatch)
    assert not quick
    assert_same(usual, full)
    assert list(usual.columns) == ["id", "h" * HEAD]


def test_a_given_delimiter_first_seen_past_the_head_gives_the_full_ways_answer(tmp_path):
    path = tmp_path / "late.csv"
    path.write_text("value\n" + "x\n" * HEAD + "a;b\n")
    line_number = 2 + HEAD  # header, HEAD lines of 'x', then 'a;b'
    with pytest.raises(
        DataReadError, match=rf"line {line_number} has 2 field\(s\) but the header has 1"
    ):
        read_table(path, sep=";")


@pytest.mark.parametrize(
    ("prefix", "encoding", "recorded"),
    [
        (b"\xef\xbb\xbf", None, "utf-8-sig"),
        (b"\xef\xbb\xbf", "UTF-8", "UTF-8"),
        (b"", "utf8", "utf8"),
        (b"\r\n\r\n", None, "utf-8"),  # blank lines before the header
    ],
)
def test_byte_order_mark_given_encoding_and_blank_lines(
    tmp_path, monkeypatch, prefix, encoding, recorded
):
    path = tmp_path / "marked.csv"
    path.write_bytes(prefix + rows_until(2 * HEAD).replace("\n", "\r\n").encode())
    usual, full, quick = both_ways(path, monkeypatch, encoding=encoding)
    assert quick
    assert_same(usual, full)
    assert list(usual.columns) == ["id", "name", "age"]
    assert usual.attrs["source"]["encoding"] == recorded


def test_the_same_table_from_bytes_and_from_the_file(tmp_path, monkeypatch):
    text = rows_until(2 * BLOCK, '{i},"a ""quoted"" name",{age}\n')
    path = tmp_path / "people.csv"
    path.write_text(text)
    from_file = read_table(path)
    from_bytes = read_table(text.encode(), name="people.csv")
    pd.testing.assert_frame_equal(from_file, from_bytes)
    assert (from_file["name"] == 'a "quoted" name').all()


def test_rows_written_after_the_file_was_opened_are_not_read(tmp_path):
    """The size checked against the limit is the size read: a file that grows while it is
    read (a log still being written) is read as it was when opened."""
    text = rows_until(2 * HEAD)
    path = tmp_path / "growing.csv"
    path.write_text(text)
    opened = core.io.files._open_path(path, "growing.csv")
    with path.open("a") as file:
        file.write("999999,late,1\n" * 1000)
    df, _, _ = core.io.quick_text.read_utf8_text(opened, "growing.csv", None, None)
    assert len(df) == text.count("\n") - 1
    assert "late" not in set(df["name"])
