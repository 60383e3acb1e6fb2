"""What every command shares: exit statuses, the parser class, the options of a command
that reads a table, how results are printed (--json or plain lines), the progress bar,
the --per-record style output files and the workspace the audit commands read.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from core.engines import ENGINES
from core.errors import AnonymisationError
from core.io import output_format, table_to_bytes
from core.markup import terminal_line
from core.outputs import Output, plan_outputs, write_outputs
from core.progress import TextBar
from core.workspace import ENV_VAR as WORKSPACE_ENV
from core.workspace import OlderSchemaError, Workspace
from core.workspace import default_path as default_workspace_path

EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader left


class CommandParser(argparse.ArgumentParser):
    """argparse's parser with its usage errors in one line and exit status 2."""

    def error(self, message: str) -> None:  # argparse's own usage errors
        self.print_usage(sys.stderr)
        self.exit(EXIT_USER_ERROR, f"error: {terminal_line(message)}\n")


def comma_list(text: str) -> list[str]:
    """The names in a comma-separated option (--qi a,b), blanks left out."""
    return [part.strip() for part in text.split(",") if part.strip()]


def progress_bar(args: argparse.Namespace) -> TextBar | None:
    """The bar of a long command: on stderr (never stdout, which may carry --json), drawn
    when stderr is a terminal or with --progress, and only once the work passes ~2 s."""
    wanted = getattr(args, "progress", False) or sys.stderr.isatty()
    return TextBar(args.command) if wanted else None


def end_bar(args: argparse.Namespace) -> None:
    """Close the command's progress bar, so what follows starts on a line of its own."""
    if args.bar is not None:
        args.bar.close()


def emit(data: object, as_json: bool, text: str) -> None:
    """``data`` as JSON, or ``text`` with each line's control characters shown as their
    escapes (a column name's escape sequence would retitle or recolour the terminal)."""
    if as_json:  # JSON escapes control characters itself
        print(json.dumps(_finite(data), indent=2, ensure_ascii=False))
    else:
        print("\n".join(terminal_line(line) for line in text.split("\n")))


def _finite(data: object) -> object:
    """``data`` with every NaN or infinite float as None: ``json.dumps`` writes them as
    ``NaN``/``Infinity``, which JSON does not have and strict parsers refuse."""
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [_finite(value) for value in data]
    return data


def data_command(subparsers: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    """A subcommand that reads a table: DATA, --sep, --json and --progress, as each such takes."""
    command = subparsers.add_parser(name, help=help_text, description=help_text)
    command.add_argument("data", help="CSV, Excel (.xlsx) or Parquet file")
    command.add_argument("--sep", help="CSV delimiter (detected when omitted)")
    command.add_argument("--json", action="store_true", help="print JSON")
    command.add_argument(
        "--progress",
        action="store_true",
        help="show a progress bar on stderr for work over ~2 s (default: "
        "only when stderr is a terminal)",
    )
    return command


def add_engine_options(command: argparse.ArgumentParser) -> None:
    """The --engine and --spark-master options (core.engines)."""
    command.add_argument(
        "--engine",
        choices=("auto", *ENGINES),
        default="auto",
        help="where the data is processed: pandas (in memory), duckdb (files "
        "larger than memory, globs, folders of Parquet) or spark; auto: duckdb "
        "for globs, folders and files over 1 GiB, else pandas",
    )
    command.add_argument(
        "--spark-master",
        help="Spark master URL for --engine spark (default: spark-submit's "
        "--master, else local[*])",
    )


def per_record_output(args: argparse.Namespace) -> Output | None:
    """The --per-record file, checked by the output rules (core.outputs) before any work."""
    if args.per_record is None:
        return None
    (output,) = plan_outputs(
        [Output("--per-record", Path(args.per_record))], {"data": Path(args.data)}, force=args.force
    )
    return output


def write_table_output(output: Output, table: pd.DataFrame, *, force: bool) -> None:
    """Write ``table`` to an output checked by :func:`core.outputs.plan_outputs`."""
    write_outputs([(output, table_to_bytes(table, output_format(output.path)))], force=force)


# the --workspace option of the commands that read a workspace (log, verify, verify-bundle)
WORKSPACE_HELP = f"workspace file (default ${WORKSPACE_ENV} or workspace.anon.db)"


def open_existing_workspace(path: str | None) -> Workspace:
    """The workspace to read (``path``, else ``$ANON_WORKSPACE``, else the default), read-only.

    ``log``, ``verify`` and ``verify-bundle`` only read: a read-only file or folder (e.g. an
    archived copy) can be checked, and nothing is written anywhere."""
    chosen = Path(path) if path else default_workspace_path()
    if not chosen.is_file():
        raise AnonymisationError(
            f"No workspace at '{chosen}'. Give --workspace FILE or set {WORKSPACE_ENV}."
        )
    try:
        return Workspace(chosen, read_only=True)
    except OlderSchemaError:
        if not (os.access(chosen, os.W_OK) and chosen.stat().st_mode & 0o222):
            raise
    Workspace(chosen).close()  # a writable file of an older version: upgraded once, as before
    return Workspace(chosen, read_only=True)
