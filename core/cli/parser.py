"""``python -m core``'s parser, assembled from the command modules, and :func:`main`,
which runs a command and turns a user's mistake into one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import warnings
from collections.abc import Sequence

from core.cli import (
    apply,
    classify,
    decrypt_mapping,
    dp_aggregate,
    log,
    reid_risk,
    risk,
    safe_harbor,
    search,
    spatial_k,
    suda,
    uniqueness,
    verify,
    verify_bundle,
)
from core.cli.common import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_USER_ERROR,
    CommandParser,
    end_bar,
    progress_bar,
)
from core.errors import AnonymisationError
from core.markup import terminal_line

# in the order ``python -m core --help`` lists them
COMMANDS = (
    classify,
    risk,
    search,
    suda,
    reid_risk,
    apply,
    log,
    verify,
    verify_bundle,
    decrypt_mapping,
    uniqueness,
    spatial_k,
    safe_harbor,
    dp_aggregate,
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``python -m core``: each command module adds its subcommand."""
    parser = CommandParser(
        prog="python -m core",
        description="Anonymise tabular personal data following the PDPC Guide to Basic "
        "Anonymisation.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def _plain_warnings(run):
    """``run`` with each warning shown as one line of its text: Python's own format names
    the source file and line, a server path the user has no use for."""

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"warning: {terminal_line(message)}", file=sys.stderr)

    def run_showing_plain_warnings(args: argparse.Namespace) -> int:
        with warnings.catch_warnings():
            warnings.showwarning = show
            return run(args)

    return run_showing_plain_warnings


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m core`` with ``argv`` (default: the process's); the exit status."""
    args = build_parser().parse_args(argv)
    args.bar = progress_bar(args)
    args.run = _plain_warnings(args.run)
    try:
        code = args.run(args)
        sys.stdout.flush()  # a reader that went away (verify | head) is heard here
        return code
    except BrokenPipeError:
        # The reader of our output stopped (e.g. `verify | head`): end quietly, as a pipe's
        # writer does, without "Broken pipe" or a second error when Python flushes at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        end_bar(args)
        print(
            "error: interrupted (Ctrl-C); files are written all or nothing and the "
            "workspace in one transaction, so nothing was left half-written.",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except AnonymisationError as error:
        end_bar(args)
        print(f"error: {terminal_line(error)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except sqlite3.Error as error:  # a workspace damaged or full beyond what it catches
        end_bar(args)
        print(
            f"error: the workspace could not be read or written ({terminal_line(error)}); "
            "nothing was recorded. Check it with `python -m core verify`.",
            file=sys.stderr,
        )
        return EXIT_USER_ERROR
    except OSError as error:
        end_bar(args)
        message = f"{error.strerror or error}: {error.filename or ''}".rstrip(": ")
        print(f"error: {terminal_line(message)}", file=sys.stderr)
        return EXIT_USER_ERROR
    finally:
        end_bar(args)
