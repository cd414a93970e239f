"""Staging's clean rows are filtered in forms DuckDB's planner can size (docs/conventions.md,
"Staging's filters are ones the planner can size"). Written as `len(_violations) = 0` and
`character_id in (<clean cards>)`, each filter made the planner guess a fifth of the rows, so
the view of every stored turn looked 25 times smaller than it is, and the joins of a check
with a few hundred thousand turns hashed all of staging. These tests read the planner's own
estimate (EXPLAIN) on the seed_000 build and hold it to the rows the views really return."""

from __future__ import annotations

import json

import pytest

# The staging views that other models join with the most rows.
VIEWS = ("stg_chat_logs__turns", "stg_chat_logs__character_cards")


def top_estimate(plan: list[dict]) -> int:
    """The estimated cardinality of the plan's topmost operator that states one."""
    pending = list(plan)
    while pending:
        node = pending.pop(0)
        estimate = node.get("extra_info", {}).get("Estimated Cardinality")
        if estimate is not None:
            return int(estimate)
        pending.extend(node.get("children", []))
    raise AssertionError(f"no operator of the plan states an estimate: {plan}")


@pytest.mark.parametrize("view", VIEWS)
def test_the_planner_sizes_a_staging_view_near_its_rows(seed_000_build, view):
    with seed_000_build.connect() as con:
        rows = con.execute(f"select count(*) from staging.{view}").fetchone()[0]
        (_, plan_json), *_ = con.execute(
            f"explain (format json) select * from staging.{view}"
        ).fetchall()
    estimate = top_estimate(json.loads(plan_json))
    assert rows > 0, f"seed_000 has no rows in staging.{view}"
    # A comparison filter would be guessed at a fifth, two of them at a twenty-fifth.
    assert estimate >= rows / 2, (
        f"DuckDB estimates staging.{view} at {estimate} rows where it returns {rows}: a "
        "filter of the view is written in a form the planner discounts (has_no_violations, "
        "the join with the clean cards)"
    )
