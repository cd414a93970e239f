"""A contract-enforced mart, made by dbt-duckdb's own table materialisation, keeps its
contract's columns in order."""

from __future__ import annotations

import pytest
import yaml
from conftest import PROJECT_ROOT


@pytest.fixture(scope="module")
def built(seed_000_build):
    return seed_000_build


def test_contract_mart_keeps_the_contract_columns_in_order(built):
    models = yaml.safe_load((PROJECT_ROOT / "models/marts/_marts__models.yml").read_text("utf-8"))
    contract = next(m for m in models["models"] if m["name"] == "fct_turn_evidence")
    expected = [(c["name"], c["data_type"].upper()) for c in contract["columns"]]
    described = built.rows("describe marts.fct_turn_evidence")
    assert [(r["column_name"], r["column_type"]) for r in described] == expected
    rows = built.rows("select count(*) as n from marts.fct_turn_evidence")
    assert rows[0]["n"] > 0
