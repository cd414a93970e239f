"""The dashboard reads only what its exposure lists (models/marts/_exposures.yml).

Every `schema.table` in a string of dashboard/*.py (its SQL, table constants and `has()` names)
is a relation the screen reads; the exposure's depends_on, resolved through the manifest of a
`dbt parse`, must be exactly that set, and hold only marts and seeds. A new read of staging or
intermediate, or a listed mart the screen no longer reads, fails here.
"""

from __future__ import annotations

import ast
import json
import re

import pytest
import yaml
from conftest import PROJECT_ROOT, run_dbt

DASHBOARD = PROJECT_ROOT / "dashboard"
EXPOSURES = PROJECT_ROOT / "models" / "marts" / "_exposures.yml"
EXPOSURE = "card_keeper_dashboard"
# Schemas no node owns: raw (the input views of on-run-start) and audit (the build's own test
# log and failing turn_ids, written by the on-run-end hook macros/store_test_results.sql).
HOOK_SCHEMAS = {"raw", "audit"}
# Read by the screen but no node: the exposure cannot ref them, its description must name them.
NOT_NODES = {"audit.dbt_test_results", "audit.dbt_test_failures"}
REF = re.compile(r"""^ref\(\s*['"]([A-Za-z0-9_]+)['"]\s*\)$""")


@pytest.fixture(scope="module")
def manifest(tmp_path_factory) -> dict:
    workdir = tmp_path_factory.mktemp("exposure_parse")
    run_dbt(["parse"], workdir)
    return json.loads((workdir / "target" / "manifest.json").read_text())


def relation(node: dict) -> str:
    return f"{node['schema']}.{node.get('alias') or node['name']}".lower()


def project_schemas(manifest: dict) -> set[str]:
    return {node["schema"].lower() for node in manifest["nodes"].values()} | HOOK_SCHEMAS


def string_constants(source: str) -> list[str]:
    """Every string literal of a module (f-strings' literal parts too), docstrings left out."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def relations_in(source: str, schemas: set[str]) -> set[str]:
    pattern = re.compile(
        r"\b(" + "|".join(sorted(map(re.escape, schemas))) + r")\.([a-z_][a-z0-9_]*)\b",
        re.IGNORECASE,
    )
    return {
        f"{schema}.{table}".lower()
        for text in string_constants(source)
        for schema, table in pattern.findall(text)
    }


def dashboard_reads(schemas: set[str]) -> set[str]:
    return {
        name
        for path in sorted(DASHBOARD.glob("*.py"))
        for name in relations_in(path.read_text(encoding="utf-8"), schemas)
    }


def exposure() -> dict:
    exposures = yaml.safe_load(EXPOSURES.read_text(encoding="utf-8"))["exposures"]
    (found,) = [e for e in exposures if e["name"] == EXPOSURE]
    return found


def exposure_relations(manifest: dict) -> dict[str, dict]:
    """The exposure's depends_on as {schema.table: manifest node}, each ref resolved by name."""
    by_name = {
        node["name"]: node
        for node in manifest["nodes"].values()
        if node["resource_type"] in ("model", "seed", "snapshot")
    }
    resolved = {}
    for entry in exposure()["depends_on"]:
        match = REF.match(entry.strip())
        assert match, f"{entry!r}: the exposure lists nodes with ref('name') only"
        assert match[1] in by_name, f"{entry!r} names no model or seed"
        node = by_name[match[1]]
        resolved[relation(node)] = node
    return resolved


def test_scanner_finds_a_staging_read(manifest):
    """The scan itself can fail: a staging read in SQL is found, a docstring or comment is not."""
    source = '''
"""Reads marts.fct_not_really in a docstring."""
# staging.in_a_comment
TEXTS = " left join (select turn_id from staging.stg_chat_logs__turns) using (turn_id)"
def f(table):
    return f"select * from {table} join intermediate.int_turns_judged using (turn_id)"
'''
    assert relations_in(source, project_schemas(manifest)) == {
        "staging.stg_chat_logs__turns",
        "intermediate.int_turns_judged",
    }


def test_dashboard_reads_exactly_the_exposure(manifest):
    reads = dashboard_reads(project_schemas(manifest))
    listed = exposure_relations(manifest)
    assert reads - NOT_NODES == set(listed), (
        f"read but not in the exposure: {sorted(reads - NOT_NODES - set(listed))}; "
        f"in the exposure but not read: {sorted(set(listed) - reads)}"
    )


def test_exposure_lists_only_marts_and_seeds(manifest):
    for name, node in exposure_relations(manifest).items():
        is_mart = node["resource_type"] == "model" and node["schema"] == "marts"
        assert is_mart or node["resource_type"] == "seed", f"{name} is neither a mart nor a seed"


def test_the_manifest_agrees_with_the_yaml(manifest):
    """dbt resolved the same refs: the parsed exposure depends on the same nodes."""
    parsed = manifest["exposures"][f"exposure.card_keeper.{EXPOSURE}"]["depends_on"]["nodes"]
    assert {relation(manifest["nodes"][uid]) for uid in parsed} == set(exposure_relations(manifest))


def test_reads_that_are_no_node_are_named_in_the_description(manifest):
    nodes = {relation(node) for node in manifest["nodes"].values()}
    description = " ".join(exposure()["description"].split())
    for name in NOT_NODES:
        assert name not in nodes, f"{name} is a node now: list it with ref() instead"
        assert name in description, f"the exposure's description must name {name}"
