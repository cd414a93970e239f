{#
    Read JSON Lines line by line, so that one malformed line becomes one quarantined row
    (_parse_error = 'malformed_json_line') instead of failing the whole file. Blank lines are
    not rows. Scalars are read as text, lists and entity_roles as JSON text (a JSON string as
    its own value: json_value_text); _wrong_type_ids as in input_value_types.sql.
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

    -- One JSON parse per line: try() turns a line that is not JSON into null, and a line
    -- that is JSON but not an object ([…], "…", 1) is told apart by its first character.
    parsed as (
        select
            _source_file,
            _source_row,
            line,
            case
                when starts_with(ltrim(line), '{')
                    then try(json_transform(line, '{{ tojson(shape) }}'))
            end as record
        from numbered
        -- A blank line is not a row; most lines start with '{' and skip the trim.
        where
            case
                when line is null then false
                when starts_with(line, '{') then true
                else trim(line) <> ''
            end
    ),

    checked as (
        select
            *,
            case when record is null then 'malformed_json_line' end as _parse_error
        from parsed
    )

    select
        {% for column in spec.columns -%}
            {%- if shape[column.name] == 'JSON' -%}
                {{ json_value_text('record.' ~ column.name) }} as {{ column.name }},
            {%- else -%}
                cast(record.{{ column.name }} as varchar) as {{ column.name }},
            {%- endif %}
        {% endfor -%}
        {{ wrong_type_ids_of_json_lines(spec, 'record', 'line') }} as _wrong_type_ids,
        _source_file,
        _source_row,
        _parse_error,
        case when _parse_error is not null then line end as _raw_line
    from checked
{%- endmacro %}
