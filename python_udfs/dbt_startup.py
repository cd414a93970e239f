"""Python's garbage collector, tuned for the dbt processes of this project's virtualenv.

dbt keeps its whole manifest in Python objects, and the UDFs allocate per row. At Python's
default thresholds the collector runs hundreds of times during dbt's parse alone, walking the
manifest being built (a few hundred thousand objects, all of which stay alive) and finding
little to free: 0.3 s of a 4 s cold parse, on the one core the parse runs on. Later it re-scans
the manifest thousands of times while models run.

So a dbt process collects rarely, if at all, from its first line: `make build` writes the venv's
card_keeper.pth, whose second line calls `tune()` as Python starts. It changes nothing in any
other process of the venv (pytest, sqlfluff, the dashboard). The dbt-duckdb plugin applies the
same thresholds again when it loads (for dbt started another way, such as `dbtRunner`) and
freezes the parsed manifest out of every later collection.
"""

from __future__ import annotations

import gc
import os
import sys

# A collection of the youngest generation after 1,000,000 net allocations instead of 700. A
# million-turn build allocates about 560,000 containers that outlive their statement, most of them
# dbt's per-node Jinja contexts (bench/gc_trace.py), so it never collects: at 100,000 it collected
# ten times, for 0.6 s holding Python's lock (half of it during the single-threaded parse), to
# free about 600,000 objects, some 100 MB that the process now keeps until it exits. The number
# grows with the nodes of the project, not with the turns; a larger project still collects,
# once per million.
GC_THRESHOLDS = (1_000_000, 50, 100)


def is_dbt_process(argv: list[str] | None = None) -> bool:
    """Whether this process is the `dbt` command (the venv's console script)."""
    argv = sys.argv if argv is None else argv
    return bool(argv) and os.path.basename(argv[0]) == "dbt"


def tune(argv: list[str] | None = None) -> bool:
    """Raise the collector's thresholds if this is a dbt process; returns whether it did."""
    if not is_dbt_process(argv):
        return False
    gc.set_threshold(*GC_THRESHOLDS)
    return True
