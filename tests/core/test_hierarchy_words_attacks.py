"""Issue 30's new surfaces attacked (hierarchies imported several at once, hierarchies built
by kind, the words a ``generalise`` step says about its hierarchy): each test here failed
before its fix (SECURITY.md, "Bypasses found and fixed").

- A recipe's words (``hierarchy_height``, ``level_example``, ``hierarchy_source``) are
  shown to a reviewer on every page, in History and in the report, but the replay never
  reads them: a recipe could say "level 1 of 4 ... (e.g. 20-39)" of a level that keeps
  every value as it is. They are now checked against the hierarchy the step reads.
- A ``--hierarchies`` folder is read file by file; a link in it to a file outside (an
  unpacked archive can plant one) was followed, and its content became a hierarchy
  whose path the recipe recorded.
- The recipient's bundle carried each step's ``level_example``: a label of a hierarchy
  file the bundle leaves out because its labels "may name anything" (a street of one
  person whom the release removed).
"""

from __future__ import annotations

import io
import os
import warnings
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from core import cli
from core.errors import RecipeError
from core.hierarchy_files import read_hierarchy_files
from core.recipe import Recipe, apply_recipe
from core.release.bundle import build_bundle, portable_recipe


def _people() -> pd.DataFrame:
    """Twelve people: six in sector 56 on one street, five on another, and one alone on
    'Lorong Rahsia' (her address is the only one of its street)."""
    streets = ["Ang Mo Kio Avenue 3"] * 6 + ["Tampines Street 21"] * 5 + ["Lorong Rahsia"]
    sectors = ["56"] * 6 + ["52"] * 5 + ["56"]
    return pd.DataFrame(
        {
            "addr": [
                f"Blk {i + 10} {s} #0{i % 9 + 1}-1{i} Singapore {p}{i:04d}"
                for i, (s, p) in enumerate(zip(streets, sectors, strict=True))
            ],
            "sex": ["F", "M"] * 6,
        }
    )


def _address_hierarchy(people: pd.DataFrame) -> str:
    """address -> "street (postal sector NN)" -> "postal sector NN" -> *, as core.auto_hierarchy
    builds it, written as a file (enumerated: it lists every address)."""
    rows = []
    for address in people["addr"]:
        street = address.split(" ", 2)[2].split(" #")[0]
        sector = address[-6:-4]
        rows.append(f"{address};{street} (postal sector {sector});postal sector {sector};*")
    return "\n".join(rows) + "\n"


def _sex_hierarchy() -> str:
    return "F;person;*\nM;person;*\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    _people().to_csv(tmp_path / "people.csv", index=False)
    (tmp_path / "addr.csv").write_text(_address_hierarchy(_people()))
    (tmp_path / "sex.csv").write_text(_sex_hierarchy())
    return tmp_path


def _generalise(column: str, file: str, level: int, **words) -> dict:
    return {"step": "generalise", "column": column, "hierarchy": file, "level": level, **words}


@pytest.mark.parametrize(
    ("words", "said"),
    [
        # the level keeps 'F' and 'M' apart ('person'), not the band the words name
        ({"hierarchy_height": 2, "level_example": "20-39"}, "'level_example'"),
        # the hierarchy has 2 levels above the values, not 4
        ({"hierarchy_height": 4, "level_example": "person"}, "'hierarchy_height'"),
        # the tool writes a file's own name: a folder (a server path) is no file name
        ({"hierarchy_source": "/srv/data/alice/sex.csv"}, "'hierarchy_source'"),
        ({"hierarchy_source": "sex.csv\n\x1b[31mreviewed"}, "'hierarchy_source'"),
    ],
)
def test_words_that_do_not_say_the_hierarchy_are_refused(folder, words, said):
    recipe = Recipe(steps=(_generalise("sex", "sex.csv", 1, **words),), seed=1)
    with pytest.raises(RecipeError) as refused:
        apply_recipe(_people(), recipe, base_dir=folder)
    message = str(refused.value)
    assert message.startswith("Step 1 (generalise): ") and said in message
    assert "\n" not in message and str(folder) not in message


def test_true_words_still_replay(folder):
    recipe = Recipe(
        steps=(
            _generalise(
                "sex",
                "sex.csv",
                1,
                hierarchy_height=2,
                level_example="person",
                hierarchy_source="adult_hierarchy_sex.csv",
            ),
        ),
        seed=1,
    )
    released = apply_recipe(_people(), recipe, base_dir=folder).data
    assert set(released["sex"]) == {"person"}


def test_a_link_in_a_hierarchies_folder_to_a_file_outside_is_refused(tmp_path, capsys):
    data = tmp_path / "people.csv"
    _people().to_csv(data, index=False)
    secret = tmp_path / "elsewhere" / "private.csv"
    secret.parent.mkdir()
    secret.write_text("F;TOPSECRET-1;*\nM;TOPSECRET-2;*\n")
    sent = tmp_path / "sent"
    sent.mkdir()
    os.symlink(secret, sent / "sex.csv")
    code = cli.main(["search", str(data), "--k", "2", "--hierarchies", str(sent)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == (
        "error: --hierarchies: 'sex.csv' is a link to a file outside the folder: refused "
        "(copy the file into the folder).\n"
    )
    # a link to a file of the same folder is the file itself
    (sent / "sex.csv").unlink()
    (sent / "sex-copy.txt").write_text(_sex_hierarchy())
    os.symlink(sent / "sex-copy.txt", sent / "sex.csv")
    assert cli.main(["search", str(data), "--k", "2", "--hierarchies", str(sent)]) == 0


def test_the_recipient_bundle_holds_no_level_example(folder):
    """'Lorong Rahsia (postal sector 56)' is one person's street: at level 1 of the address
    hierarchy she is alone and removed, but the step's words could name her street as
    the example of the level (a value of that level: the words check passes)."""
    people = _people()
    steps = (
        _generalise(
            "addr",
            "addr.csv",
            1,
            hierarchy_height=3,
            level_example="Lorong Rahsia (postal sector 56)",
            hierarchy_source="/home/alice/hierarchies/addr.csv",
        ),
        {"step": "suppress_records", "below_k": 5, "quasi_identifiers": ["addr"]},
    )
    with pytest.raises(RecipeError, match="'hierarchy_source'"):  # a folder: refused
        apply_recipe(people, Recipe(steps=steps, seed=1), base_dir=folder)
    steps = ({**steps[0], "hierarchy_source": "addr.csv"}, steps[1])
    recipe, files = portable_recipe(Recipe(steps=steps, seed=1, meta={"k": 5}), base_dir=folder)
    result = apply_recipe(people, recipe, hierarchies=files)
    released = result.data
    assert "Lorong Rahsia (postal sector 56)" not in set(released["addr"])  # she is removed
    assert len(released) == 11
    bundle = build_bundle(
        released=released.to_csv(index=False).encode(),
        released_name="out.csv",
        recipe=recipe,
        hierarchies=files,
        original=people,
        released_table=released,
        k=5,
    )
    with zipfile.ZipFile(io.BytesIO(bundle.to_zip())) as archive:
        texts = {n: archive.read(n).decode("utf-8", "replace") for n in archive.namelist()}
    assert {name for name, text in texts.items() if "Rahsia" in text} == set()
    assert "hierarchy_source: addr.csv" in texts["recipe.yaml"]


def test_a_zip_naming_one_file_twice_is_refused():
    """A zip may hold 'sex.csv' twice: this tool read the first, while unzip and Python's
    extractall leave the last on disk, so a reviewer who unpacks the zip to check it reads
    another hierarchy than the one used (core.release.bundle_reader refuses the same)."""
    sent = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        with zipfile.ZipFile(sent, "w") as archive:
            archive.writestr("h/sex.csv", _sex_hierarchy())
            archive.writestr("h/age.csv", "30;30-39;*\n")
            archive.writestr("h/sex.csv", "F;F;*\nM;M;*\n")
    (file,) = read_hierarchy_files([("sent.zip", sent.getvalue())], ["sex", "age"])
    assert file.hierarchy is None and file.column is None
    assert file.problem == (
        "'sent.zip' holds 'sex.csv' twice (tools disagree on which one they read): zip "
        "the folder of hierarchy files again."
    )


@pytest.mark.parametrize(
    "step",
    [
        {"step": "remove", "columns": ["name"]},
        {"step": "pseudonymise", "column": "name", "method": "hmac", "key_env": "ANON_K"},
        {"step": "mask", "column": "nric", "keep_last": 4},
    ],
)
def test_only_steps_an_option_writes_may_say_they_came_from_one(step):
    """Applying a trade-off option on the original table takes out every step marked
    ``origin: trade-off`` (ui/option_release.py, "Replace the previous trade-off steps"):
    a recipe someone sent marking its removal of names so would have had names put back
    in clear by the next option applied, the page saying only "the 1 step(s) of the
    option applied before". An option writes generalise, suppress_records and
    recode_locally steps; any other step with that origin is refused."""
    with pytest.raises(RecipeError) as refused:
        Recipe(steps=({**step, "origin": "trade-off"},), seed=1)
    assert "origin" in str(refused.value) and step["step"] in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_huge_label_gives_no_example_and_the_recipe_reads_back(tmp_path, capsys):
    """A hierarchy file whose labels are 1.5 million characters long (within the 20 MB a
    file may have) made the step's example that label: search --recipe-out wrote a recipe
    of 1.5 MB, which apply (and a workspace, whose recipes are read within the same 1 MiB)
    then refused. An example longer than a label a person reads gives no example."""
    data = tmp_path / "people.csv"
    _people().to_csv(data, index=False)
    sent = tmp_path / "sent"
    sent.mkdir()
    label = "X" * 1_500_000
    (sent / "sex.csv").write_text(f"F;{label};*\nM;{label};*\n")
    recipe = tmp_path / "recipe.yaml"
    args = ["search", str(data), "--k", "12", "--max-suppressed", "0"]
    code = cli.main([*args, "--hierarchies", str(sent), "--recipe-out", str(recipe)])
    assert code == 0, capsys.readouterr().err
    (step,) = Recipe.load(recipe).steps  # read back: under 1 MiB
    assert step["level"] == 1 and "level_example" not in step
    assert step["hierarchy_height"] == 2
