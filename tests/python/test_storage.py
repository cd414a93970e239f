"""Column compression chosen per model (config column_compression, macro
duckdb__create_table_as): the long replies are stored in zstd, the other columns keep DuckDB's
choice, and a contract-enforced mart keeps its contract's columns in order."""

from __future__ import annotations

import pytest
import yaml
from conftest import PROJECT_ROOT

ZSTD_COLUMNS = {
    "staging.base_chat_logs__turns": "reply_text",
    "intermediate.int_turns_judged": "reply_text",
    "marts.fct_turn_evidence": "value",
}


@pytest.fixture(scope="module")
def built(seed_000_build):
    return seed_000_build


def _compressions(built, table: str) -> dict[str, set[str]]:
    rows = built.rows(
        f"select column_name, compression from pragma_storage_info('{table}') "
        "where segment_type = 'VARCHAR'"
    )
    found: dict[str, set[str]] = {}
    for row in rows:
        found.setdefault(row["column_name"], set()).add(row["compression"])
    return found


@pytest.mark.parametrize(("table", "column"), ZSTD_COLUMNS.items())
def test_long_text_is_stored_in_zstd(built, table, column):
    compressions = _compressions(built, table)
    assert compressions[column] - {"Constant"} == {"ZSTD"}, compressions[column]
    others = {name: used for name, used in compressions.items() if name != column}
    assert others, f"{table} has no other text column to compare with"
    assert not any("ZSTD" in used for used in others.values()), others


def test_contract_mart_keeps_the_contract_columns_in_order(built):
    models = yaml.safe_load((PROJECT_ROOT / "models/marts/_marts__models.yml").read_text("utf-8"))
    contract = next(m for m in models["models"] if m["name"] == "fct_turn_evidence")
    expected = [(c["name"], c["data_type"].upper()) for c in contract["columns"]]
    described = built.rows("describe marts.fct_turn_evidence")
    assert [(r["column_name"], r["column_type"]) for r in described] == expected
    rows = built.rows("select count(*) as n from marts.fct_turn_evidence")
    assert rows[0]["n"] > 0
