{#
    Wrap a reader query (passed as the call block) and add _source_row: the row's line number
    within its own file, header lines included. DuckDB scans a file in order, so row_number()
    over the unordered scan follows the file; numbering restarts for each file of a glob.
#}
{% macro numbered_rows(header_lines) -%}
    select
        * exclude (_global_row),
        _global_row
        - min(_global_row) over (partition by _source_file)
        + 1
        + {{ header_lines }} as _source_row
    from (
        select
            *,
            row_number() over () as _global_row
        from ({{ caller() }})
    )
{%- endmacro %}
