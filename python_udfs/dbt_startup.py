"""Python's garbage collector and teardown, tuned for the dbt processes of this virtualenv.

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

For the same reason a dbt process ends without Python's teardown. Once dbt has called
`sys.exit()` and every other exit handler has run (dbt's log files flushed and closed,
dbt-duckdb's connections dropped), the last handler closes the DuckDB connections the plugin
opened, flushes standard output and error, and ends the process with dbt's exit status, instead
of letting Python free millions of objects one by one and run a last full collection: 0.4 s
of a million-turn build, on one core, after the work is done. A process that ends any other
way (an uncaught exception, a status that is a message) is torn down as usual.
"""

from __future__ import annotations

import atexit
import functools
import gc
import os
import sys
from collections.abc import Callable
from typing import Any

# A collection of the youngest generation after 1,000,000 net allocations instead of 700. A
# million-turn build allocates about 560,000 containers that outlive their statement, most of them
# dbt's per-node Jinja contexts (bench/gc_trace.py), so it never collects: at 100,000 it collected
# ten times, for 0.6 s holding Python's lock (half of it during the single-threaded parse), to
# free about 600,000 objects, some 100 MB that the process now keeps until it exits. The number
# grows with the nodes of the project, not with the turns; a larger project still collects,
# once per million.
GC_THRESHOLDS = (1_000_000, 50, 100)

# The statuses sys.exit() was called with in this process (the last one is the exit status),
# and the DuckDB connections to close before the process ends without teardown.
_exit_statuses: list[object] = []
_connections: list[Any] = []


def is_dbt_process(argv: list[str] | None = None) -> bool:
    """Whether this process is the `dbt` command (the venv's console script)."""
    argv = sys.argv if argv is None else argv
    return bool(argv) and os.path.basename(argv[0]) == "dbt"


def tune(argv: list[str] | None = None) -> bool:
    """Raise the collector's thresholds and skip the teardown at exit if this is a dbt
    process; returns whether it did."""
    if not is_dbt_process(argv):
        return False
    gc.set_threshold(*GC_THRESHOLDS)
    if not isinstance(sys.exit, _RememberingExit):
        sys.exit = _RememberingExit(sys.exit)
        # Registered before any other handler, so it runs after all of them.
        atexit.register(exit_without_teardown)
    return True


def close_before_exit(connection: Any) -> None:
    """Have `connection` closed before a dbt process ends without teardown: DuckDB then
    checkpoints its write-ahead log into the database file, as it does when Python frees it.
    Closing a connection twice is harmless, so dbt-duckdb may have closed it already. In any
    other process (dbt run in-process by `dbtRunner`, say) it keeps nothing."""
    if isinstance(sys.exit, _RememberingExit):
        _connections.append(connection)


class _RememberingExit:
    """sys.exit(), remembering the status it was called with."""

    def __init__(self, exit_function: Callable[..., Any]) -> None:
        functools.update_wrapper(self, exit_function)
        self._exit = exit_function

    def __call__(self, status: object = None) -> None:
        _exit_statuses.append(status)
        self._exit(status)


def exit_status() -> int | None:
    """The status this process is exiting with, if it is ending through sys.exit() with a
    number (or None, which is 0); None for any other ending."""
    if not _exit_statuses or getattr(sys, "last_value", None) is not None:
        return None  # no sys.exit(), or an uncaught exception came after it
    status = _exit_statuses[-1]
    if status is None:
        return 0
    if isinstance(status, int):
        return status
    return None  # a message: Python prints it and exits with 1


def exit_without_teardown() -> None:
    """The last exit handler of a dbt process: close the plugin's DuckDB connections, flush
    standard output and error, and end the process now with its exit status."""
    status = exit_status()
    if status is None:
        return
    for connection in _connections:
        try:
            connection.close()
        except Exception:
            return  # leave the closing to Python's own teardown
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)
