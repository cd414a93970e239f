"""The input contract for the Python side (the plugin, generator, baseline, tests).

The contract lives in one place, the `meta` of the chat_logs source tables and their columns in
models/staging/chat_logs/_chat_logs__sources.yml (docs/rules.md#input-contract); dbt reads the
same YAML through the graph in input_contract() (macros/inputs/input_contract.sql). This module
reads it when imported:

- INPUT_CONTRACT: the dict input_contract() returns, {table: {var, key, [optional,
  demo_default,] columns: [{name, kind, required, [id,] [empty_ok]}, ...]}}, tables and
  columns in the YAML's order;
- ALL_INPUT_COLUMNS: each table's column names in contract order, the optional inputs
  (golden_labels, llm_summaries) included;
- INPUT_COLUMNS: the same for the three required inputs only, also as CHAT_TURN_COLUMNS,
  CHARACTER_CARD_COLUMNS and TOPIC_LEXICON_COLUMNS.

Columns named `_...` are the reader's bookkeeping (_source_file, _source_row), not the
contract's; any other column without a kind is an error, as it is in dbt.
"""

from __future__ import annotations

from pathlib import Path

import yaml

SOURCES_YAML = (
    Path(__file__).resolve().parents[1] / "models/staging/chat_logs/_chat_logs__sources.yml"
)
SOURCE_NAME = "chat_logs"


def load_contract(path: Path = SOURCES_YAML) -> dict[str, dict]:
    """The input contract from the sources YAML at `path`, as input_contract() builds it."""
    sources = yaml.safe_load(path.read_text(encoding="utf-8"))["sources"]
    (source,) = [s for s in sources if s["name"] == SOURCE_NAME]
    contract = {}
    for table in source["tables"]:
        columns = []
        for column in table["columns"]:
            if column["name"].startswith("_"):
                continue
            meta = column.get("config", {}).get("meta", {})
            if not meta.get("kind"):
                raise ValueError(
                    f"Column {column['name']} of source {SOURCE_NAME}.{table['name']} has no"
                    f" kind in its meta (the input contract, {path})"
                )
            columns.append({"name": column["name"], **meta})
        contract[table["name"]] = {**table.get("config", {}).get("meta", {}), "columns": columns}
    return contract


INPUT_CONTRACT = load_contract()
ALL_INPUT_COLUMNS = {
    table: [column["name"] for column in spec["columns"]] for table, spec in INPUT_CONTRACT.items()
}
INPUT_COLUMNS = {
    table: columns
    for table, columns in ALL_INPUT_COLUMNS.items()
    if not INPUT_CONTRACT[table].get("optional")
}
CHAT_TURN_COLUMNS = INPUT_COLUMNS["chat_turn"]
CHARACTER_CARD_COLUMNS = INPUT_COLUMNS["character_card"]
TOPIC_LEXICON_COLUMNS = INPUT_COLUMNS["topic_lexicon"]
