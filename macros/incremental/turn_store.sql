{#
    The turn store (docs/rules.md#incremental-builds): the models that hold one row (or a few)
    per turn and that a build only adds to or rewrites for the turns it judges. On DuckDB they
    are incremental; the strategy is `append` after a pre-hook deletes the rows of every turn
    the build judges again or removes (delete_judged_turns), because a turn that leaves the
    store (its card was quarantined) has no new row that a `delete+insert` on the unique key
    would match. On Spark, without Delta or Iceberg tables (no DELETE, no MERGE), they are
    tables rebuilt in full by every build.
#}
{% macro turn_store_materialization() -%}
    {{- return('table' if target.type == 'spark' else 'incremental') -}}
{%- endmacro %}

{#
    The pre-hook of a turn-store model: on an incremental run, delete the rows of the turns in
    int_turns_to_judge (judged again, or removed). `turns_to_judge` is the relation the model
    itself refs, so the hook names no hidden dependency.
#}
{% macro delete_judged_turns(turns_to_judge) -%}
    {%- if is_incremental() -%}
        delete from {{ this }}
        where turn_id in (select turn_id from {{ turns_to_judge }})
    {%- else -%}
        select 1
    {%- endif -%}
{%- endmacro %}

{#
    This build, as a SQL text literal: its invocation_id. The turn store stamps it on the rows a
    build writes (_ingested_by, judged_by); unit tests override this macro with a fixed value.
#}
{% macro this_build() -%}
    {{- return(sql_text(invocation_id)) -}}
{%- endmacro %}
