"""Write exports/turn_verdicts.json (var export_path) on every build (SPEC §6).

A JSON array of one object per turn holding exactly the output schema's fields, in turn_id
order: DuckDB serialises and sorts the lines, python_udfs.export streams them to disk. The
model's own table is the export's receipt: where it was written, how many turns and how many
bytes. It runs after the tests of fct_turn_verdicts, so a build whose verdicts fail their
checks writes no export.

Its name starts with "export" so that dbt, which starts the nodes that become ready together
in name order, starts it before the marts that wait on the same tests: it is the longest of
them and the last to finish (0.5 s of a million-turn build ran the export alone at the end).
"""

import pyarrow as pa

from python_udfs import export, plugin


def model(dbt, session):
    dbt.config(materialized="table")
    verdicts = dbt.ref("fct_turn_verdicts")
    path = plugin.anchor(dbt.config.get("export_path"))
    turns, size = export.write_json_array(verdicts, export.schema_fields(), path)
    return pa.table(
        {
            "export_path": pa.array([path], pa.string()),
            "turn_count": pa.array([turns], pa.int64()),
            "byte_count": pa.array([size], pa.int64()),
        }
    )
