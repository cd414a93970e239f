"""The Spark export (models/marts/export_turn_verdicts.sql, macros/schema/spark_export.sql).

Its field list is held to the output schema's here, without Spark. The exports a Spark build
wrote are validated against the schema when CARD_KEEPER_SPARK_EXPORTS names them (paths
separated by spaces, each the file merged from its `<export_path>.parts` folder): `make
test-spark` does, after building each input set on Spark.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema
import pytest
from conftest import PROJECT_ROOT

SCHEMA = json.loads((PROJECT_ROOT / "schemas" / "verdict.schema.json").read_text())
MACROS = (PROJECT_ROOT / "macros" / "schema" / "spark_export.sql").read_text()
EXPORTS = os.environ.get("CARD_KEEPER_SPARK_EXPORTS", "").split()


def test_spark_export_fields_are_the_schema_fields_in_order():
    body = re.search(r"macro spark_export_fields\(\).*?return\(\[(.*?)\]\)", MACROS, re.S)
    assert body, "spark_export_fields() lists no fields"
    fields = re.findall(r"'([a-z_]+)'", body.group(1))
    assert fields == list(SCHEMA["properties"])


@pytest.mark.skipif(not EXPORTS, reason="CARD_KEEPER_SPARK_EXPORTS is unset: no Spark build")
@pytest.mark.parametrize("path", EXPORTS)
def test_spark_export_validates_against_the_schema(path):
    text = Path(path).read_text()
    exported = json.loads(text)
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for row in exported:
        validator.validate(row)
        assert list(row) == list(SCHEMA["properties"]), "fields out of the schema's order"
    turn_ids = [row["turn_id"] for row in exported]
    assert turn_ids == sorted(turn_ids), "not in turn_id order"
    assert len(set(turn_ids)) == len(turn_ids), "a turn exported twice"
