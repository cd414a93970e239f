{#
    Read JSON Lines line by line, so that one bad line becomes one quarantined row instead of
    failing the whole file: `files` through the fast line reader (json_lines_reader, numbered
    by line), and the careful reader's lines from `careful_table` (python_udfs/input_files.py:
    bytes split on LF only, a CRLF's CR dropped, a line that is not UTF-8 or over 2 MiB
    already marked 'invalid_utf8' / 'line_too_long'). A line that is not a JSON object
    (a raw control character or CR inside a string included) is 'malformed_json_line'. Blank
    lines are not rows. Scalars are read as text, lists and entity_roles as JSON text (a JSON
    string as its own value: json_value_text); _wrong_type_ids as in input_value_types.sql.
#}
{% macro read_input_json_lines(spec, files, careful_table) -%}
    {%- set shape = {} -%}
    {%- for column in spec.columns -%}
        {%- do shape.update({
            column.name: 'JSON' if column.kind in ('list', 'roles', 'json') else 'VARCHAR'
        }) -%}
    {%- endfor -%}
    with numbered as (
        {%- if files %}
        select
            _source_file,
            _source_row,
            line,
            cast(null as varchar) as _line_error,
            cast(null as varchar) as _line_raw
        from (
            {%- call numbered_rows(0, files | length) %}
            select
                filename as _source_file,
                line
            from {{ json_lines_reader(files) }}
            {%- endcall %}
        )
        {%- endif %}
        {%- if files and careful_table %}

        union all
        {% endif %}
        {%- if careful_table %}
        select
            _source_file,
            _source_row,
            line,
            _parse_error as _line_error,
            _raw_line as _line_raw
        from {{ careful_table }}
        {%- endif %}
    ),

    -- One JSON parse per line: try() turns a line that is not JSON into null, and a line
    -- that is JSON but not an object ([…], "…", 1) is told apart by its first character.
    parsed as (
        select
            _source_file,
            _source_row,
            line,
            _line_error,
            _line_raw,
            case
                when _line_error is null and starts_with(ltrim(line), '{')
                    then try(json_transform(line, '{{ tojson(shape) }}'))
            end as record
        from numbered
        -- A blank line is not a row; most lines start with '{' and skip the trim.
        where
            case
                when _line_error is not null then true
                when line is null then false
                when starts_with(line, '{') then true
                else trim(line) <> ''
            end
    ),

    checked as (
        select
            *,
            coalesce(
                _line_error,
                case when record is null then 'malformed_json_line' end
            ) as _parse_error
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
        case when _parse_error is not null then coalesce(_line_raw, line) end as _raw_line
    from checked
{%- endmacro %}
