"""``python -m core``: the command line (see :mod:`core.cli`)."""

import os

# Before NumPy is imported: NumPy asks the kernel for transparent huge pages on every
# large array (madvise), and where the kernel compacts memory to find them and gets none
# (seen on this project's virtual machines: no huge page was ever handed out), a fresh
# 240 MB array took 0.8 s instead of 0.2 s; the 50M-row risk report makes dozens. A value
# the user has set is kept (NUMPY_MADVISE_HUGEPAGE=1 turns them back on).
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")

from core.cli import main  # noqa: E402 (after the setting above)

raise SystemExit(main())
