{#
    The reader of one input table: the files its var names (a path or glob, format by
    extension: .csv, .jsonl / .ndjson, .json, .parquet), as text columns in contract order plus
    _source_file, _source_row, _wrong_type_ids (the ids whose value is neither a string nor an
    integer, see input_value_types.sql), _parse_error and _raw_line. Returns {statements,
    select}: the statements to run before the view is created, and the view's query.

    A text file (CSV, JSON Lines) is read by DuckDB's read_csv with explicit options, fast, and
    numbered by its order in the file. That is exact only if every line reads, one row per
    physical line, so each file is first read once on a private connection (ck_try_query,
    python_udfs/input_files.py); a file that does not read exactly that way (bare CR, mixed
    line ends, a control character, invalid UTF-8, a line over 2 MiB, a ragged or badly
    quoted CSV row, a CSV value holding a newline) is read by the careful reader instead,
    which quarantines each bad line with its number and keeps every other row. Its rows are
    copied into raw.<table>__careful_rows. _source_row is always a physical line number (a CSV
    row's first line; the header is line 1), for Parquet and .json the row number.

    An input whose files hold no rows fails the build if it is required (an empty chat_turn
    or card file is a mistake, not a result), and only warns if it is optional; an empty file
    among others of a glob warns. A file that cannot be read at all fails the build naming the
    var, the file and the problem, before any model runs.
#}
{% macro read_input(table_name, spec, path, only_files=none) -%}
    {{- return(adapter.dispatch('read_input', 'card_keeper')(table_name, spec, path, only_files)) -}}
{%- endmacro %}

{% macro default__read_input(table_name, spec, path, only_files=none) -%}
    {%- set listed = run_query(
        'select filename, size from read_blob(' ~ sql_text(path) ~ ') order by filename'
    ) -%}
    {#- only_files: the files of the glob an incremental build reads (ingest_ledger.sql). -#}
    {%- set files = {'rows': []} -%}
    {%- for file, size in listed.rows if only_files is none or file in only_files -%}
        {%- do files.rows.append((file, size)) -%}
    {%- endfor -%}
    {%- if files.rows | length == 0 -%}
        {{ input_error(spec, path, 'no input file matches it', none) }}
    {%- endif -%}
    {%- set extension = path.lower().split('.')[-1] -%}
    {%- if extension not in ('csv', 'jsonl', 'ndjson', 'json', 'parquet') -%}
        {{ input_error(
            spec, path, 'cannot tell its format',
            'Name it .csv, .jsonl, .ndjson, .json or .parquet'
        ) }}
    {%- endif -%}
    {%- set file_format = 'jsonl' if extension in ('jsonl', 'ndjson') else extension -%}
    {%- set plan = {'fast': {}, 'careful': [], 'empty': [], 'read': []} -%}
    {%- for file, size in files.rows -%}
        {%- if size == 0 -%}
            {%- do plan.empty.append(file) -%}
        {%- elif file_format == 'jsonl' -%}
            {%- do plan_json_lines_file(spec, file, plan) -%}
        {%- elif file_format == 'csv' -%}
            {%- do plan_csv_file(spec, file, plan) -%}
        {%- else -%}
            {%- set trial = try_read(
                'select count(*) from read_' ~ file_format ~ '(' ~ sql_text(file) ~ ')'
            ) -%}
            {%- if not trial.ok -%}
                {{ input_error(
                    spec, file, 'it cannot be read as ' ~ file_format ~ ' (' ~ trial.error ~ ')',
                    'Check that it is a whole ' ~ file_format ~ ' file'
                ) }}
            {%- endif -%}
            {%- do (plan.read if trial.first > 0 else plan.empty).append(file) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set careful = plan.careful | selectattr('content_rows', 'gt', 0) | list -%}
    {%- set has_rows = plan.fast or careful or plan.read -%}
    {%- for file in plan.empty + (plan.careful | rejectattr('content_rows', 'gt', 0)
        | map(attribute='file') | list) -%}
        {%- if not has_rows and not spec.get('optional') -%}
            {{ input_error(
                spec, file, 'it holds no rows (it is empty, or only a header or blank lines)',
                'Point ' ~ spec.var ~ ' at the file with the ' ~ table_name ~ ' rows'
            ) }}
        {%- endif -%}
        {%- do exceptions.warn(
            spec.var ~ ": " ~ file ~ " holds no rows (it is empty, or only a header or blank "
            ~ "lines); " ~ ("the input's other files are read" if has_rows
            else table_name ~ " is built empty")
        ) -%}
    {%- endfor -%}
    {%- set careful_table = 'raw.' ~ table_name ~ '__careful_rows' -%}
    {%- set statements = [] -%}
    {%- if careful -%}
        {%- set parquet_files = sql_list(careful | map(attribute='parquet') | list) -%}
        {#- The careful reader's files, copied into the database, are then removed. -#}
        {%- do statements.extend([
            'create or replace table ' ~ careful_table ~ ' as select * from read_parquet('
                ~ parquet_files ~ ')',
            'select ck_discard_careful_files(' ~ parquet_files ~ ')',
        ]) -%}
    {%- else -%}
        {%- do statements.append('drop table if exists ' ~ careful_table) -%}
    {%- endif -%}
    {%- if not has_rows -%}
        {%- set select = empty_input(spec) -%}
    {%- elif file_format == 'jsonl' -%}
        {%- set select = read_input_json_lines(
            spec, plan.fast.get('lines', []), careful_table if careful else none
        ) -%}
    {%- elif file_format == 'csv' -%}
        {%- set select = read_input_csv(spec, plan.fast, careful_table if careful else none) -%}
    {%- else -%}
        {%- set select = read_input_typed(spec, file_format, plan.read) -%}
    {%- endif -%}
    {{ return({'statements': statements, 'select': select}) }}
{%- endmacro %}

{#
    Stop the build for a file that cannot be read at all, naming the var, the file and the
    problem, with a hint. The inputs are read in on-run-start, before any model: `dbt retry`
    has nothing to resume after that, so the message says to run `dbt build` again.
#}
{% macro input_error(spec, file, problem, hint) -%}
    {{ exceptions.raise_compiler_error(
        spec.var ~ ": " ~ file ~ ": " ~ problem ~ ". " ~ ((hint ~ '. ') if hint else '')
        ~ "Fix the file (or the var), then run `dbt build` again (`dbt retry` cannot: no model"
        ~ " ran, so it has nothing to resume)."
    ) }}
{%- endmacro %}

{#
    The fields of the struct one call of a card_keeper UDF returns, as a row. The call is
    made once: `select unnest(f(…))` would call f once per field.
#}
{% macro udf_row(call) -%}
    {{ return(run_query(
        'with called as materialized (select ' ~ call ~ ' as r) select unnest(r) from called'
    ).rows[0]) }}
{%- endmacro %}

{# A trial read on a private connection (ck_try_query): {ok, first, second, error}. #}
{% macro try_read(sql) -%}
    {%- set row = udf_row('ck_try_query(' ~ sql_text(sql) ~ ')') -%}
    {{ return({'ok': row[0], 'first': row[1], 'second': row[2], 'error': row[3]}) }}
{%- endmacro %}

{# The careful reader's Parquet of one file (ck_read_carefully), or the build stops. #}
{% macro read_carefully(spec, file, file_format) -%}
    {%- set row = udf_row(
        'ck_read_carefully(' ~ sql_text(file) ~ ', ' ~ sql_text(file_format) ~ ', '
        ~ sql_list(spec.columns | map(attribute='name') | list) ~ '::varchar[])'
    ) -%}
    {%- if row[3] -%}
        {{ input_error(spec, file, row[3], none) }}
    {%- endif -%}
    {{ return({'file': file, 'parquet': row[0], 'content_rows': row[2]}) }}
{%- endmacro %}

{#
    JSON Lines: the fast reader if it reads every line (then one row per line, blank lines
    included, so row order is the line number), else the careful reader. A file of empty
    lines holds no rows.
#}
{% macro plan_json_lines_file(spec, file, plan) -%}
    {#- count(line) reads every line's text, so DuckDB validates it (count(*) alone would
        not), and counts the lines that are not empty: cheaper than a trim() per line. -#}
    {%- set trial = try_read('select count(*), count(line) from ' ~ json_lines_reader([file])) -%}
    {%- if trial.ok and trial.second == 0 -%}
        {%- do plan.empty.append(file) -%}
    {%- elif trial.ok -%}
        {%- do plan.fast.setdefault('lines', []).append(file) -%}
    {%- else -%}
        {%- do plan.careful.append(read_carefully(spec, file, 'jsonl')) -%}
    {%- endif -%}
{%- endmacro %}

{# read_csv as a line reader: one text column, no delimiter, quote or escape of its own. #}
{% macro json_lines_reader(files) -%}
    read_csv(
        {{ sql_list(files) }},
        columns = {'line': 'VARCHAR'},
        delim = chr(1),
        quote = '',
        escape = '',
        header = false,
        auto_detect = false,
        filename = true
    )
{%- endmacro %}

{#
    CSV: read with the header the file itself declares (never a sniffed one) and explicit
    options. The fast reader is used if it reads every record, one record per physical line
    (no value holds a newline, no blank line is skipped), so that row order + 1 is the line
    number; otherwise the careful reader. Files are grouped by header.
#}
{% macro plan_csv_file(spec, file, plan) -%}
    {%- set shape = udf_row('ck_csv_header(' ~ sql_text(file) ~ ')') -%}
    {%- if shape[2] -%}
        {{ input_error(spec, file, shape[2], none) }}
    {%- endif -%}
    {%- set header = fromjson(shape[0]) -%}
    {%- for column in spec.columns if column.required and column.name not in header -%}
        {{ input_error(
            spec, file, "it has no column '" ~ column.name ~ "' (its header, line 1, names: "
            ~ header | join(', ') ~ ")",
            'Name the columns in line 1 as the input contract does (README, docs/rules.md)'
        ) }}
    {%- endfor -%}
    {%- set columns = csv_columns(header) -%}
    {%- set hash_arguments = [] -%}
    {%- for name in columns -%}
        {%- do hash_arguments.append(csv_column_name(name)) -%}
    {%- endfor -%}
    {%- set trial = try_read(
        'select count(*), count(*) filter (where hash(' ~ hash_arguments | join(', ')
        ~ ') % 2 = 0) from '
        ~ csv_reader([file], columns)
    ) -%}
    {%- if trial.ok and trial.first == shape[1] - 1 -%}
        {%- if trial.first == 0 -%}
            {%- do plan.empty.append(file) -%}
        {%- else -%}
            {%- do plan.fast.setdefault(tojson(header), []).append(file) -%}
        {%- endif -%}
    {%- else -%}
        {%- do plan.careful.append(read_carefully(spec, file, 'csv')) -%}
    {%- endif -%}
{%- endmacro %}

{#
    The columns of a CSV header as read_csv's `columns` (all text), in file order; a column
    without a name is named by its position.
#}
{% macro csv_columns(header) -%}
    {%- set columns = {} -%}
    {%- for name in header -%}
        {%- do columns.update({(name or '_column_' ~ loop.index): 'VARCHAR'}) -%}
    {%- endfor -%}
    {{ return(columns) }}
{%- endmacro %}

{# A CSV column name as an identifier (double quotes doubled). #}
{% macro csv_column_name(name) -%}
    {{- '"' ~ (name | replace('"', '""')) ~ '"' -}}
{%- endmacro %}

{#
    read_csv with the file's own header and no sniffing: delimiter ',', quote and escape '"',
    an unquoted empty cell null and a quoted one '' (staging makes both null:
    docs/rules.md#null-rules).
#}
{% macro csv_reader(files, columns) -%}
    read_csv(
        {{ sql_list(files) }},
        columns = {{ csv_columns_literal(columns) }},
        header = true,
        delim = ',',
        quote = '"',
        escape = '"',
        auto_detect = false,
        allow_quoted_nulls = false,
        filename = true
    )
{%- endmacro %}

{# A list of texts as a DuckDB list literal. #}
{% macro sql_list(values) -%}
    [ {%- for value in values -%}
        {{ sql_text(value) }}{{ ', ' if not loop.last }}
    {%- endfor -%} ]
{%- endmacro %}

{# A {name: type} mapping as a DuckDB struct literal. #}
{% macro csv_columns_literal(columns) -%}
    { {%- for name, type in columns.items() -%}
        {{ sql_text(name) }}: {{ sql_text(type) }}{{ ', ' if not loop.last }}
    {%- endfor -%} }
{%- endmacro %}

{#
    The CSV view: each group of files sharing a header read by the fast reader and numbered
    (the header is line 1), then the careful reader's rows.
#}
{% macro read_input_csv(spec, groups, careful_table) -%}
    {%- set branches = [] -%}
    {%- for header_json, files in groups.items() -%}
        {%- set header = fromjson(header_json) -%}
        {%- set columns = csv_columns(header) -%}
        {%- set branch -%}
            {%- call numbered_rows(1, files | length) %}
            select
                {% for column in spec.columns -%}
                    {%- if column.name in header -%}
                        {{ csv_column_name(column.name) }} as {{ column.name }},
                    {%- else -%}
                        cast(null as varchar) as {{ column.name }},
                    {%- endif %}
                {% endfor -%}
                filename as _source_file,
                cast(null as varchar[]) as _wrong_type_ids,
                cast(null as varchar) as _parse_error,
                cast(null as varchar) as _raw_line
            from {{ csv_reader(files, columns) }}
            {%- endcall %}
        {%- endset -%}
        {%- do branches.append('select * from (' ~ branch ~ ')') -%}
    {%- endfor -%}
    {%- if careful_table -%}
        {%- set branch -%}
            select
                {% for column in spec.columns -%}
                    {{ column.name }},
                {% endfor -%}
                _source_file,
                -- A CSV cell is always a string: no id of the wrong type.
                cast(null as varchar[]) as _wrong_type_ids,
                _parse_error,
                _raw_line,
                _source_row
            from {{ careful_table }}
        {%- endset -%}
        {%- do branches.append(branch) -%}
    {%- endif -%}
    {{ return(branches | join('\n\nunion all\n\n')) }}
{%- endmacro %}

{#
    Parquet and .json (one JSON document): DuckDB's typed readers, numbered by row. Strings a
    Parquet writer stored as BINARY without the UTF-8 tag come back as BLOB: they are decoded
    as UTF-8, and a value that is not valid UTF-8 sets _parse_error 'invalid_utf8' (the row is
    quarantined, quoting the column and its bytes) instead of being judged as \xEA\xB2… text.
#}
{% macro read_input_typed(spec, file_format, files) -%}
    {%- set reader = 'read_' ~ file_format ~ '(' ~ sql_list(files) ~ ', filename = true)' -%}
    {%- set described = run_query('describe select * from ' ~ reader) -%}
    {%- set found = {} -%}
    {%- for row in described.rows if row[0] != 'filename' -%}
        {%- do found.update({row[0]: row[1]}) -%}
    {%- endfor -%}
    {%- for column in spec.columns if column.required and column.name not in found -%}
        {{ input_error(
            spec, files | join(', '), "it has no column '" ~ column.name ~ "' (it has: "
            ~ (found.keys() | list | join(', ')) ~ ")", none
        ) }}
    {%- endfor -%}
    {%- if file_format == 'json' -%}
        {#- Every column as JSON, read like JSON Lines (json_value_text): read_json's own types
            would make a string that looks like a date or a UUID one, and store a column of
            mixed types as JSON text. -#}
        {%- set json_columns = {} -%}
        {%- for column in spec.columns if column.name in found -%}
            {%- do json_columns.update({column.name: 'JSON'}) -%}
        {%- endfor -%}
        {%- do found.update(json_columns) -%}
        {%- set reader = 'read_json(' ~ sql_list(files) ~ ', filename = true, columns = '
            ~ csv_columns_literal(json_columns) ~ ')' -%}
    {%- endif -%}
    {#- A Parquet BINARY id is decoded like any string, so it is no wrong type. -#}
    {%- set id_types = {} -%}
    {%- for name, kind in found.items() -%}
        {%- do id_types.update({name: 'VARCHAR' if kind == 'BLOB' else kind}) -%}
    {%- endfor -%}
    {#- A BINARY value (or list element) that is not UTF-8, as '<column>: <its bytes>'. -#}
    {%- set undecodable = [] -%}
    {%- for column in spec.columns if found.get(column.name) in ('BLOB', 'BLOB[]') -%}
        {%- if found[column.name] == 'BLOB' -%}
            {%- set invalid = column.name ~ ' is not null and try(decode(' ~ column.name
                ~ ')) is null' -%}
        {%- else -%}
            {%- set invalid = 'list_bool_or(list_transform(' ~ column.name
                ~ ', lambda x: x is not null and try(decode(x)) is null))' -%}
        {%- endif -%}
        {%- do undecodable.append(
            'case when ' ~ invalid ~ ' then ' ~ sql_text(column.name ~ ': ') ~ ' || cast('
            ~ column.name ~ ' as varchar) end'
        ) -%}
    {%- endfor -%}
    {%- call numbered_rows(0, files | length) %}
    select
        * exclude (_raw_line),
        _raw_line,
        case when _raw_line is not null then 'invalid_utf8' end as _parse_error
    from (
        select
            {% for column in spec.columns -%}
                {%- set kind = found.get(column.name) -%}
                {%- if kind is none -%}
                    cast(null as varchar) as {{ column.name }},
                {%- elif kind == 'VARCHAR' -%}
                    {{ column.name }},
                {%- elif kind == 'BLOB' -%}
                    try(decode({{ column.name }})) as {{ column.name }},
                {%- elif kind == 'BLOB[]' -%}
                    case
                        when not coalesce(list_bool_or(list_transform(
                            {{ column.name }}, lambda x: x is not null and try(decode(x)) is null
                        )), false)
                            then cast(to_json(list_transform(
                                {{ column.name }}, lambda x: decode(x)
                            )) as varchar)
                    end as {{ column.name }},
                {%- elif kind == 'JSON' -%}
                    {{ json_value_text(column.name) }} as {{ column.name }},
                {%- elif kind.endswith(']') or kind.startswith('STRUCT') -%}
                    cast(to_json({{ column.name }}) as varchar) as {{ column.name }},
                {%- else -%}
                    cast({{ column.name }} as varchar) as {{ column.name }},
                {%- endif %}
            {% endfor -%}
            filename as _source_file,
            {{ wrong_type_ids(spec, id_types) }} as _wrong_type_ids,
            {% if undecodable -%}
                coalesce({{ undecodable | join(', ') }}) as _raw_line
            {%- else -%}
                cast(null as varchar) as _raw_line
            {%- endif %}
        from {{ reader }}
    )
    {%- endcall %}
{%- endmacro %}
