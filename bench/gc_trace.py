"""How long a dbt command spends in Python's garbage collector, and what the collector frees.

    .venv/bin/python bench/gc_trace.py [--gen0 N] -- build --vars '{...}' [dbt arguments]

Runs the dbt command in this process, with the collector thresholds a `dbt` process of this
venv uses (python_udfs/dbt_startup.py; `--gen0` tries another first threshold), and prints
every collection (when, how long, how many objects it freed), the total, and how many container
objects were allocated and never collected. Collections hold Python's lock: while one runs,
no dbt thread can start a query or read a result.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from python_udfs import dbt_startup


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen0", type=int, help="first threshold to try instead of the venv's")
    ap.add_argument("dbt_args", nargs=argparse.REMAINDER, help="the dbt command, after --")
    args = ap.parse_args()
    dbt_args = args.dbt_args[1:] if args.dbt_args[:1] == ["--"] else args.dbt_args
    if args.gen0 is not None:
        # The plugin re-applies dbt_startup.GC_THRESHOLDS when dbt loads it.
        dbt_startup.GC_THRESHOLDS = (args.gen0, *dbt_startup.GC_THRESHOLDS[1:])
    gc.set_threshold(*dbt_startup.GC_THRESHOLDS)

    started = time.perf_counter()
    collections: list[tuple[float, int, float, int]] = []
    pending: dict[str, float] = {}

    def on_collection(phase: str, info: dict) -> None:
        if phase == "start":
            pending["at"] = time.perf_counter()
        else:
            at = pending.pop("at")
            spent = time.perf_counter() - at
            collections.append((at - started, info["generation"], spent, info["collected"]))

    gc.callbacks.append(on_collection)
    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(dbt_args)
    gc.callbacks.remove(on_collection)
    wall = time.perf_counter() - started

    print(f"\ndbt {' '.join(dbt_args[:1])}: {wall:.1f} s, success={result.success}")
    print(f"collector thresholds {gc.get_threshold()}, frozen objects {gc.get_freeze_count():,}")
    for at, generation, spent, freed in collections:
        print(f"  at {at:6.2f} s  gen {generation}  {spent * 1000:6.1f} ms  freed {freed:,}")
    total = sum(spent for _, _, spent, _ in collections)
    freed = sum(freed for *_, freed in collections)
    print(f"{len(collections)} collections, {total:.2f} s holding the lock, {freed:,} freed")
    print(f"container allocations since the last collection: {gc.get_count()[0]:,}")
    return 0 if result.success else 1


if __name__ == "__main__":
    sys.exit(main())
