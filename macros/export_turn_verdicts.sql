{#
    Post-hook of turn_verdicts_export: write exports/turn_verdicts.json (var export_path; a
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
    copy (select * from {{ this }} order by turn_id)
    to '{{ path | replace("'", "''") }}' (format json, array true)
{%- endmacro %}
