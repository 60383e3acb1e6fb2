"""``python -m core``'s parser, assembled from the command modules, and :func:`main`,
which runs a command and turns a user's mistake into one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sqlite3
import sys
import warnings
from collections.abc import Sequence

from core.cli.commands import COMMANDS
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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``python -m core``: each command module adds its subcommand.

    With ``only``, only that command's module is imported and adds its options; the others
    are listed by name and help alone (what ``--help`` and "invalid choice" show), so running
    one command does not import the library every other command needs.
    """
    parser = CommandParser(
        prog="python -m core",
        description="Anonymise tabular personal data following the PDPC Guide to Basic "
        "Anonymisation.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for name, (module, help_text) in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).add_parser(sub)
        else:
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def command_named(argv: Sequence[str]) -> str:
    """The command ``argv`` runs ("" when it names none: then every command is only listed)."""
    return argv[0] if argv and argv[0] in COMMANDS else ""


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
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(only=command_named(argv)).parse_args(argv)
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
