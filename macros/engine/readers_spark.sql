{#
    The input readers on Spark (create_input_views, read_input: see their comments in
    macros/inputs/ for the contract every reader keeps), in plain Spark SQL so they run on
    any cluster. Each input's files are read as text lines, split on LF only (a CRLF's CR is
    dropped, a UTF-8 byte order mark before line 1 too), into raw.<table>__lines: one row per
    physical line with its file and line number, and the reason a line cannot be read at all
    (invalid_utf8, line_too_long) as the careful reader on DuckDB gives it. The view
    raw.<table> then parses those lines: JSON Lines with from_json, CSV with a regular
    expression per record. Spark runs one statement per call, so the hook runs its statements
    itself and returns a no-op.
#}

{# The project root: the directory dbt resolved for this invocation (--project-dir or cwd). #}
{% macro spark__project_root() -%}
    {%- set root = invocation_args_dict.get('project_dir') or env_var('PWD') -%}
    {%- if not root.startswith('/') -%}
        {%- set root = env_var('PWD') ~ '/' ~ root -%}
    {%- endif -%}
    {{ return(resolve_input_path(root, '/')) }}
{%- endmacro %}

{% macro spark__empty_input(spec) -%}
    select
        {% for column in spec.columns -%}
            cast(null as string) as {{ column.name }},
        {% endfor -%}
        cast(null as string) as _source_file,
        cast(null as array<string>) as _wrong_type_ids,
        cast(null as string) as _parse_error,
        cast(null as string) as _raw_line,
        cast(null as bigint) as _source_row
    where false
{%- endmacro %}

{#
    Whether the file at `path` exists (input_file_exists): binaryFile stops on a path that
    matches nothing, so a local path is listed in one brace glob with the project's
    dbt_project.yml, which always matches. A path with a scheme (s3a://…) is taken to exist:
    there, keep the reviews folder's files present (an empty one with its header is no rows).
#}
{% macro spark__input_file_exists(path) -%}
    {%- if not path.startswith('/') -%}
        {{ return(true) }}
    {%- endif -%}
    {%- set anchor = project_root() ~ '/dbt_project.yml' -%}
    {%- set listing = run_query(
        'select ' ~ spark_file_path('path', false) ~ ' from binaryFile.`/{' ~ path[1:] ~ ','
        ~ anchor[1:] ~ '}`'
    ) -%}
    {{ return(path in (listing.rows | map(attribute=0) | list)) }}
{%- endmacro %}

{% macro spark__input_set_table_exists() -%}
    {{ return(spark_table_exists('audit', 'input_sets')) }}
{%- endmacro %}

{% macro spark__create_input_views() -%}
    {%- if not execute -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set root = project_root() -%}
    {%- set inputs = {} -%}
    {%- for table_name, spec in input_contract().items() -%}
        {%- do inputs.update({table_name: input_path(spec, root)}) -%}
    {%- endfor -%}
    {%- do check_input_set(inputs) -%}
    {%- do run_query('create schema if not exists raw') -%}
    {%- for table_name, spec in input_contract().items() -%}
        {%- set plan = plan_chat_turn_files(inputs[table_name])
            if table_name == 'chat_turn' else {'statements': [], 'files': none} -%}
        {%- for statement in plan.statements -%}
            {%- do run_query(statement) -%}
        {%- endfor -%}
        {%- if inputs[table_name] -%}
            {%- set reader = read_input(table_name, spec, inputs[table_name], plan.files) -%}
        {%- else -%}
            {%- set reader = {
                'statements': ['drop table if exists raw.' ~ table_name ~ '__lines'],
                'select': empty_input(spec),
            } -%}
        {%- endif -%}
        {%- for statement in reader.statements -%}
            {%- do run_query(statement) -%}
        {%- endfor -%}
        {%- do run_query(
            'create or replace view raw.' ~ table_name ~ ' as ' ~ reader.select
        ) -%}
    {%- endfor -%}
    {%- if selects_every_model() -%}
        {%- set values = [] -%}
        {%- for table_name, path in inputs.items() -%}
            {%- do values.append(
                '(' ~ sql_text(invocation_id) ~ ', current_timestamp(), '
                ~ sql_text(table_name) ~ ', '
                ~ (sql_text(path) if path else 'null') ~ ')'
            ) -%}
        {%- endfor -%}
        {%- do run_query('create schema if not exists audit') -%}
        {%- do run_query(
            'create table if not exists audit.input_sets (invocation_id string,'
            ~ ' recorded_at timestamp, table_name string, input_path string) using parquet'
        ) -%}
        {%- do run_query('insert into audit.input_sets values ' ~ values | join(', ')) -%}
    {%- endif -%}
    {{ return('select 1') }}
{%- endmacro %}

{#
    A file URI as Spark reports it (file:///a/b%20c.csv, file:/a/b c.csv) as the plain path
    DuckDB reports.
#}
{% macro spark_file_path(expression, encoded) -%}
    {%- set path = "regexp_replace(" ~ expression ~ ", '^file:(//)?', '')" -%}
    {%- if encoded -%}
        java_method('java.net.URLDecoder', 'decode', replace({{ path }}, '+', '%2B'), 'UTF-8')
    {%- else -%}
        {{ path }}
    {%- endif -%}
{%- endmacro %}

{#
    The reader of one input table on Spark ({statements, select}, as on DuckDB). The files
    are listed with the binaryFile source (a glob that matches nothing stops the build with
    Spark's PATH_NOT_FOUND; an empty file is not listed, so it is never warned about). JSON
    Lines and CSV are read as lines (spark_input_lines), a JSON document (.json) whole,
    Parquet with Spark's typed reader.
#}
{% macro spark__read_input(table_name, spec, path, only_files=none) -%}
    {%- set extension = path.lower().split('.')[-1] -%}
    {%- if extension not in ('csv', 'jsonl', 'ndjson', 'json', 'parquet') -%}
        {{ input_error(
            spec, path, 'cannot tell its format',
            'Name it .csv, .jsonl, .ndjson, .json or .parquet'
        ) }}
    {%- endif -%}
    {%- set file_format = 'jsonl' if extension in ('jsonl', 'ndjson') else extension -%}
    {%- set listing = run_query(
        'select ' ~ spark_file_path('path', false) ~ ', length from binaryFile.`' ~ path
        ~ '` order by 1'
    ) -%}
    {%- set files = listing.rows | map(attribute=0) | list -%}
    {%- if files | length == 0 -%}
        {{ input_error(spec, path, 'no input file matches it', none) }}
    {%- endif -%}
    {%- set lines_table = 'raw.' ~ table_name ~ '__lines' -%}
    {#- only_files: the files of the glob an incremental build reads (ingest_ledger.sql). -#}
    {%- if only_files is not none -%}
        {%- set files = files | select('in', only_files) | list -%}
        {%- if not files -%}
            {%- do run_query('drop table if exists ' ~ lines_table) -%}
            {{ return({'statements': [], 'select': empty_input(spec)}) }}
        {%- endif -%}
    {%- endif -%}
    {%- if file_format == 'parquet' -%}
        {%- do run_query('drop table if exists ' ~ lines_table) -%}
        {{ return({'statements': [], 'select': spark_read_parquet(
            spec, table_name, path, none if only_files is none else files
        )}) }}
    {%- endif -%}
    {%- if file_format == 'json' -%}
        {%- do run_query('drop table if exists ' ~ lines_table) -%}
        {{ return({'statements': [], 'select': spark_read_json_document(
            spec, table_name, [path] if only_files is none else files, files
        )}) }}
    {%- endif -%}
    {%- for statement in spark_input_lines(
        table_name, [path] if only_files is none else files
    ) -%}
        {%- do run_query(statement) -%}
    {%- endfor -%}
    {#- A row counts when it is a bad line or a line that is not blank (for CSV, below the
        header line). -#}
    {%- set counted = run_query(
        'select _source_file, count_if(' ~ (
            '_source_row > 1 and (_line_error is not null or line <> \'\')'
            if file_format == 'csv' else "_line_error is not null or trim(line) <> ''"
        ) ~ ') from ' ~ lines_table ~ ' group by _source_file'
    ) -%}
    {%- set content_rows = {} -%}
    {%- for file, count in counted.rows -%}
        {%- do content_rows.update({file: count}) -%}
    {%- endfor -%}
    {%- set holding = [] -%}
    {%- for file in files if content_rows.get(file, 0) > 0 -%}
        {%- do holding.append(file) -%}
    {%- endfor -%}
    {%- for file in files if file not in holding -%}
        {%- if not holding and not spec.get('optional') -%}
            {{ input_error(
                spec, file, 'it holds no rows (it is empty, or only a header or blank lines)',
                'Point ' ~ spec.var ~ ' at the file with the ' ~ table_name ~ ' rows'
            ) }}
        {%- endif -%}
        {%- do exceptions.warn(
            spec.var ~ ": " ~ file ~ " holds no rows (it is empty, or only a header or blank "
            ~ "lines); " ~ ("the input's other files are read" if holding
            else table_name ~ " is built empty")
        ) -%}
    {%- endfor -%}
    {%- if not holding -%}
        {%- set select = empty_input(spec) -%}
    {%- elif file_format == 'jsonl' -%}
        {%- set select = spark_read_json_lines(spec, lines_table) -%}
    {%- else -%}
        {%- set select = spark_read_csv(spec, lines_table, holding) -%}
    {%- endif -%}
    {{ return({'statements': [], 'select': select}) }}
{%- endmacro %}

{#
    The statements that create the temporary view `view` of Spark's text source over `paths`
    (a path or glob each; one path: the source itself, several: one source each, in a union,
    whose rows still know their file through input_file_name()).
#}
{% macro spark_text_view_statements(view, paths, options) -%}
    {%- if paths | length == 1 -%}
        {{ return([
            'create or replace temporary view ' ~ view ~ ' using text options (path '
                ~ sql_text(paths[0]) ~ ', ' ~ options ~ ')',
        ]) }}
    {%- endif -%}
    {%- set statements, parts = [], [] -%}
    {%- for path in paths -%}
        {%- do statements.append(
            'create or replace temporary view ' ~ view ~ '_' ~ loop.index
            ~ ' using text options (path ' ~ sql_text(path) ~ ', ' ~ options ~ ')'
        ) -%}
        {%- do parts.append('select value from ' ~ view ~ '_' ~ loop.index) -%}
    {%- endfor -%}
    {{ return(statements + [
        'create or replace temporary view ' ~ view ~ ' as ' ~ parts | join(' union all ')
    ]) }}
{%- endmacro %}

{#
    The statements that (re)build raw.<table>__lines from the files of `paths` (a path or
    glob each): _source_file, _source_row (the physical line, from 1), line (null for a bad
    line), _line_error and _line_raw (the bad line as text, shortened when too long). Spark's
    text source splits on LF only with lineSep; a row's place in its file is its split's
    start then its position in the split (monotonically_increasing_id grows within a split).
#}
{% macro spark_input_lines(table_name, paths) -%}
    {%- set text_view = 'ck_' ~ table_name ~ '__text' -%}
    {%- set lines_table = 'raw.' ~ table_name ~ '__lines' -%}
    {%- set limit = 2 * 1024 * 1024 -%}
    {{ return(spark_text_view_statements(text_view, paths, "lineSep '\\n'") + [
        'drop table if exists ' ~ lines_table,
        'create table ' ~ lines_table ~ ' using parquet as
        with scanned as (
            select
                input_file_name() as file_uri,
                input_file_block_start() as split_start,
                monotonically_increasing_id() as position,
                value
            from ' ~ text_view ~ '
        ),

        numbered as (
            select
                ' ~ spark_file_path('file_uri', true) ~ ' as _source_file,
                cast(row_number() over (
                    partition by file_uri order by split_start, position
                ) as bigint) as _source_row,
                value
            from scanned
        ),

        ended as (
            select
                _source_file,
                _source_row,
                case
                    when _source_row = 1 and startswith(value, \'\\uFEFF\')
                        then substr(value, 2)
                    else value
                end as value
            from numbered
        ),

        trimmed as (
            select
                _source_file,
                _source_row,
                case
                    when endswith(value, \'\\r\') then substr(value, 1, length(value) - 1)
                    else value
                end as value
            from ended
        )

        select
            _source_file,
            _source_row,
            case
                when octet_length(value) <= ' ~ limit ~ ' and is_valid_utf8(value) then value
            end as line,
            case
                when octet_length(value) > ' ~ limit ~ ' then \'line_too_long\'
                when not is_valid_utf8(value) then \'invalid_utf8\'
            end as _line_error,
            case
                when octet_length(value) > ' ~ limit ~ '
                    then concat(
                        substr(make_valid_utf8(value), 1, 200), \'… (over ' ~ limit
                        ~ ' bytes)\'
                    )
                when not is_valid_utf8(value) then ' ~ spark_backslash_replace('value') ~ '
            end as _line_raw
        from trimmed',
    ]) }}
{%- endmacro %}

{#
    A text that is not valid UTF-8 as Python's backslashreplace decodes it (the careful
    reader's quote of an invalid_utf8 line): its bytes, as hex, are cut into valid UTF-8
    sequences and single bytes, and each byte outside a valid sequence becomes \xNN.
#}
{% macro spark_backslash_replace(expression) -%}
    {%- set valid = '[0-7][0-9A-F]|(?:C[2-9A-F]|D[0-9A-F])[89AB][0-9A-F]'
        ~ '|E0[AB][0-9A-F][89AB][0-9A-F]|E[1-9A-CEF](?:[89AB][0-9A-F]){2}'
        ~ '|ED[89][0-9A-F][89AB][0-9A-F]|F0[9AB][0-9A-F](?:[89AB][0-9A-F]){2}'
        ~ '|F[1-3](?:[89AB][0-9A-F]){3}|F48[0-9A-F](?:[89AB][0-9A-F]){2}' -%}
    {{- "decode(unhex(array_join(transform(regexp_extract_all(hex(cast(" ~ expression
        ~ " as binary)), '(" ~ valid ~ "|[0-9A-F]{2})', 1), piece -> case when piece rlike '^(?:"
        ~ valid ~ ")$' then piece else concat('5C78', hex(lower(piece))) end), '')), 'UTF-8')" -}}
{%- endmacro %}

{#
    JSON Lines from raw.<table>__lines, by the rules of read_input_json_lines (DuckDB): a
    line that is not a JSON object is malformed_json_line (from_json's corrupt-record column
    catches what it cannot parse), blank lines are not rows, every value is text (a JSON
    string its own value, anything else its JSON text: from_json's string fields do both).
#}
{% macro spark_read_json_lines(spec, lines_table) -%}
    {%- set fields = [] -%}
    {%- for column in spec.columns -%}
        {%- do fields.append('`' ~ column.name ~ '`: string') -%}
    {%- endfor -%}
    {%- do fields.append('`_ck_corrupt_record`: string') -%}
    with parsed as (
        select
            _source_file,
            _source_row,
            line,
            _line_error,
            _line_raw,
            case
                when _line_error is null and startswith(ltrim(line), '{')
                    then from_json(
                        line,
                        'struct<{{ fields | join(", ") }}>',
                        map('columnNameOfCorruptRecord', '_ck_corrupt_record')
                    )
            end as parsed_record
        from {{ lines_table }}
        -- A blank line is not a row.
        where
            case
                when _line_error is not null then true
                when line is null then false
                when startswith(line, '{') then true
                else trim(line) <> ''
            end
    ),

    checked as (
        select
            _source_file,
            _source_row,
            line,
            _line_error,
            _line_raw,
            case when parsed_record._ck_corrupt_record is null then parsed_record end as record
        from parsed
    ),

    flagged as (
        select
            *,
            coalesce(
                _line_error,
                case when record is null then 'malformed_json_line' end
            ) as _parse_error
        from checked
    )

    select
        {% for column in spec.columns -%}
            record.{{ column.name }} as {{ column.name }},
        {% endfor -%}
        {{ wrong_type_ids_of_json_lines(spec, 'record', 'line') }} as _wrong_type_ids,
        _source_file,
        _source_row,
        _parse_error,
        case when _parse_error is not null then coalesce(_line_raw, line) end as _raw_line
    from flagged
{%- endmacro %}

{#
    A CSV header line's names (the quote rules of a record, names trimmed), or none when it
    cannot be read.
#}
{% macro spark_csv_header_names(text) -%}
    {%- set field = '"(?:[^"]++|"")*+"|[^,"][^,]*+|' -%}
    {%- if not modules.re.fullmatch('(?:' ~ field ~ ')(?:,(?:' ~ field ~ '))*', text) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set names = [] -%}
    {%- for value in modules.re.findall('(?:^|,)("(?:[^"]|"")*"|[^,]*)', text) -%}
        {%- if value.startswith('"') -%}
            {%- do names.append(value[1:-1].replace('""', '"').strip()) -%}
        {%- else -%}
            {%- do names.append(value.strip()) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(names) }}
{%- endmacro %}

{#
    CSV from raw.<table>__lines, by the careful reader's rules (python_udfs/input_files.py):
    each file's line 1 is its header (the columns are taken by name, a file without a
    required one stops the build); delimiter ',', quote and escape '"', a quote inside an
    unquoted value an ordinary character, an unquoted empty value null and a quoted one '';
    blank lines are not rows. A record is numbered by the line it starts on: a line whose
    quoted value is still open at its end goes on over the next lines (at most 1000 in all,
    never past a bad line) until the record closes; one that never closes, or whose quote is
    followed by anything but ',' or the end, is unbalanced_csv_quote on its first line only,
    and the lines after it are read as rows of their own. A record with another number of
    values than its header is ragged_csv_row. Files are grouped by header, as on DuckDB.
    The regular expressions use possessive quantifiers: Java's engine would otherwise
    recurse once per character of a long value.
#}
{% macro spark_read_csv(spec, lines_table, files) -%}
    {%- set headers = run_query(
        'select _source_file, line from ' ~ lines_table ~ ' where _source_row = 1'
    ) -%}
    {%- set groups = {} -%}
    {%- for file, text in headers.rows if file in files -%}
        {%- set header = spark_csv_header_names(text or '') -%}
        {%- if header is none -%}
            {{ input_error(spec, file, 'its header (line 1) cannot be read', none) }}
        {%- endif -%}
        {%- for name in header if name and header | select('equalto', name) | list | length > 1 -%}
            {{ input_error(spec, file, "its header (line 1) names the column '" ~ name
                ~ "' twice", none) }}
        {%- endfor -%}
        {%- for column in spec.columns if column.required and column.name not in header -%}
            {{ input_error(
                spec, file, "it has no column '" ~ column.name ~ "' (its header, line 1, names: "
                ~ header | join(', ') ~ ")",
                'Name the columns in line 1 as the input contract does (README, docs/rules.md)'
            ) }}
        {%- endfor -%}
        {%- do groups.setdefault(tojson(header), []).append(file) -%}
    {%- endfor -%}
    {%- set quoted = '"(?:[^"]++|"")*+"' -%}
    {%- set field = quoted ~ '|[^,"][^,]*+' -%}
    {#- A whole record; a record whose last value is an open quote (it goes on). -#}
    {%- set whole = sql_text(
        '^(?:' ~ field ~ ')?(?:,(?:' ~ field ~ ')?)*+\\z'
    ) -%}
    {%- set open = sql_text(
        '^(?:(?:' ~ field ~ ')?,)*+"(?:[^"]++|"")*+\\z'
    ) -%}
    {#- Each value after a comma, the record read with one put before it: `(?:^|,)` would
        drop the comma after an empty first value (the empty match at ^ moves the search on
        past it), and `,CHR-0004,add` would read as one value too few. -#}
    {%- set values = sql_text(',(' ~ quoted ~ '|[^,]*+)') -%}
    {%- set limit = 2 * 1024 * 1024 -%}
    {%- set branches = [] -%}
    {%- for header_json, group_files in groups.items() -%}
        {%- set header = fromjson(header_json) -%}
        {%- set branch -%}
            with lines as (
                select _source_file, _source_row, line, _line_error, _line_raw
                from {{ lines_table }}
                where
                    _source_row > 1
                    and _source_file in (
                        {%- for file in group_files -%}
                            {{ sql_text(file) }}{{ ', ' if not loop.last }}
                        {%- endfor -%}
                    )
            ),

            -- The lines that hold no whole record: each may start one that goes on.
            starts as (
                select _source_file, _source_row, line
                from lines
                where _line_error is null and line <> '' and not line rlike {{ whole }}
            ),

            -- Each start with the lines after it, joined one by one while the record is
            -- open: closed (a whole record), or failed (a bad quote, a bad line, too long).
            spans as (
                select
                    starts._source_file,
                    starts._source_row,
                    aggregate(
                        array_sort(collect_list(named_struct(
                            'line_number', following._source_row,
                            'line', following.line,
                            'error', following._line_error
                        ))),
                        named_struct(
                            'text', first(starts.line),
                            'last_row', first(starts._source_row),
                            'state', case when first(starts.line) rlike {{ open }} then 'open'
                                else 'failed' end
                        ),
                        (span, next) -> case
                            when span.state <> 'open' then span
                            when next.error is not null or length(span.text) > {{ limit }}
                                then named_struct(
                                    'text', span.text, 'last_row', span.last_row,
                                    'state', 'failed'
                                )
                            when concat(span.text, '\n', next.line) rlike {{ whole }}
                                then named_struct(
                                    'text', concat(span.text, '\n', next.line),
                                    'last_row', next.line_number,
                                    'state', 'closed'
                                )
                            when concat(span.text, '\n', next.line) rlike {{ open }}
                                then named_struct(
                                    'text', concat(span.text, '\n', next.line),
                                    'last_row', next.line_number,
                                    'state', 'open'
                                )
                            else named_struct(
                                'text', span.text, 'last_row', span.last_row, 'state', 'failed'
                            )
                        end
                    ) as span
                from starts
                inner join lines as following
                    on
                        starts._source_file = following._source_file
                        and following._source_row > starts._source_row
                        and following._source_row < starts._source_row + 1000
                group by starts._source_file, starts._source_row
            ),

            closed as (
                select _source_file, _source_row, span.text as record_text, span.last_row
                from spans
                where span.state = 'closed'
            ),

            -- Every line that is not a later line of a closed record, with its record.
            records as (
                select
                    lines._source_file,
                    lines._source_row,
                    lines.line,
                    lines._line_error,
                    lines._line_raw,
                    coalesce(closed.record_text, lines.line) as record_text
                from lines
                left anti join closed as covering
                    on
                        lines._source_file = covering._source_file
                        and lines._source_row > covering._source_row
                        and lines._source_row <= covering.last_row
                left join closed
                    on
                        lines._source_file = closed._source_file
                        and lines._source_row = closed._source_row
                where lines._line_error is not null or lines.line <> ''
            ),

            parsed as (
                select
                    *,
                    case
                        when _line_error is null and record_text rlike {{ whole }}
                            then transform(
                                regexp_extract_all(',' || record_text, {{ values }}, 1),
                                value -> case
                                    when value = '' then null
                                    when startswith(value, '"')
                                        then replace(substr(value, 2, length(value) - 2), '""', '"')
                                    else value
                                end
                            )
                    end as fields
                from records
            ),

            checked as (
                select
                    *,
                    case
                        when _line_error is not null then _line_error
                        when fields is null then 'unbalanced_csv_quote'
                        when size(fields) <> {{ header | length }} then 'ragged_csv_row'
                    end as _parse_error
                from parsed
            )

            select
                {% for column in spec.columns -%}
                    {%- if column.name in header -%}
                        case when _parse_error is null then fields[{{ header.index(column.name) }}] end
                    {%- else -%}
                        cast(null as string)
                    {%- endif %} as {{ column.name }},
                {% endfor -%}
                _source_file,
                -- A CSV cell is always a string: no id of the wrong type.
                cast(null as array<string>) as _wrong_type_ids,
                _parse_error,
                case
                    when _parse_error = 'ragged_csv_row' then record_text
                    when _parse_error is not null then coalesce(_line_raw, line)
                end as _raw_line,
                _source_row
            from checked
        {%- endset -%}
        {%- do branches.append('select * from (' ~ branch ~ ')') -%}
    {%- endfor -%}
    {{ return(branches | join('\n\nunion all\n\n')) }}
{%- endmacro %}

{#
    Parquet on Spark, by the rules of read_input_typed (DuckDB): the files' rows are copied
    with their file and row number (from 1, in file order) into raw.<table>__rows, then typed
    as text: a string as it is, a BINARY string (written without the UTF-8 tag) decoded as
    UTF-8 (one that is not sets _parse_error invalid_utf8 and quotes '<column>: <its bytes>'
    as DuckDB writes a BLOB), a list or struct as JSON text, any other value cast to text.
    _wrong_type_ids lists the id columns of another type than a string or an integer.
#}
{#- only_files: read those files of the glob only (they are filtered by path). -#}
{% macro spark_read_parquet(spec, table_name, path, only_files=none) -%}
    {%- set rows_table = 'raw.' ~ table_name ~ '__rows' -%}
    {%- set reader = 'parquet.`' ~ path ~ '`' -%}
    {%- set found = {} -%}
    {%- for row in run_query('describe select * from ' ~ reader).rows -%}
        {%- do found.update({row[0]: row[1] | lower}) -%}
    {%- endfor -%}
    {%- for column in spec.columns if column.required and column.name not in found -%}
        {{ input_error(
            spec, path, "it has no column '" ~ column.name ~ "' (it has: "
            ~ (found.keys() | list | join(', ')) ~ ")", none
        ) }}
    {%- endfor -%}
    {%- do run_query('drop table if exists ' ~ rows_table) -%}
    {%- set quoted_files = [] -%}
    {%- for file in only_files or [] -%}
        {%- do quoted_files.append(sql_text(file)) -%}
    {%- endfor -%}
    {%- set contract_columns = [] -%}
    {%- for column in spec.columns if column.name in found -%}
        {%- do contract_columns.append('`' ~ column.name ~ '`') -%}
    {%- endfor -%}
    {%- do run_query(
        'create table ' ~ rows_table ~ ' using parquet as select '
        ~ contract_columns | join(', ') ~ (', ' if contract_columns else '')
        ~ spark_file_path('file_uri', true) ~ ' as _source_file, '
        ~ 'cast(row_number() over (partition by file_uri order by split_start, position)'
        ~ ' as bigint) as _source_row from (select *, input_file_name() as file_uri,'
        ~ ' input_file_block_start() as split_start, monotonically_increasing_id() as position'
        ~ ' from ' ~ reader ~ ')'
        ~ ('' if only_files is none else ' where ' ~ spark_file_path('file_uri', true)
            ~ ' in (' ~ quoted_files | join(', ') ~ ')')
    ) -%}
    {%- set integer_types = ['tinyint', 'smallint', 'int', 'bigint'] -%}
    {%- set undecodable = [] -%}
    {%- set wrong_types = {} -%}
    {%- for column in spec.columns if column.name in found -%}
        {%- set kind = found[column.name] -%}
        {%- if kind == 'binary' -%}
            {%- do undecodable.append(
                'case when not is_valid_utf8(cast(' ~ column.name ~ ' as string)) then concat('
                ~ sql_text(column.name ~ ': ') ~ ', ' ~ spark_blob_text(column.name)
                ~ ') end'
            ) -%}
        {%- elif kind == 'array<binary>' -%}
            {%- do undecodable.append(
                'case when exists(' ~ column.name ~ ', x -> x is not null and not'
                ~ ' is_valid_utf8(cast(x as string))) then concat('
                ~ sql_text(column.name ~ ': ') ~ ", concat('[', array_join(transform("
                ~ column.name ~ ', x -> ' ~ spark_blob_text('x') ~ "), ', '), ']')) end"
            ) -%}
        {%- endif -%}
        {%- if column.get('id') and kind not in ['string', 'binary'] + integer_types -%}
            {%- do wrong_types.update({column.name: column.name ~ ' is not null'}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set select -%}
    select
        *,
        case when _raw_line is not null then 'invalid_utf8' end as _parse_error
    from (
        select
            {% for column in spec.columns -%}
                {%- set kind = found.get(column.name) -%}
                {%- if kind is none -%}
                    cast(null as string)
                {%- elif kind == 'string' -%}
                    {{ column.name }}
                {%- elif kind == 'binary' -%}
                    case
                        when is_valid_utf8(cast({{ column.name }} as string))
                            then cast({{ column.name }} as string)
                    end
                {%- elif kind == 'array<binary>' -%}
                    case
                        when not exists(
                            {{ column.name }},
                            x -> x is not null and not is_valid_utf8(cast(x as string))
                        )
                            then to_json(transform({{ column.name }}, x -> cast(x as string)))
                    end
                {%- elif kind.startswith('array') or kind.startswith('struct')
                    or kind.startswith('map') -%}
                    to_json({{ column.name }})
                {%- else -%}
                    cast({{ column.name }} as string)
                {%- endif %} as {{ column.name }},
            {% endfor -%}
            _source_file,
            _source_row,
            {{ names_where(wrong_types) }} as _wrong_type_ids,
            {% if undecodable -%}
                coalesce({{ undecodable | join(', ') }}) as _raw_line
            {%- else -%}
                cast(null as string) as _raw_line
            {%- endif %}
        from {{ rows_table }}
    )
    {%- endset -%}
    {{ return(select) }}
{%- endmacro %}

{#
    A BINARY value as DuckDB casts a BLOB to text: printable ASCII as it is, every other
    byte as \xNN (upper-case hex).
#}
{% macro spark_blob_text(expression) -%}
    {{- "decode(unhex(array_join(transform(regexp_extract_all(hex(" ~ expression
        ~ "), '([0-9A-F]{2})', 1), byte -> case when byte between '20' and '7E' then byte"
        ~ " else concat('5C78', hex(byte)) end), '')), 'UTF-8')" -}}
{%- endmacro %}

{#
    A JSON document (.json: an array of objects) on Spark: each file read whole, its elements
    numbered from 1 (the row number, as on DuckDB) as the JSON text of each into
    raw.<table>__rows, then typed by the JSON Lines rules (spark_read_json_lines: a string its
    own value, any other value its JSON text). A file that is not a JSON array stops the
    build, as DuckDB's read_json does; an element that is not an object is
    malformed_json_line (DuckDB stops there).
#}
{% macro spark_read_json_document(spec, table_name, paths, files) -%}
    {%- set text_view = 'ck_' ~ table_name ~ '__document' -%}
    {%- set rows_table = 'raw.' ~ table_name ~ '__rows' -%}
    {%- for statement in spark_text_view_statements(text_view, paths, "wholetext 'true'") -%}
        {%- do run_query(statement) -%}
    {%- endfor -%}
    {%- do run_query('drop table if exists ' ~ rows_table) -%}
    {%- do run_query(
        'create table ' ~ rows_table ~ ' using parquet as select _source_file,'
        ~ ' cast(element_number as bigint) as _source_row, line,'
        ~ ' cast(null as string) as _line_error, cast(null as string) as _line_raw'
        ~ ' from (select ' ~ spark_file_path('input_file_name()', true) ~ ' as _source_file,'
        ~ " from_json(value, 'array<string>') as elements from " ~ text_view ~ ')'
        ~ ' lateral view posexplode(elements) as element_number, line'
    ) -%}
    {%- set unread = run_query(
        'select ' ~ spark_file_path('input_file_name()', true) ~ ' from ' ~ text_view
        ~ " where from_json(value, 'array<string>') is null limit 1"
    ) -%}
    {%- if unread.rows -%}
        {{ input_error(
            spec, unread.rows[0][0], 'it cannot be read as json (it is not a JSON array)',
            'Check that it is a whole json file'
        ) }}
    {%- endif -%}
    {%- set keys = run_query(
        'select distinct json_key from ' ~ rows_table
        ~ ' lateral view explode(json_object_keys(line)) as json_key'
    ).columns[0].values() | list -%}
    {%- for column in spec.columns if column.required and column.name not in keys -%}
        {{ input_error(
            spec, files | join(', '), "it has no column '" ~ column.name ~ "' (it has: "
            ~ (keys | join(', ')) ~ ")", none
        ) }}
    {%- endfor -%}
    {{ return(spark_read_json_lines(
        spec, '(select _source_file, _source_row + 1 as _source_row, line, _line_error,'
        ~ ' _line_raw from ' ~ rows_table ~ ') as document_rows'
    )) }}
{%- endmacro %}
