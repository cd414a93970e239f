"""The project's shape, read from the manifest of a `dbt parse`: every table declares its grain,
the layers depend on each other in one direction only (staging, intermediate, marts), and every
ref() is written in the model or test that reads it, not hidden in a macro."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_dbt

GRAIN_TESTS = {"unique", "unique_combination"}
STAGING = "models/staging/"
INTERMEDIATE = "models/intermediate/"
MARTS = "models/marts/"
# Staging models that read another staging model besides their own base_ model, each with why.
# The input contract (docs/rules.md#input-contract) says a turn's character_id must name a clean
# card, so the clean turns are joined with the clean cards (the quarantine: has_clean_card); a
# reviewer's mark must name a clean turn (docs/rules.md#reviewer-decisions), so the clean marks
# are filtered on the clean turns.
STAGING_EXCEPTIONS = {
    ("stg_chat_logs__turns", "stg_chat_logs__character_cards"),
    ("stg_chat_logs__turn_marks", "stg_chat_logs__turns"),
}


@pytest.fixture(scope="module")
def manifest(tmp_path_factory) -> dict:
    workdir = tmp_path_factory.mktemp("project_graph")
    run_dbt(["parse"], workdir)
    return json.loads((workdir / "target" / "manifest.json").read_text(encoding="utf-8"))


def models(manifest: dict) -> dict[str, dict]:
    return {
        node_id: node
        for node_id, node in manifest["nodes"].items()
        if node["resource_type"] == "model"
        and node["package_name"] == manifest["metadata"]["project_name"]
    }


def parents(node: dict) -> list[str]:
    return [node_id for node_id in node["depends_on"]["nodes"] if node_id.startswith("model.")]


def in_layer(node: dict, layer: str) -> bool:
    return Path(node["original_file_path"]).as_posix().startswith(layer)


def test_every_table_declares_its_grain(manifest):
    project_models = models(manifest)
    tables = {
        node_id
        for node_id, node in project_models.items()
        if node["config"]["materialized"] in ("table", "incremental")
    }
    grain_tested = {
        test["attached_node"]
        for test in manifest["nodes"].values()
        if test["resource_type"] == "test"
        and (test.get("test_metadata") or {}).get("name") in GRAIN_TESTS
    }
    exempt = {
        node_id
        for node_id in tables
        if (project_models[node_id]["config"].get("meta") or {}).get("grain_exempt")
        or (project_models[node_id].get("meta") or {}).get("grain_exempt")
    }
    assert len(tables) >= 20  # the scan sees the project's tables
    assert sorted(tables - grain_tested - exempt) == []
    # An exemption is for a table that has no key, not one beside a grain test.
    assert sorted(exempt & grain_tested) == []


def test_staging_reads_only_its_own_base_model(manifest):
    project_models = models(manifest)
    crossings = set()
    for node in project_models.values():
        if not in_layer(node, STAGING):
            continue
        for parent_id in parents(node):
            parent = project_models[parent_id]
            if not in_layer(parent, STAGING):
                continue
            is_own_base = node["name"].startswith("stg_") and (
                parent["name"] == "base_" + node["name"].removeprefix("stg_")
            )
            if not is_own_base:
                crossings.add((node["name"], parent["name"]))
    assert crossings == STAGING_EXCEPTIONS


def test_intermediate_never_reads_a_mart(manifest):
    project_models = models(manifest)
    intermediate = [node for node in project_models.values() if in_layer(node, INTERMEDIATE)]
    assert intermediate
    reads_marts = sorted(
        (node["name"], project_models[parent_id]["name"])
        for node in intermediate
        for parent_id in parents(node)
        if in_layer(project_models[parent_id], MARTS)
    )
    assert reads_marts == []


def test_macros_take_the_relations_they_read(manifest):
    """A macro that reads a model is passed its relation by a caller that refs it in its own
    file, so dbt docs show each model's and test's parents in its SQL."""
    calling_ref = set()
    for macro in manifest["macros"].values():
        if macro["package_name"] != manifest["metadata"]["project_name"]:
            continue
        code = re.sub(r"\{#.*?#\}", "", macro["macro_sql"], flags=re.DOTALL)
        if re.search(r"\bref\s*\(", code):
            calling_ref.add(macro["name"])
    assert calling_ref == set(), f"macros calling ref(): {sorted(calling_ref)}"


def test_every_macro_and_singular_test_has_a_description(manifest):
    """dbt docs describe every macro of the project (macros/_macros.yml) and every singular
    test (tests/_tests.yml)."""
    project = manifest["metadata"]["project_name"]
    macros = [
        macro["name"]
        for macro in manifest["macros"].values()
        if macro["package_name"] == project and not macro["description"].strip()
    ]
    singular_tests = [
        node["name"]
        for node in manifest["nodes"].values()
        if node["resource_type"] == "test"
        and node["package_name"] == project
        and not node.get("test_metadata")
        and not node["description"].strip()
    ]
    assert macros == [], f"macros without a description in macros/_macros.yml: {macros}"
    assert singular_tests == [], f"singular tests without a description: {singular_tests}"
