"""The export validates against the project's copy of the output schema."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import jsonschema
import pytest
from conftest import PROJECT_ROOT

SCHEMA = json.loads((PROJECT_ROOT / "schemas" / "verdict.schema.json").read_text())


@pytest.fixture(scope="module")
def exported(seed_000_build):
    return json.loads(Path(seed_000_build.export).read_text())


def test_every_exported_turn_validates(exported):
    assert exported, "the export is empty"
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for row in exported:
        validator.validate(row)


def test_export_holds_only_schema_fields(exported):
    allowed = set(SCHEMA["properties"])
    for row in exported:
        assert set(row) <= allowed


def test_an_invented_verdict_fails_validation(exported):
    broken = dict(exported[0], verdict="대체로 괜찮음")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)


def test_verdict_words_seed_equals_schema_enum():
    with open(PROJECT_ROOT / "seeds" / "verdict_words.csv", encoding="utf-8") as handle:
        seeded = {row["verdict"] for row in csv.DictReader(handle)}
    assert seeded == set(SCHEMA["properties"]["verdict"]["enum"])
