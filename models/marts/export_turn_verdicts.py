"""Write exports/turn_verdicts.json (var export_path) on every build (docs/rules.md#output).

A JSON array of one object per turn holding exactly the output schema's fields, in turn_id
order: DuckDB serialises and sorts the lines, python_udfs.export streams them to disk. The
model's own table is the export's receipt: where it was written, what it holds, how many turns
and how many bytes.

What it holds (var export_scope, docs/rules.md#incremental-builds): `all`, every verdict (the
default); or `changed`, the verdicts this build wrote, for a nightly pipeline that hands on
each day's new and re-judged verdicts instead of rewriting every verdict ever made (a full
build writes every verdict either way). It runs after the tests of fct_turn_verdicts, so a
build whose verdicts fail their checks writes no export.

Where the export goes:
- an explicit var export_path, relative to the project root or absolute (`~` expanded);
- the var unset (null), or left at its shipped default exports/turn_verdicts.json: that default
  for the default database (card_keeper.duckdb at the project root), and beside any other
  database (CARD_KEEPER_DB) as `<database folder>/<database stem>.turn_verdicts.json`, so a
  build into another database never replaces the demo's export;
- an empty export_path is refused.
The model fails, naming export_path and the reason, before writing anything when the target is
the database in use, an input file of the build (the input_* vars, globs resolved), a
directory, a device or fifo, or an existing file that is not a previous export
(python_udfs.export.check_target).
"""

import pyarrow as pa

from python_udfs import export


def model(dbt, session):
    dbt.config(materialized="table")
    verdicts = dbt.ref("fct_turn_verdicts")
    # The verdicts this build wrote, picked by judged_by: the batch's build (a removed turn has
    # no verdict), so the export does not read every stored verdict to find them.
    batch_builds = dbt.ref("int_turns_to_judge").select("judged_by").distinct()
    scope = dbt.config.get("export_scope")
    if scope not in ("all", "changed"):
        raise ValueError(f"var export_scope must be 'all' or 'changed', got {scope!r}")
    if scope == "changed":
        verdicts = verdicts.join(batch_builds, "judged_by", how="semi")
    ((database,),) = session.execute(
        "select path from duckdb_databases() where database_name = current_database()"
    ).fetchall()
    inputs = {
        "input_chat_turn": dbt.config.get("input_chat_turn"),
        "input_character_card": dbt.config.get("input_character_card"),
        "input_topic_lexicon": dbt.config.get("input_topic_lexicon"),
        "input_golden_labels": dbt.config.get("input_golden_labels"),
        "input_llm_summaries": dbt.config.get("input_llm_summaries"),
        # An optional input left unset falls back to its bundled demo file: protect them all.
        "the bundled demo data": "data/demo/*",
    }
    target = export.resolve_target(dbt.config.get("export_path"), database)
    export.check_target(target, database, inputs)
    turns, size = export.write_json_array(verdicts, export.schema_fields(), target)
    return pa.table(
        {
            "export_path": pa.array([str(target)], pa.string()),
            "export_scope": pa.array([scope], pa.string()),
            "turn_count": pa.array([turns], pa.int64()),
            "byte_count": pa.array([size], pa.int64()),
        }
    )
