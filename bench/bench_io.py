"""Benchmark: reading a CSV with core.io against pandas' own readers, in the same run.

Usage: ``python bench/bench_io.py [--rows 1000000] [--repeat 3]``

Writes a synthetic census-like CSV (8 quasi-identifiers as in bench_risk, plus a postal
code with leading zeros and a free-text column) to a temporary folder, then times:
- ``core``: :func:`core.io.read_table` (delimiter and encoding detection, leading-zero
  and text/number rules, header checks);
- ``pandas pyarrow``: ``pd.read_csv(path, engine="pyarrow")`` (no detection, no rules);
- ``pandas c``: ``pd.read_csv(path)``.
The readers take turns for ``--repeat`` rounds; it prints each one's fastest run, the ratio
of the fastest runs core / pandas pyarrow (issue 15's goal: at most 1.5) and the median of
the rounds' ratios.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_risk import synthetic_table  # noqa: E402
from timing import best_of  # noqa: E402

from core.io import read_table  # noqa: E402


def write_csv(rows: int, folder: Path) -> Path:
    df = synthetic_table(rows)
    rng = np.random.default_rng(3)
    df["postal_code"] = pd.Series(rng.integers(10000, 830000, size=rows)).map("{:06d}".format)
    df["note"] = np.where(rng.random(rows) < 0.5, 'seen, "twice"', "")
    path = folder / "people.csv"
    df.to_csv(path, index=False)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        path = write_csv(args.rows, Path(folder))
        df = read_table(path)
        assert df["postal_code"].str.startswith("0").any(), "leading zeros must survive"
        readers = {
            "core": lambda: read_table(path),
            "pyarrow": lambda: pd.read_csv(path, engine="pyarrow"),
            "c": lambda: pd.read_csv(path),
        }
        # Rounds interleave the readers, so a burst of load on the machine touches all of
        # them; the ratio of the fastest runs and the median of each round's ratio are shown.
        times: dict[str, list[float]] = {name: [] for name in readers}
        for _ in range(max(1, args.repeat)):
            for name, read in readers.items():
                times[name].append(best_of(read, 1)[0])
        size = path.stat().st_size / 2**20
    best = {name: min(seconds) for name, seconds in times.items()}
    round_ratios = np.array(times["core"]) / np.array(times["pyarrow"])
    print(
        f"{'rows':>11} {'MiB':>6} {'core s':>8} {'pyarrow s':>10} {'pandas c s':>11} "
        f"{'core/pyarrow':>13} {'median ratio':>13}"
    )
    print(
        f"{args.rows:>11,} {size:6.0f} {best['core']:8.3f} {best['pyarrow']:10.3f} "
        f"{best['c']:11.3f} {best['core'] / best['pyarrow']:13.2f} "
        f"{np.median(round_ratios):13.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
