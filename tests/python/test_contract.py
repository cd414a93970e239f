"""The input contract's one copy, the sources YAML's meta (python_udfs/contract.py): every
contract column has a kind, every table a var and a key; test_input_contract.py checks that
dbt reads the same contract."""

from __future__ import annotations

import pytest
import yaml

from python_udfs.contract import INPUT_CONTRACT, SOURCES_YAML, load_contract

ROOT = SOURCES_YAML.parents[3]
KINDS = {"text", "list", "roles", "boolean", "integer", "timestamp", "json"}
INPUTS = [
    "character_card",
    "topic_lexicon",
    "chat_turn",
    "golden_labels",
    "llm_summaries",
    "turn_marks",
    "canon_decisions",
]
# The reviewer-decisions files: optional, a file of the folder var reviews_dir names
# (docs/rules.md#reviewer-decisions), with no demo file.
REVIEW_FILES = {"turn_marks": "turn_marks.csv", "canon_decisions": "canon_decisions.csv"}


def test_every_input_is_a_source_table():
    assert list(INPUT_CONTRACT) == INPUTS


@pytest.mark.parametrize("table", INPUTS)
def test_every_column_has_a_kind(table):
    spec = INPUT_CONTRACT[table]
    assert spec["columns"]
    for column in spec["columns"]:
        assert column["kind"] in KINDS, column
        assert isinstance(column["required"], bool), column
        assert set(column) <= {"name", "kind", "required", "id", "empty_ok"}, column


@pytest.mark.parametrize("table", INPUTS)
def test_every_table_has_its_var_and_key(table):
    spec = INPUT_CONTRACT[table]
    (key,) = [column for column in spec["columns"] if column["name"] == spec["key"]]
    assert key.get("id") and key["required"]
    if table in REVIEW_FILES:
        assert spec["var"] == "reviews_dir"
        assert spec["file"] == REVIEW_FILES[table]
        assert spec["optional"] and "demo_default" not in spec
        return
    assert spec["var"] == f"input_{table}"
    if spec.get("optional"):
        assert (ROOT / spec["demo_default"]).is_file()
    else:
        assert "demo_default" not in spec


def test_only_bookkeeping_columns_are_left_out():
    """A column without a kind is the reader's (`_source_file`, …); and every column, the
    contract's or not, keeps its description."""
    (source,) = yaml.safe_load(SOURCES_YAML.read_text(encoding="utf-8"))["sources"]
    for table in source["tables"]:
        named = [column["name"] for column in INPUT_CONTRACT[table["name"]]["columns"]]
        left_out = [c["name"] for c in table["columns"] if c["name"] not in named]
        assert all(name.startswith("_") for name in left_out), left_out
        assert all(column.get("description") for column in table["columns"]), table["name"]


def test_a_column_without_a_kind_fails(tmp_path):
    text = SOURCES_YAML.read_text(encoding="utf-8")
    broken = tmp_path / "sources.yml"
    broken.write_text(text.replace("{kind: text, required: true}", "{required: true}", 1))
    with pytest.raises(ValueError, match="has no kind"):
        load_contract(broken)
