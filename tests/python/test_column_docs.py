"""Every column of every relation the build writes is described in the project's YAML.

The columns come from the database of the shared seed_000 build (information_schema), the
descriptions from that build's manifest: each model's, seed's and source's columns, so a column
added to a model's SQL without a line in its YAML fails here.
"""

from __future__ import annotations

import json

from conftest import DbtResult


def documented_columns(manifest: dict) -> dict[tuple[str, str], dict[str, str]]:
    """(schema, relation) -> {column: description} for every model, seed and source."""
    project = manifest["metadata"]["project_name"]
    nodes = [
        node
        for node in manifest["nodes"].values()
        if node["resource_type"] in ("model", "seed") and node["package_name"] == project
    ]
    nodes += [node for node in manifest["sources"].values() if node["package_name"] == project]
    out = {}
    for node in nodes:
        name = node.get("alias") or node.get("identifier") or node["name"]
        out[(node["schema"].lower(), name.lower())] = {
            column.lower(): (spec.get("description") or "").strip()
            for column, spec in node["columns"].items()
        }
    return out


def test_every_built_column_is_described(seed_000_build: DbtResult):
    assert seed_000_build.returncode == 0, seed_000_build.output[-3000:]
    manifest_path = seed_000_build.database.parent / "target" / "manifest.json"
    documented = documented_columns(json.loads(manifest_path.read_text(encoding="utf-8")))
    built = seed_000_build.rows(
        "select lower(table_schema) as schema, lower(table_name) as name,"
        " lower(column_name) as column_name from information_schema.columns"
        " where table_catalog = current_database()"
    )
    checked = [row for row in built if (row["schema"], row["name"]) in documented]
    undescribed = sorted(
        f"{row['schema']}.{row['name']}.{row['column_name']}"
        for row in checked
        if not documented[(row["schema"], row["name"])].get(row["column_name"])
    )
    # Every documented relation was found, so the check covered the whole project.
    found = {(row["schema"], row["name"]) for row in checked}
    assert found == set(documented), sorted(set(documented) - found)
    assert undescribed == [], f"{len(undescribed)} columns without a description: {undescribed}"
