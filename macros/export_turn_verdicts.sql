{#
    Post-hook of fct_turn_verdicts: write exports/turn_verdicts.json (var export_path; a
    relative path is relative to the project root), a JSON array of one object per turn with
    exactly the output schema's fields (SPEC §6), ordered by turn_id.
#}
{% macro export_turn_verdicts() -%}
    {%- if not execute -%}
        {{ return('') }}
    {%- endif -%}
    {%- set root = run_query("select getvariable('ck_project_root')").columns[0].values()[0] -%}
    {%- set given = var('export_path') | string -%}
    {%- set path = given if given.startswith('/') else root ~ '/' ~ given -%}
    {%- do run_query("select ck_ensure_parent_dir('" ~ (path | replace("'", "''")) ~ "')") -%}
    copy (
        select
            turn_id,
            session_id,
            character_id,
            model_id,
            verdict,
            rule_expected,
            rule_observed,
            off_canon_entities,
            touched_term,
            touched_topic,
            recall_target,
            recall_source_turn,
            evidence,
            summary,
            hedge
        from {{ this }}
        order by turn_id
    ) to '{{ path | replace("'", "''") }}' (format json, array true)
{%- endmacro %}
