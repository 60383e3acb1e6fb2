"""Hostile or oversized inputs through the command line (issue 11, "fail fast").

Each refusal must exit with status 2, print exactly one line on stderr, and write nothing.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pandas as pd
import pytest

import core.io.files
from core.cli import main
from core.techniques.pseudonymisation import encrypt_table

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "guide_step4_k_example.csv"


def assert_refused(capsys: pytest.CaptureFixture, argv: list[str], out: Path, *words: str):
    """Run the CLI; check exit code 2, one 'error:' line naming ``words``, no ``out``."""
    code = main(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for word in words:
        assert word in lines[0]
    assert not out.exists()
    assert not list(out.parent.glob(out.name + "*"))


def test_apply_refuses_a_billion_laughs_recipe(tmp_path, capsys):
    # nine levels of nine aliases, 9**9 (387 million) strings once expanded, in a field
    # that recipes accept
    levels = "abcdefghi"
    lines = ["description:", f"  a: &a [{','.join(['lol'] * 9)}]"]
    for old, new in zip(levels, levels[1:], strict=False):
        lines.append(f"  {new}: &{new} [{','.join(['*' + old] * 9)}]")
    lines += ["steps: [{step: remove, columns: [Favourite show]}]", ""]
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("\n".join(lines), encoding="utf-8")
    assert recipe.stat().st_size < 500
    out = tmp_path / "out.csv"
    argv = ["apply", str(SAMPLE), "--recipe", str(recipe), "--out", str(out)]
    assert_refused(capsys, argv, out, "anchor or alias")


def _recipe(tmp_path: Path) -> Path:
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("steps: [{step: remove, columns: [Favourite show]}]\n", encoding="utf-8")
    return recipe


def test_apply_refuses_an_xlsx_zip_bomb(tmp_path, capsys):
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as book:
        sheet = book.open("xl/worksheets/sheet1.xml", "w", force_zip64=True)
        for _ in range(40):
            sheet.write(b" " * 2**20)  # 40 MiB that compress about 1000 to 1
        sheet.close()
    out = tmp_path / "out.csv"
    argv = ["apply", str(bomb), "--recipe", str(_recipe(tmp_path)), "--out", str(out)]
    assert_refused(capsys, argv, out, "bomb.xlsx", "zip bomb")


def test_apply_refuses_a_mask_that_keeps_every_nric_character(tmp_path, capsys):
    data = tmp_path / "people.csv"
    data.write_text("nric,age\nS1234567D,34\nT7654321J,51\n", encoding="utf-8")
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("steps: [{step: mask, column: nric, keep_first: 9}]\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    argv = ["apply", str(data), "--recipe", str(recipe), "--out", str(out)]
    assert_refused(capsys, argv, out, "Step 1 (mask)", "unmasked", "row 1")


def test_decrypt_refuses_a_header_asking_scrypt_for_16_gib(tmp_path, capsys, monkeypatch):
    passphrase = "a long passphrase"
    blob = bytearray(encrypt_table(pd.DataFrame({"pseudonym": ["416765"]}), passphrase))
    blob[9:12] = bytes([22, 32, 16])  # log2 n, r, p: 128 * 32 * 2**22 bytes = 16 GiB
    crafted = tmp_path / "mapping.enc"
    crafted.write_bytes(bytes(blob))
    monkeypatch.setenv("ANON_MAPPING_PASSPHRASE", passphrase)
    out = tmp_path / "mapping.csv"
    argv = ["decrypt-mapping", str(crafted), "--passphrase-env", "ANON_MAPPING_PASSPHRASE"]
    assert_refused(capsys, [*argv, "--out", str(out)], out, "16,384 MiB")


def test_apply_refuses_a_cell_beyond_the_maximum_naming_row_and_column(tmp_path, capsys):
    data = tmp_path / "notes.csv"
    data.write_text(f"Favourite show,note\nx,short\ny,{'z' * (10 * 2**20 + 1)}\n")
    out = tmp_path / "out.csv"
    argv = ["apply", str(data), "--recipe", str(_recipe(tmp_path)), "--out", str(out)]
    assert_refused(capsys, argv, out, "row 2, column 'note'", "10,485,761 characters")


def test_a_200_kb_note_loads_through_the_command_line(tmp_path, capsys):
    data = tmp_path / "notes.csv"
    data.write_text(f"Favourite show,note\nx,{'z' * 200_000}\ny,{'z' * 200_000}\n")
    out = tmp_path / "out.csv"
    recipe = tmp_path / "recipe.yaml"  # two records alike: k = 2, the lowest target allowed
    recipe.write_text(
        "quasi_identifiers: [note]\nk: 2\nsteps: [{step: remove, columns: [Favourite show]}]\n"
    )
    argv = ["apply", str(data), "--recipe", str(recipe), "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    assert pd.read_csv(out)["note"].str.len().tolist() == [200_000, 200_000]


@pytest.mark.parametrize("epsilon", ["1000", "1e-17"])
def test_dp_aggregate_refuses_an_epsilon_outside_the_usable_range(tmp_path, capsys, epsilon):
    out, ledger = tmp_path / "noisy.csv", tmp_path / "ledger.json"
    argv = [
        "dp-aggregate",
        str(SAMPLE),
        "--by",
        "Age",
        "--categories",
        "Age=21 to 25|41 to 45",
        "--epsilon",
        epsilon,
        "--out",
        str(out),
        "--ledger",
        str(ledger),
    ]
    assert_refused(capsys, argv, out, "outside the range 1e-06 to 100")
    assert not ledger.exists()


@pytest.mark.parametrize(
    ("recipe_bytes", "words"),
    [
        (b"steps: [{step: swap, columns: [Age], seed: abc}]\n", "Step 1 (swap): 'seed'"),
        (b"seed: abc\nsteps: [{step: swap, columns: [Age]}]\n", "The recipe's 'seed'"),
        (b"name: caf\xe9\nsteps: [{step: swap, columns: [Age]}]\n", "not UTF-8 text"),
        (
            b"steps: [{step: pseudonymise, column: Age, method: hmac, key_env: [A, B]}]\n",
            "'key_env'",
        ),
    ],
)
def test_apply_refuses_malformed_recipe_values(tmp_path, capsys, recipe_bytes, words):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_bytes(recipe_bytes)
    out = tmp_path / "out.csv"
    argv = ["apply", str(SAMPLE), "--recipe", str(recipe), "--out", str(out)]
    assert_refused(capsys, argv, out, words)


def test_risk_refuses_nested_parquet_columns_by_name(tmp_path, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = tmp_path / "nested.parquet"
    pq.write_table(pa.table({"Age": [30, 40], "visits": [[1, 2], [3]]}), data)
    assert_refused(
        capsys,
        ["risk", str(data), "--qi", "Age,visits"],
        tmp_path / "none",
        "'visits' hold nested values",
        "Flatten",
    )


def test_apply_refuses_dev_zero(tmp_path, capsys):
    out = tmp_path / "out.csv"
    argv = ["apply", "/dev/zero", "--recipe", str(_recipe(tmp_path)), "--out", str(out)]
    assert_refused(capsys, argv, out, "'/dev/zero' is not a regular file")


def test_apply_times_out_on_a_fifo_without_a_writer(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(core.io.files, "FIFO_IDLE_TIMEOUT_S", 0.5)
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)
    out = tmp_path / "out.csv"
    argv = ["apply", str(fifo), "--recipe", str(_recipe(tmp_path)), "--out", str(out)]
    assert_refused(capsys, argv, out, "named pipe (FIFO)", "0.5 seconds")
