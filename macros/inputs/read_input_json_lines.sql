{#
    Read JSON Lines line by line, so that one malformed line becomes one quarantined row
    (_parse_error = 'malformed_json_line') instead of failing the whole file. Blank lines are
    not rows. Scalars are read as text, lists and entity_roles as JSON text.
#}
{% macro read_input_json_lines(quoted_path, spec, file_count) -%}
    {%- set shape = {} -%}
    {%- for column in spec.columns -%}
        {%- do shape.update({
            column.name: 'JSON' if column.kind in ('list', 'roles', 'json') else 'VARCHAR'
        }) -%}
    {%- endfor -%}
    with numbered as (
        {%- call numbered_rows(0, file_count) %}
        select
            filename as _source_file,
            line
        from read_csv(
            {{ quoted_path }},
            columns = {'line': 'VARCHAR'},
            delim = chr(1),
            quote = '',
            escape = '',
            header = false,
            auto_detect = false,
            filename = true
        )
        {%- endcall %}
    ),

    objects as (
        select
            _source_file,
            _source_row,
            line,
            -- CASE, not AND: json_type() fails on a line that is not JSON.
            case
                when coalesce(json_valid(line), false) then json_type(line) = 'OBJECT'
                else false
            end as is_object
        from numbered
        where trim(coalesce(line, '')) <> ''
    ),

    parsed as (
        select
            _source_file,
            _source_row,
            line,
            case
                when is_object then json_transform(line, '{{ tojson(shape) }}')
            end as record,
            case when not is_object then 'malformed_json_line' end as _parse_error
        from objects
    )

    select
        {% for column in spec.columns -%}
            cast(record.{{ column.name }} as varchar) as {{ column.name }},
        {% endfor -%}
        _source_file,
        _source_row,
        _parse_error,
        case when _parse_error is not null then line end as _raw_line
    from parsed
{%- endmacro %}
