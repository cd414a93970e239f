{#
    The verdict export on Spark (models/marts/export_turn_verdicts.sql). The output schema's
    fields in its order (schemas/verdict.schema.json; tests/python/test_spark_export.py holds
    this list to the schema's).
#}
{% macro spark_export_fields() -%}
    {{- return([
        'turn_id', 'session_id', 'character_id', 'model_id', 'verdict', 'rule_expected',
        'rule_observed', 'off_canon_entities', 'touched_term', 'touched_topic', 'recall_target',
        'recall_source_turn', 'evidence', 'summary', 'hedge',
    ]) -}}
{%- endmacro %}

{#
    The folder Spark writes the export into: var export_path with `.parts` appended, a relative
    path anchored at the project root (the folder of dbt_project.yml, which dbt runs from or is
    given with --project-dir), `~` expanded.
#}
{% macro spark_export_dir() -%}
    {%- set path = var('export_path') | string | trim -%}
    {#- Refused when the model runs, not at parse: a DuckDB build parses the disabled model too. -#}
    {%- if path == '' and execute -%}
        {{ exceptions.raise_compiler_error(
            "export_path '': an empty export_path names no file"
        ) }}
    {%- endif -%}
    {%- if path.startswith('~/') -%}
        {%- set path = env_var('HOME') ~ path[1:] -%}
    {%- endif -%}
    {%- if not path.startswith('/') -%}
        {%- set root = invocation_args_dict.get('project_dir') or '.' -%}
        {%- set path = root ~ '/' ~ path -%}
    {%- endif -%}
    {{- return(path ~ '.parts') -}}
{%- endmacro %}

{#
    One row: turn_count and json_array, the whole export as one text — "[", a line per turn,
    "]" — exactly as python_udfs.export writes it on DuckDB: compact objects, nulls kept, the
    evidence values (JSON text) embedded as JSON, lines joined by ",\n", ordered by turn_id.
#}
{% macro spark_export_json_array(relation) -%}
    select
        count(*) as turn_count,
        concat(
            '[', char(10),
            coalesce(
                array_join(
                    transform(
                        array_sort(collect_list(named_struct('turn_id', turn_id, 'line', line))),
                        turn -> turn.line
                    ),
                    concat(',', char(10))
                ),
                ''
            ),
            char(10), ']'
        ) as json_array
    from (
        select
            turn_id,
            to_json(
                named_struct(
                    {%- for field in spark_export_fields() %}
                    '{{ field }}',
                    {% if field == 'evidence' -%}
                        transform(evidence, cited -> named_struct(
                            'source', cited.source,
                            'field', cited.field,
                            'agg', cited.agg,
                            'value', parse_json(cited.value)
                        ))
                    {%- else -%}
                        {{ field }}
                    {%- endif -%}
                    {{- ',' if not loop.last }}
                    {%- endfor %}
                ),
                map('ignoreNullFields', 'false')
            ) as line
        from {{ relation }}
    )
{%- endmacro %}

{# The post-hook that writes the export: the array as the one line of one text file. #}
{% macro spark_export_write(relation) -%}
    insert overwrite directory '{{ spark_export_dir() }}' using text
    select json_array from ({{ spark_export_json_array(relation) }})
{%- endmacro %}
