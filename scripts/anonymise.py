"""The command line as a script file, for ``spark-submit`` (which runs a file, not ``-m``):
``spark-submit --master yarn scripts/anonymise.py risk data/ --qi a,b --engine spark``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.cli import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
