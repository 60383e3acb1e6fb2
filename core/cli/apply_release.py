"""``apply``'s files placed and the release recorded, all or nothing (issue 27): the
report, the recipient bundle, the internal archive and the messages saying what was written.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from core.cli.apply_plan import ApplyJob, apply_outputs
from core.cli.common import end_bar
from core.figure_names import RECORD_RISK
from core.formatting import fmt_probability, json_figures
from core.io import output_format, stream_table, table_to_bytes
from core.markup import terminal_line
from core.outputs import Output, plan_outputs, stage_content, write_outputs
from core.progress import ProgressFn
from core.recipe import Recipe, RecipeResult
from core.release.gate import ReleaseCheck
from core.release.inputs import (
    EngineRun,
    ReleasedFile,
    ReleaseFigures,
    ReleaseRoles,
    ReleaseSource,
)
from core.release.pipeline import ReleasePackages, with_anchor
from core.release.record import portable_release_recipe, record_release
from core.release.report import Report, build_report, report_to_markdown
from core.release.words import NOT_ANONYMISED_MARK
from core.risk import AnnexDResult, annex_d_risk
from core.techniques.pseudonymisation import encrypt_table
from core.workspace import Workspace, sha256_file


def place_and_record(
    args: argparse.Namespace,
    job: ApplyJob,
    result: RecipeResult | None,
    check: ReleaseCheck,
    outputs: list[Output],
    staged: Path,
    identities: list[bytes],
    workspace: str | None,
    packages: list[Output],
    figures: ReleaseFigures = ReleaseFigures(),
    recorded: tuple[ReleaseSource, EngineRun] | None = None,
) -> None:
    """Record the release and place its files, all or nothing (issue 27).

    ``outputs`` are the released table (written in full to ``staged``), the identity
    tables (``identities``, their bytes) and the --report; ``packages`` the recipient
    --bundle and the internal --archive (core.release.bundle). The workspace records the release
    in one transaction that stays open while the files are placed and commits after: a
    release that cannot be recorded (a full disk, a damaged workspace, Ctrl-C) writes no
    file, and files whose record cannot be committed are removed. The report, bundle and
    archive carry the release's anchor in the audit log (core.audit_check). Identity
    tables go into the workspace and the internal archive only encrypted, never into the
    recipient bundle. An engine gives its counted ``figures`` for the report and what
    :func:`core.release.record.record_release` records of its source and run (rows,
    frequency table, input files). The steps are those of :mod:`core.release.pipeline`.
    """
    identity_outputs = outputs[1 : 1 + len(identities)]
    files: list[tuple[Output, bytes | Path]] = [(outputs[0], staged)]
    files += list(zip(identity_outputs, identities, strict=True))
    report = None
    if job.report is not None or workspace or packages:
        report = _build_report(args, job, result, check, identity_outputs, figures)
    # (an engine gives no result when nothing is recorded, reported or packaged)
    encrypted = (
        dict(zip(pairs_of(result), identities, strict=False))
        if job.passphrase is not None and result is not None
        else {}
    )
    placed, written = False, []
    try:
        with _recording(workspace) as ws:
            if ws is not None:
                source, run = recorded or (ReleaseSource(path=args.data), EngineRun())
                done = record_release(
                    ws,
                    original=job.data,
                    source=source,
                    recipe=job.recipe,
                    result=result,
                    output=ReleasedFile(
                        name=job.out.name, content=None, sha256=sha256_file(staged)
                    ),
                    base_dir=job.base_dir,
                    quasi_identifiers=job.quasi_identifiers,
                    report=report.to_dict(),
                    encrypted_mappings=encrypted,
                    author=getpass.getuser(),
                    engine_run=run,
                )
                report = with_anchor(report, done.anchor)
                portable, hierarchies = done.recipe, done.hierarchies
            elif packages:
                portable, hierarchies = portable_release_recipe(
                    None, job.recipe, result.seed, job.base_dir
                )
            if job.report is not None:
                files.append((outputs[-1], _report_bytes(report, job.report)))
            if packages:
                release = ReleasePackages(
                    staged.read_bytes(), job.out.name, portable, hierarchies, report
                )
            for package in packages:
                if package.label == "--archive":
                    mappings = {f"{c}-{kind}": blob for (c, kind), blob in encrypted.items()}
                    made = release.archive(mappings)
                else:
                    made = release.bundle(
                        made_mappings=bool(identities),
                        original=job.data,
                        released_table=result.data,
                        k=check.k_target,
                    )
                written.append((package, made))
            files += [(package, made.to_zip()) for package, made in written]
            write_outputs(files, force=args.force)
            placed = True
    except BaseException:
        if placed:  # the record was not committed: the release must not stand without it
            for output, _ in files:
                output.path.unlink(missing_ok=True)
        raise
    end_bar(args)  # the messages below start on a line of their own
    if ws is not None:
        print(
            f"Recorded release {done.release_id} in workspace {workspace} (k = {done.k}, "
            f"{RECORD_RISK.name} = {fmt_probability(done.p_reid)}; audit log entry {done.anchor['entries']}).",
            file=sys.stderr,
        )
    for package, made in written:
        if made.private:
            left_out = bool(identities) and not encrypted
            note = " Plaintext identity tables are not in it: keep them apart." if left_out else ""
            print(
                f"Reproduction archive (internal: holds personal data, mode 0600): "
                f"{package.path}.{note}",
                file=sys.stderr,
            )
        else:
            print(
                f"Release bundle (for the recipient: no original values, no identity "
                f"tables): {package.path}.",
                file=sys.stderr,
            )


def pairs_of(result: RecipeResult) -> list[tuple[str, str]]:
    """(column, "mapping" | "linking") of each identity table, in the order of the files."""
    return [*((c, "mapping") for c in result.mappings), *((c, "linking") for c in result.linking)]


@contextmanager
def _recording(workspace: str | None) -> Iterator[Workspace | None]:
    """The workspace to record in, with its write transaction open (None: no workspace)."""
    if not workspace:
        yield None
        return
    with Workspace(workspace) as ws, ws.transaction():
        yield ws


def release_files(
    args: argparse.Namespace, job: ApplyJob, result: RecipeResult, progress: ProgressFn
) -> tuple[list[Output], Path, list[bytes]]:
    """Every output of the release under paths checked again, the released table written
    in full to a temporary file beside --out (encoded straight into it, never held twice
    in memory; placed by :func:`place_and_record`), and the identity tables' bytes."""
    outputs = plan_outputs(
        apply_outputs(job, list(result.mappings), list(result.linking)),
        job.inputs,
        force=args.force,
    )
    tables = [*result.mappings.values(), *result.linking.values()]
    fmt = output_format(job.out)

    def released_table(handle: BinaryIO, part: ProgressFn) -> None:
        stream_table(handle, result.data, fmt, part)

    if job.passphrase is None:
        identities = [table_to_bytes(table, "csv") for table in tables]
    else:
        identities = [encrypt_table(table, job.passphrase) for table in tables]
    return outputs, stage_content(outputs[0], released_table, progress), identities


def _build_report(
    args: argparse.Namespace,
    job: ApplyJob,
    result: RecipeResult | None,
    check: ReleaseCheck,
    identity_outputs: list[Output],
    figures: ReleaseFigures,
) -> Report:
    """The release's report (one for --report, the workspace and the bundle); ``figures``
    are an engine's counted figures (core.release.inputs.ReleaseFigures: the frequency
    tables, utility, formula-like cells), empty for a table in memory."""
    identity_files = [
        {"table": output.label, "file": output.path.name, "encrypted": job.passphrase is not None}
        for output in identity_outputs
    ]
    return build_report(
        job.data,
        result,
        job.recipe,
        roles=ReleaseRoles(
            quasi_identifiers=job.quasi_identifiers, direct_identifiers=job.direct_identifiers
        ),
        figures=figures,
        use_case=args.use_case,
        identity_files=identity_files,
        release_check=check,
        annex_d=_annex_d(job.recipe, check),
    )


def _report_bytes(report: Report, path: Path) -> bytes:
    """The --report file: Markdown for .md, else JSON."""
    if path.suffix.lower() in (".md", ".markdown"):
        return report_to_markdown(report).encode("utf-8")
    return json.dumps(json_figures(report.to_dict()), indent=2, ensure_ascii=False).encode("utf-8")


def _annex_d(recipe: Recipe, check: ReleaseCheck) -> AnnexDResult | None:
    """The Annex D figures for the report, when the recipe gives the model's settings."""
    settings = recipe.meta.get("annex_d")
    return annex_d_risk(check.k, **settings) if settings and check.k else None


def warn_released_anyway(check: ReleaseCheck) -> None:
    """Say on stderr that a --release-anyway release is not anonymised."""
    if check.acknowledged:
        print(
            terminal_line(
                f"warning: released anyway at your request; this is NOT an "
                f"anonymised release and every file is marked {NOT_ANONYMISED_MARK}. "
                f"{' '.join(check.problems)}"
            ),
            file=sys.stderr,
        )


def tell_what_was_written(outputs: list[Output], result: RecipeResult, check: ReleaseCheck) -> None:
    """Name each file written on stderr, with what to do with identity tables."""
    warn_released_anyway(check)
    for output in outputs:
        if output.label == "--out":
            print(
                f"Wrote {len(result.data)} records to {output.path} (seed {result.seed}).",
                file=sys.stderr,
            )
        elif output.label.startswith("identity mapping"):
            how = (
                "encrypted; read it back with decrypt-mapping"
                if output.path.suffix == ".enc"
                else "PLAINTEXT (--plaintext-mapping)"
            )
            print(
                f"The {output.label}: {output.path} ({how}). Keep it secure and apart from "
                "the data (PDPC guide, Annex A: Pseudonymisation).",
                file=sys.stderr,
            )
        elif output.label.startswith("identity linking"):
            print(
                f"The {output.label}: {output.path}. Give it to the trusted third party "
                "only (double coding).",
                file=sys.stderr,
            )
        else:
            print(f"Report: {output.path}", file=sys.stderr)
