{#
    Wrap a reader query (passed as the call block) and add _source_row: the row's line number
    within its own file, header lines included. DuckDB scans a file in order, so row_number()
    over the unordered scan follows the file. With several files (a glob) numbering restarts
    for each file; with one file — the common case — the per-file window is skipped.
    The numbered rows are a MATERIALIZED CTE: a window over a scan runs on one thread, and
    without the materialisation every step downstream (JSON parsing, normalising) would too.
#}
{% macro numbered_rows(header_lines, file_count) -%}
    with numbered_scan as materialized (
        select
            *,
            row_number() over () as _global_row
        from ({{ caller() }})
    )

    select
        * exclude (_global_row),
        _global_row
        {%- if file_count > 1 %}
        - min(_global_row) over (partition by _source_file)
        + 1
        {%- endif %}
        + {{ header_lines }} as _source_row
    from numbered_scan
{%- endmacro %}
