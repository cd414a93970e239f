{#
    The turn store (docs/rules.md#incremental-builds): the models that hold one row (or a few)
    per turn and that a build only adds to or rewrites for the turns it judges. They are
    incremental on both engines, each with the strategy its tables allow:

    - DuckDB: `append`, after a pre-hook deletes the rows of every turn the build judges again
      or removes (delete_judged_turns). A turn that leaves the store (its card was
      quarantined) has no new row that a `delete+insert` on the unique key would match.
    - Spark: Parquet tables (no Delta or Iceberg jars: no DELETE, no MERGE), so
      `insert_overwrite` of partitions, partitioned by judged_by (the build that wrote the
      rows). A build's new rows land in a partition of their own; a partition holding turns
      it judges again is rewritten with its other rows (kept_turn_store_rows), and one left
      with none of them is dropped (drop_stale_partitions).

    `spark` is the materialization on Spark, for a model whose rows cannot be rewritten by
    partition (the quarantine, the compared rows: tables, recomputed from the stored rows).
#}
{% macro turn_store_materialization(spark='incremental') -%}
    {{- return(spark if target.type == 'spark' else 'incremental') -}}
{%- endmacro %}

{# The incremental strategy: `duckdb` on DuckDB, insert_overwrite of partitions on Spark. #}
{% macro turn_store_strategy(duckdb='append') -%}
    {{- return('insert_overwrite' if target.type == 'spark' else duckdb) -}}
{%- endmacro %}

{# The partitioning of a turn-store table: by judged_by on Spark, none on DuckDB. #}
{% macro turn_store_partition_by() -%}
    {{- return(['judged_by'] if target.type == 'spark' else none) -}}
{%- endmacro %}

{#
    The pre-hook of a turn-store model: on an incremental run, delete the rows of the turns in
    int_turns_to_judge judged again or removed. A new turn has no stored row
    (int_turn_judging_state), so the hook deletes nothing for it. `turns_to_judge` is the
    relation the model itself refs, so the hook names no hidden dependency. Nothing on Spark
    (no DELETE there: kept_turn_store_rows and drop_stale_partitions do the same work).
    First, on both engines, it stops the model when int_turns_to_judge holds another build's
    batch (require_this_builds_batch).
#}
{% macro delete_judged_turns(turns_to_judge) -%}
    {%- do require_this_builds_batch(turns_to_judge) -%}
    {%- if is_incremental() and target.type != 'spark' -%}
        delete from {{ this }}
        where turn_id in ({{ turns_judged_again(turns_to_judge) }})
    {%- else -%}
        select 1
    {%- endif -%}
{%- endmacro %}

{#
    The turn_ids of `turns_to_judge` (the table int_turns_to_judge) that have stored rows to
    delete: every turn but a new one, i.e. the turns judged again and the removed ones.
#}
{% macro turns_judged_again(turns_to_judge) -%}
    select turn_id from {{ turns_to_judge }} where judge_reason <> 'new_turn'
{%- endmacro %}

{#
    Fail when `turns_to_judge` (the table int_turns_to_judge) holds rows another build wrote:
    this build selected a turn-store model without int_turns_to_judge, whose rows are then the
    last build's batch. Judging them again would stamp this build on a batch that
    int_turn_judging_state records as another's.
#}
{% macro require_this_builds_batch(turns_to_judge) -%}
    {%- if execute -%}
        {%- set other_builds = run_query(
            'select distinct judged_by from ' ~ turns_to_judge
            ~ ' where judged_by <> ' ~ this_build()
        ).columns[0].values() -%}
        {%- if other_builds | length > 0 -%}
            {%- do exceptions.raise_compiler_error(
                this.identifier ~ ': ' ~ turns_to_judge ~ ' holds the batch of build '
                ~ other_builds[0] ~ ", not this build's. Select the turn store with the"
                ~ ' models it reads, e.g. `dbt build --select +' ~ this.identifier ~ '`'
                ~ ' (docs/rules.md#incremental-builds).'
            ) -%}
        {%- endif -%}
    {%- endif -%}
{%- endmacro %}

{#
    Spark, incremental run: the model's query goes on with the stored rows of every partition
    it rewrites (a partition holding a turn of `turns`, the turns it judges again or removes),
    except those turns' rows, so that the partition overwrite keeps them. `turns` is a
    relation or a CTE of the model with a turn_id column. The model's columns end with
    judged_by, the partition column, as Spark stores them. Nothing on DuckDB.
#}
{% macro kept_turn_store_rows(turns) -%}
    {%- if is_incremental() and target.type == 'spark' %}
union all
select stored.*
from {{ this }} as stored
where
    stored.judged_by in (
        select rewritten.judged_by
        from {{ this }} as rewritten
        where rewritten.turn_id in (select judged_again.turn_id from {{ turns }} as judged_again)
    )
    and stored.turn_id not in (select judged_again.turn_id from {{ turns }} as judged_again)
    {%- endif -%}
{%- endmacro %}

{#
    Spark post-hook: drop the partitions of earlier builds that still hold a turn this build
    judged again or removed. The overwrite rewrote every partition that kept other rows
    (kept_turn_store_rows), so such a partition held nothing else. `turns` is the relation of
    those turns (none: this table's own rows of this build, for int_turn_judging_state).
#}
{% macro drop_stale_partitions(turns=none) -%}
    {%- if execute and target.type == 'spark' and is_incremental() -%}
        {%- set judged_again = 'select turn_id from ' ~ turns if turns is not none else
            'select turn_id from ' ~ this ~ ' where judged_by = ' ~ this_build() -%}
        {%- set stale = run_query(
            'select distinct judged_by from ' ~ this ~ ' where judged_by <> ' ~ this_build()
            ~ ' and turn_id in (' ~ judged_again ~ ')'
        ).columns[0].values() -%}
        {%- for build in stale -%}
            {%- do run_query(
                'alter table ' ~ this ~ ' drop if exists partition (judged_by = '
                ~ sql_text(build) ~ ')'
            ) -%}
        {%- endfor -%}
    {%- endif -%}
    select 1
{%- endmacro %}

{#
    This build, as a SQL text literal: its invocation_id. The turn store stamps it on the rows a
    build writes (_ingested_by, judged_by); unit tests override this macro with a fixed value.
#}
{% macro this_build() -%}
    {{- return(sql_text(invocation_id)) -}}
{%- endmacro %}
