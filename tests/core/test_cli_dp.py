"""``python -m core dp-aggregate``: the released table, the ledger and the budget across runs."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from core.cli import EXIT_USER_ERROR, main


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "people.csv"
    df = pd.DataFrame(
        {
            "sex": ["F", "M"] * 500 + ["X"] * 7,
            "race": ["A", "B", "C", "D"] * 250 + ["A"] * 7,
            "income": [1000.0, 3000.0] * 500 + [1e9] * 7,
        }
    )
    df.to_csv(path, index=False)
    return path


def run(data, tmp_path, *extra: str, out: str = "out.csv") -> int:
    return main(
        [
            "dp-aggregate",
            str(data),
            "--out",
            str(tmp_path / out),
            "--ledger",
            str(tmp_path / "ledger.json"),
            *extra,
        ]
    )


def test_writes_listed_cells_and_a_ledger(data, tmp_path, capsys):
    code = run(
        data,
        tmp_path,
        "--by",
        "sex,race",
        "--categories",
        "sex=F|M,race=A|B|Z",
        "--count",
        "--sum",
        "income",
        "--bounds",
        "0,5000",
        "--epsilon",
        "1",
    )
    assert code == 0
    out = pd.read_csv(tmp_path / "out.csv", keep_default_na=False)
    cells = {(s, r) for s in "FM" for r in "ABZ"}
    assert set(zip(out["sex"], out["race"], strict=True)) == cells  # no X, no C/D
    # F/A: 250 records of 1000 -> sum 250,000; b = 5000 / 0.5 = 10,000; 95% within ±29,957
    f_a = out[(out["sex"] == "F") & (out["race"] == "A")].iloc[0]
    assert abs(f_a["income_sum"] - 250_000) < 200_000  # the 1e9 outliers are sex X anyway
    ledger = json.loads((tmp_path / "ledger.json").read_text())
    assert [c["epsilon"] for c in ledger["charges"]] == pytest.approx([0.5, 0.5])
    assert ledger["spent"]["epsilon"] == pytest.approx(1.0)
    assert "95% of the time" in capsys.readouterr().out


def test_budget_is_enforced_across_commands(data, tmp_path, capsys):
    common = ["--by", "sex", "--categories", "sex=F|M"]
    assert run(data, tmp_path, *common, "--epsilon", "0.6", "--budget", "1") == 0
    # each command is a release of its own, written to its own file
    assert run(data, tmp_path, *common, "--epsilon", "0.6", out="out2.csv") == EXIT_USER_ERROR
    err = capsys.readouterr().err
    assert "needs ε = 0.6" in err and "only ε = 0.4" in err
    ledger = json.loads((tmp_path / "ledger.json").read_text())
    assert len(ledger["releases"]) == 1 and ledger["spent"]["epsilon"] == pytest.approx(0.6)


def test_missing_bounds_and_categories_are_clear_errors(data, tmp_path, capsys):
    assert (
        run(
            data,
            tmp_path,
            "--by",
            "sex",
            "--categories",
            "sex=F|M",
            "--sum",
            "income",
            "--epsilon",
            "1",
        )
        == EXIT_USER_ERROR
    )
    assert "needs clipping bounds" in capsys.readouterr().err
    assert run(data, tmp_path, "--by", "sex", "--epsilon", "1") == EXIT_USER_ERROR
    assert "needs its list of categories" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "ledger.json").exists()


def test_ledger_that_cannot_be_written_means_no_table(data, tmp_path, capsys):
    # /proc refuses new files even to root: the ledger write fails after the noise is drawn
    ledger = "/proc/anonymisation-ledger.json"
    code = main(
        [
            "dp-aggregate",
            str(data),
            "--out",
            str(tmp_path / "out.csv"),
            "--ledger",
            ledger,
            "--by",
            "sex",
            "--categories",
            "sex=F|M",
            "--epsilon",
            "1",
        ]
    )
    assert code == EXIT_USER_ERROR
    assert ledger in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["people.csv"]


def test_ledger_path_that_is_a_folder_is_refused_before_any_work(data, tmp_path, capsys):
    (tmp_path / "ledger.json").mkdir()
    assert run(data, tmp_path, "--by", "sex", "--categories", "sex=F|M", "--epsilon", "1") == 2
    assert "is a folder" in capsys.readouterr().err
    assert not (tmp_path / "out.csv").exists()


def test_ledger_is_on_disk_before_the_table_is_written(data, tmp_path, monkeypatch):
    import core.cli.common
    import core.dp.ledger
    from core.outputs import write_outputs

    written = []

    def record(files, **kwargs):
        files = list(files)
        written.extend(output.label for output, _ in files)
        if files[0][0].label == "--out":  # the table comes second, after a durable ledger
            assert json.loads((tmp_path / "ledger.json").read_text())["releases"]
        return write_outputs(files, **kwargs)

    monkeypatch.setattr(core.dp.ledger, "write_outputs", record)
    monkeypatch.setattr(core.cli.common, "write_outputs", record)
    assert run(data, tmp_path, "--by", "sex", "--categories", "sex=F|M", "--epsilon", "1") == 0
    assert written == ["privacy ledger", "--out"]


@pytest.mark.parametrize("clash", ["data", "ledger"])
def test_out_and_ledger_never_overwrite_the_data_or_each_other(data, tmp_path, capsys, clash):
    before = data.read_bytes()
    target = data if clash == "data" else tmp_path / "out.csv"
    code = main(
        [
            "dp-aggregate",
            str(data),
            "--out",
            str(tmp_path / "out.csv"),
            "--ledger",
            str(target),
            "--by",
            "sex",
            "--categories",
            "sex=F|M",
            "--epsilon",
            "1",
        ]
    )
    assert code == EXIT_USER_ERROR
    assert data.read_bytes() == before and not (tmp_path / "out.csv").exists()
    assert "its own path" in capsys.readouterr().err or clash == "data"


def test_existing_table_needs_force(data, tmp_path):
    common = ["--by", "sex", "--categories", "sex=F|M", "--epsilon", "0.2", "--budget", "1"]
    (tmp_path / "out.csv").write_text("earlier release\n")
    assert run(data, tmp_path, *common) == EXIT_USER_ERROR
    assert (tmp_path / "out.csv").read_text() == "earlier release\n"
    assert not (tmp_path / "ledger.json").exists()
    assert run(data, tmp_path, *common, "--force") == 0
    assert "count" in (tmp_path / "out.csv").read_text()


def _racing_run(data: str, folder: str, out: str, ledger: str, barrier, results) -> None:
    """One dp-aggregate run in its own process. Its noise is drawn slowly (a second), so
    without a lock both runs read the ledger before either writes it (issue 27, High 3)."""
    import time

    import core.dp

    draw = core.dp.dp_release

    def slow(*args, **kwargs):
        release = draw(*args, **kwargs)
        time.sleep(1.0)
        return release

    core.dp.dp_release = slow
    barrier.wait()
    results.put(
        main(
            [
                "dp-aggregate",
                data,
                "--out",
                f"{folder}/{out}",
                "--ledger",
                f"{folder}/{ledger}",
                "--by",
                "sex",
                "--categories",
                "sex=F|M",
                "--epsilon",
                "0.6",
                "--budget",
                "1",
            ]
        )
    )


@pytest.mark.parametrize("ledger_name", ["ledger.json", "ledger.anon.db"])
def test_two_runs_on_one_ledger_never_spend_more_than_the_budget(data, tmp_path, ledger_name):
    """0.6 + 0.6 against a budget of 1.0, started together in two processes: one release,
    one charge, and the other run refused with no table (it read the JSON ledger under the
    lock, after the first run wrote it; a workspace re-reads its budget in its write
    transaction)."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(2), context.Queue()
    runs = [
        context.Process(
            target=_racing_run, args=(str(data), str(tmp_path), out, ledger_name, barrier, results)
        )
        for out in ("a.csv", "b.csv")
    ]
    for run_ in runs:
        run_.start()
    for run_ in runs:
        run_.join(60)
    codes = sorted(results.get(timeout=5) for _ in runs)
    assert codes == [0, EXIT_USER_ERROR]
    written = [name for name in ("a.csv", "b.csv") if (tmp_path / name).exists()]
    assert len(written) == 1
    if ledger_name.endswith(".db"):
        from core.workspace import Workspace

        with Workspace(tmp_path / ledger_name) as ws:
            ledger = ws.dp_budget()
        assert ledger["charges"][0]["out"].endswith(written[0])
    else:
        ledger = json.loads((tmp_path / ledger_name).read_text())
        assert len(ledger["releases"]) == 1 and ledger["releases"][0]["out"].endswith(written[0])
    assert [c["epsilon"] for c in ledger["charges"]] == pytest.approx([0.6])
