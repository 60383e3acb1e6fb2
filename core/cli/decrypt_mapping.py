"""``decrypt-mapping``: read back an identity mapping table that ``apply`` encrypted."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core.cli.commands import help_of
from core.errors import AnonymisationError
from core.io import output_format, table_to_bytes
from core.outputs import Output, plan_outputs, write_outputs
from core.techniques.pseudonymisation import decrypt_table, passphrase_from_env


def add_parser(subparsers: Any) -> None:
    """The ``decrypt-mapping`` subcommand."""
    decrypt = subparsers.add_parser(
        "decrypt-mapping",
        help=help_of("decrypt-mapping"),
    )
    decrypt.add_argument("file", help="encrypted table (.enc)")
    decrypt.add_argument(
        "--passphrase-env",
        required=True,
        metavar="NAME",
        help="environment variable holding the passphrase",
    )
    decrypt.add_argument("--out", required=True, help="decrypted table (.csv, .xlsx, .parquet)")
    decrypt.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read back an identity mapping table that ``apply`` encrypted (kept private: 0600)."""
    passphrase = passphrase_from_env(args.passphrase_env)
    (output,) = plan_outputs(
        [Output("--out", Path(args.out), private=True, keep_existing=True)],
        {"encrypted file": Path(args.file)},
    )
    fmt = output_format(output.path)
    source = Path(args.file)
    if not source.is_file():  # checked before reading: a pipe or device would block
        raise AnonymisationError(
            f"'{source}' is not a regular file: give the .enc file that apply wrote."
        )
    table = decrypt_table(source.read_bytes(), passphrase)
    write_outputs([(output, table_to_bytes(table, fmt))])
    print(
        f"Wrote the decrypted table ({len(table)} rows) to {output.path}, readable by you "
        "only. It re-identifies people: keep it secure, apart from the data, and delete it "
        "when done (PDPC guide, Step 5).",
        file=sys.stderr,
    )
    return 0
