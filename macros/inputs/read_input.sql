{#
    SQL that reads one input table from the file(s) its var names, whatever the format
    (.csv, .jsonl / .ndjson, .json, .parquet by extension), as text columns in contract order
    plus _source_file, _source_row (line number for text formats, counting a CSV header; row
    number for Parquet), _wrong_type_ids (the ids whose value is neither a string nor an
    integer, see input_value_types.sql) and _parse_error (a JSON Lines line that is not a JSON
    object).
    Fails the build, naming the var and the file, when nothing can be read.
#}
{% macro read_input(table_name, spec, root) -%}
    {%- set given = input_path(spec) -%}
    {%- set path = given if given.startswith('/') else root ~ '/' ~ given -%}
    {%- set quoted = "'" ~ (path | replace("'", "''")) ~ "'" -%}
    {%- set n_files = run_query('select count(*) from glob(' ~ quoted ~ ')').columns[0].values()[0] -%}
    {%- if n_files == 0 -%}
        {{ exceptions.raise_compiler_error(
            spec.var ~ ": no input file matches '" ~ given ~ "' (looked for " ~ path ~ ")"
        ) }}
    {%- endif -%}
    {%- set extension = path.lower().split('.')[-1] -%}
    {%- set columns = spec.columns | map(attribute='name') | list -%}
    {%- if extension in ('jsonl', 'ndjson') -%}
        {{ read_input_json_lines(quoted, spec, n_files) }}
    {%- elif extension in ('csv', 'json', 'parquet') -%}
        {%- if extension == 'csv' -%}
            {%- set reader = 'read_csv(' ~ quoted ~ ', all_varchar = true, header = true, allow_quoted_nulls = false, filename = true)' -%}
            {%- set header_lines = 1 -%}
        {%- elif extension == 'json' -%}
            {%- set reader = 'read_json(' ~ quoted ~ ', filename = true)' -%}
            {%- set header_lines = 0 -%}
        {%- else -%}
            {%- set reader = 'read_parquet(' ~ quoted ~ ', filename = true)' -%}
            {%- set header_lines = 0 -%}
        {%- endif -%}
        {%- set described = run_query('describe select * from ' ~ reader) -%}
        {%- set found = {} -%}
        {%- for row in described.rows if row[0] != 'filename' -%}
            {%- do found.update({row[0]: row[1]}) -%}
        {%- endfor -%}
        {%- for column in spec.columns if column.required and column.name not in found -%}
            {{ exceptions.raise_compiler_error(
                spec.var ~ ": file '" ~ given ~ "' has no column '" ~ column.name
                ~ "' (it has: " ~ (found.keys() | list | join(', ')) ~ ")"
            ) }}
        {%- endfor -%}
        {%- if extension == 'json' -%}
            {#- Every column as JSON, read like JSON Lines (json_value_text): read_json's own
                types would make a string that looks like a date or a UUID one, and store a
                column of mixed types as JSON text. -#}
            {%- set json_columns = [] -%}
            {%- for column in columns if column in found -%}
                {%- do json_columns.append("'" ~ column ~ "': 'JSON'") -%}
                {%- do found.update({column: 'JSON'}) -%}
            {%- endfor -%}
            {%- set reader = 'read_json(' ~ quoted ~ ', filename = true, columns = {'
                ~ json_columns | join(', ') ~ '})' -%}
        {%- endif -%}
        {%- call numbered_rows(header_lines, n_files) %}
        select
            {% for column in columns -%}
                {%- if column not in found -%}
                    cast(null as varchar) as {{ column }},
                {%- elif found[column] == 'VARCHAR' -%}
                    {{ column }},
                {%- elif found[column] == 'JSON' -%}
                    {{ json_value_text(column) }} as {{ column }},
                {%- elif found[column].endswith(']') or found[column].startswith('STRUCT') -%}
                    cast(to_json({{ column }}) as varchar) as {{ column }},
                {%- else -%}
                    cast({{ column }} as varchar) as {{ column }},
                {%- endif %}
            {% endfor -%}
            filename as _source_file,
            {{ wrong_type_ids(spec, found) }} as _wrong_type_ids,
            cast(null as varchar) as _parse_error,
            cast(null as varchar) as _raw_line
        from {{ reader }}
        {%- endcall %}
    {%- else -%}
        {{ exceptions.raise_compiler_error(
            spec.var ~ ": cannot tell the format of '" ~ given
            ~ "': name it .csv, .jsonl, .ndjson, .json or .parquet"
        ) }}
    {%- endif -%}
{%- endmacro %}
