"""core.release.record: a release recorded once, with its sign-off, before its files leave
(issue 27); a k-map population table kept in the workspace replays from it (issue 25)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from core.audit_check import check_anchor
from core.io import table_to_bytes
from core.recipe import Recipe, apply_recipe
from core.release.bundle import stored_table_name
from core.release.inputs import ReleasedFile, ReleaseSource
from core.release.record import record_once
from core.release.reproduce import reproduce_release
from core.workspace import Workspace, sha256_bytes

ROOT = Path(__file__).resolve().parents[2]
TAXI = pd.read_csv(ROOT / "sample_data" / "guide_annex_c_taxi.csv")


def _record(ws: Workspace, table: pd.DataFrame, recipe: Recipe, **options):
    result = apply_recipe(table, recipe, tables=options.pop("tables", None))
    output = table_to_bytes(result.data, "csv")
    done = record_once(
        ws,
        original=table,
        recipe=recipe,
        result=result,
        source=ReleaseSource(path=None),
        output=ReleasedFile(name="released.csv", content=None, sha256=sha256_bytes(output)),
        **options,
    )
    return done, result


def test_the_same_release_is_recorded_once_and_each_signer_once(tmp_path):
    recipe = Recipe(steps=({"step": "remove", "columns": ["Serial number"]},), seed=3)
    with Workspace(tmp_path / "w.anon.db") as ws:
        first, _ = _record(
            ws, TAXI, recipe, sign_off={"Prepared by": "Ann Tan", "Purpose of release": "study"}
        )
        entries = len(ws.audit_entries())
        again, _ = _record(
            ws, TAXI, recipe, sign_off={"Prepared by": "Ann Tan", "Reviewed by": "Bo Lim"}
        )
        assert (first.new, again.new) == (True, False)
        assert again.anchor == first.anchor and len(ws.releases()) == 1
        signed = [(s["name"], s["role"], s["statement"]) for s in ws.signoffs()]
        assert signed == [
            ("Ann Tan", "Prepared by", f"Prepared by release {first.release_id} for: study"),
            ("Bo Lim", "Reviewed by", f"Reviewed by release {first.release_id}"),
        ]
        assert len(ws.audit_entries()) == entries + 1  # Bo Lim's sign-off only
        assert check_anchor(ws, again.anchor) == []
        # another recipe (another seed recorded) is another release
        other, _ = _record(ws, TAXI, Recipe(recipe.steps, seed=4))
        assert other.new and other.release_id != first.release_id


def test_a_population_table_kept_in_the_workspace_makes_the_release_again(tmp_path):
    """The population holds every taxi record five times, except record 1, held once:
    k-map 5 removes record 1 (by hand, as tests/pages/test_tradeoffs_page.py). The table is
    kept in the workspace (no file anywhere) and `verify`'s re-run reads it from there."""
    population = pd.concat([TAXI.iloc[:1], *[TAXI.iloc[1:]] * 5], ignore_index=True)
    digest = sha256_bytes(population.to_csv(index=False).encode())
    name = stored_table_name(digest)
    step = {
        "step": "suppress_records",
        "below_k": 1,
        "quasi_identifiers": ["Age", "Gender"],
        "k_map": {"k": 5, "population_table": name, "hierarchies": {}, "levels": {}},
    }
    recipe = Recipe(steps=(step,), seed=3, meta={"quasi_identifiers": ["Age", "Gender"]})
    with Workspace(tmp_path / "w.anon.db") as ws:
        ws.add_dataset(population, name="population", sha256=digest, store_data=True)
        done, result = _record(ws, TAXI, recipe, tables={name: population})
        assert result.data["Serial number"].tolist() == list(range(2, 12))
        [release] = ws.releases()
        checked = reproduce_release(ws, release, original=TAXI)
    assert checked.status == "reproduced", checked.detail
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file())[0] == "w.anon.db"
    assert not [p for p in tmp_path.rglob("*") if "population" in p.name]


def test_apply_reads_a_population_table_the_workspace_keeps(tmp_path, capsys):
    """A recipe made on the dashboard names its population table by the workspace's
    sha256: `apply --workspace` reads it from there (no file to put back)."""
    from core.cli import main

    population = pd.concat([TAXI.iloc[:1], *[TAXI.iloc[1:]] * 5], ignore_index=True)
    digest = sha256_bytes(population.to_csv(index=False).encode())
    with Workspace(tmp_path / "w.anon.db") as ws:
        ws.add_dataset(population, name="population", sha256=digest, store_data=True)
    TAXI.to_csv(tmp_path / "taxi.csv", index=False)
    (tmp_path / "recipe.yaml").write_text(
        "seed: 3\nquasi_identifiers: [Age, Gender]\nk: 5\nsteps:\n"
        "  - {step: suppress_records, below_k: 1, quasi_identifiers: [Age, Gender], k_map: "
        f"{{k: 5, population_table: '{stored_table_name(digest)}', hierarchies: {{}}, "
        "levels: {}}}\n"
    )
    code = main(
        [
            "apply",
            str(tmp_path / "taxi.csv"),
            "--recipe",
            str(tmp_path / "recipe.yaml"),
            "--out",
            str(tmp_path / "out.csv"),
            "--workspace",
            str(tmp_path / "w.anon.db"),
            "--release-anyway",
        ]
    )
    assert code == 0, capsys.readouterr().err
    [written] = [p for p in tmp_path.glob("out*.csv")]
    # record 1 (held once by the population) removed, as k-map 5 asks (by hand above)
    assert pd.read_csv(written)["Serial number"].tolist() == list(range(2, 12))


def test_a_release_without_a_recorded_file_says_so_in_words(tmp_path):
    """Issue 29: History's re-run said "the original data is not at 'None'" for a release
    of a table loaded without a file (a sample, an upload)."""
    recipe = Recipe(steps=({"step": "remove", "columns": ["Serial number"]},), seed=3)
    with Workspace(tmp_path / "w.anon.db") as ws:
        _record(ws, TAXI, recipe)
        [release] = ws.releases()
        checked = reproduce_release(ws, release, original=None)
    assert checked.status == "not checked"
    assert "None" not in checked.detail and "load the original table again" in checked.detail
