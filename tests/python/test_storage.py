"""A contract-enforced mart, made by dbt-duckdb's own table materialisation, keeps its
contract's columns in order."""

from __future__ import annotations

import yaml
from conftest import PROJECT_ROOT


def test_contract_mart_keeps_the_contract_columns_in_order(seed_000_build):
    models = yaml.safe_load((PROJECT_ROOT / "models/marts/_marts__models.yml").read_text("utf-8"))
    contract = next(m for m in models["models"] if m["name"] == "fct_turn_evidence")
    expected = [(c["name"], c["data_type"].upper()) for c in contract["columns"]]
    described = seed_000_build.rows("describe marts.fct_turn_evidence")
    assert [(r["column_name"], r["column_type"]) for r in described] == expected
    rows = seed_000_build.rows("select count(*) as n from marts.fct_turn_evidence")
    assert rows[0]["n"] > 0
