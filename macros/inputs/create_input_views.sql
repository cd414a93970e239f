{#
    on-run-start: (re)create one view per input table in schema `raw`, reading the files the
    input vars name (see docs/rules.md, inputs). The views are the sources of staging; every
    column is text (lists as JSON text) so that parsing, and its failures, happen in staging
    where a bad value can be quarantined instead of failing the read. A text file DuckDB's
    reader cannot read exactly is read by the careful reader (read_input), whose rows are
    copied into raw.<table>__careful_rows here too; a stale copy is dropped.
    Each input is named by its var (--vars), else by its environment variable
    (CARD_KEEPER_CHAT_TURN, …: dbt_project.yml reads them), else the demo's file.
#}

{#
    A path as an analyst types it, made absolute and normal: a leading `~` and `$NAME` /
    `${NAME}` are expanded from the environment (an unset one fails, naming it), a relative
    path is anchored at the project root, and `.`, `..` and repeated slashes are resolved, so
    `./data/demo/chat_turn.jsonl` and `data/demo/chat_turn.jsonl` are the same input. Glob
    characters pass through.
#}
{% macro resolve_input_path(given, root) -%}
    {%- set path = given | string | trim -%}
    {%- if path == '~' or path.startswith('~/') -%}
        {%- set path = env_var('HOME') ~ path[1:] -%}
    {%- endif -%}
    {#- A loop cannot reassign an outer variable in Jinja: a namespace carries the path. -#}
    {%- set expanded = namespace(path=path) -%}
    {%- for braced, bare in modules.re.findall(
        '\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}|\\$([A-Za-z_][A-Za-z0-9_]*)', path
    ) -%}
        {%- set name = braced or bare -%}
        {%- set expanded.path = expanded.path
            .replace('${' ~ name ~ '}', env_var(name))
            .replace('$' ~ name, env_var(name)) -%}
    {%- endfor -%}
    {%- set path = expanded.path -%}
    {%- if not path.startswith('/') -%}
        {%- set path = root ~ '/' ~ path -%}
    {%- endif -%}
    {%- set parts = [] -%}
    {%- for part in path.split('/') if part not in ('', '.') -%}
        {%- if part == '..' -%}
            {%- if parts -%}{%- do parts.pop() -%}{%- endif -%}
        {%- else -%}
            {%- do parts.append(part) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return('/' ~ parts | join('/')) -}}
{%- endmacro %}

{# The project root, as the card_keeper plugin set it on the connection. #}
{% macro project_root() -%}
    {{- return(adapter.dispatch('project_root', 'card_keeper')()) -}}
{%- endmacro %}

{% macro default__project_root() -%}
    {{- return(run_query("select getvariable('ck_project_root')").columns[0].values()[0]) -}}
{%- endmacro %}

{#
    The resolved path an input var names. An optional input (golden labels, LLM summaries)
    left unset falls back to its demo file only while the turns are the demo's own (compared
    as resolved paths): the demo labels describe the demo turns and nobody else's. Returns
    none when there is no such input. A reviewer-decisions input (spec.file) is that file of
    the folder its var names (reviews_dir), or none while the folder or the file is absent
    (docs/rules.md#reviewer-decisions).
#}
{% macro input_path(spec, root=none) -%}
    {%- set root = root or project_root() -%}
    {%- set given = var(spec.var, none) -%}
    {%- if spec.get('file') -%}
        {%- if given is none or given | string | trim == '' -%}
            {{ return(none) }}
        {%- endif -%}
        {%- set path = resolve_input_path(given ~ '/' ~ spec.file, root) -%}
        {{ return(path if input_file_exists(path) else none) }}
    {%- elif given is not none and given | string | trim != '' -%}
        {{ return(resolve_input_path(given, root)) }}
    {%- elif not spec.get('optional') -%}
        {{ exceptions.raise_compiler_error(spec.var ~ ' is required') }}
    {%- elif resolve_input_path(var('input_chat_turn'), root)
        == resolve_input_path('data/demo/chat_turn.jsonl', root) -%}
        {{ return(resolve_input_path(spec.demo_default, root)) }}
    {%- else -%}
        {{ return(none) }}
    {%- endif -%}
{%- endmacro %}

{#
    Whether one file exists at `path` (no glob): the reviewer-decisions files may be absent.
    On Spark a path no file matches stops a read, so the file is listed together with the
    project's own dbt_project.yml in one brace glob, which always matches that one.
#}
{% macro input_file_exists(path) -%}
    {{- return(adapter.dispatch('input_file_exists', 'card_keeper')(path)) -}}
{%- endmacro %}

{% macro default__input_file_exists(path) -%}
    {{- return(run_query(
        'select count(*) from glob(' ~ sql_text(path) ~ ')'
    ).columns[0].values()[0] > 0) -}}
{%- endmacro %}

{# An input view with the contract's columns and no rows, for an optional input not given. #}
{% macro empty_input(spec) -%}
    {{- adapter.dispatch('empty_input', 'card_keeper')(spec) -}}
{%- endmacro %}

{% macro default__empty_input(spec) -%}
    select
        {% for column in spec.columns -%}
            cast(null as varchar) as {{ column.name }},
        {% endfor -%}
        cast(null as varchar) as _source_file,
        cast(null as varchar[]) as _wrong_type_ids,
        cast(null as varchar) as _parse_error,
        cast(null as varchar) as _raw_line,
        cast(null as bigint) as _source_row
    where false
{%- endmacro %}

{#
    Whether this invocation rebuilds every model. A run that selects only some models or
    tests reads the raw views beside marts built earlier, so it must read the same inputs.
#}
{% macro selects_every_model() -%}
    {%- for node in graph.nodes.values()
        if node.resource_type == 'model' and node.unique_id not in selected_resources -%}
        {{ return(false) }}
    {%- endfor -%}
    {{ return(true) }}
{%- endmacro %}

{#
    Stop a partial run (dbt build --select …, dbt test) whose inputs differ from those of the
    last full build of this database: it would mix two input sets (raw views and the models
    it rebuilds on one, the rest of the marts on the other). A full build may change inputs;
    it records its own in audit.input_sets before any model runs, so a `dbt retry` of it reads
    the same ones.
#}
{% macro check_input_set(inputs) -%}
    {#- Looked up with plain queries: adapter.get_relation() would open a transaction that dbt
        rolls back after the hook, taking the views with it. -#}
    {%- set has_record = input_set_table_exists() -%}
    {%- set recorded = run_query(
        "select table_name, input_path from audit.input_sets
        where invocation_id = (
            select invocation_id from audit.input_sets order by recorded_at desc limit 1
        )"
    ) if has_record else none -%}
    {%- if recorded is none or recorded.rows | length == 0 or selects_every_model() -%}
        {{ return(true) }}
    {%- endif -%}
    {%- set before = {} -%}
    {%- for row in recorded.rows -%}
        {%- do before.update({row[0]: row[1]}) -%}
    {%- endfor -%}
    {%- set changed = [] -%}
    {%- for table_name, path in inputs.items()
        if before.get(table_name) != path -%}
        {%- do changed.append(
            '  ' ~ table_name ~ ': this run reads ' ~ (path or '(none)')
            ~ ', the database was built from ' ~ (before.get(table_name) or '(none)')
        ) -%}
    {%- endfor -%}
    {%- if changed -%}
        {{ exceptions.raise_compiler_error(
            "This run selects only some models, but its inputs differ from the ones the "
            ~ "database was last fully built from; it would mix two input sets:\n"
            ~ changed | join('\n')
            ~ "\nPass the same inputs (--vars, or set CARD_KEEPER_CHAT_TURN, "
            ~ "CARD_KEEPER_CHARACTER_CARD, CARD_KEEPER_TOPIC_LEXICON once in the environment),"
            ~ " or rebuild everything with `dbt build` (no --select)."
        ) }}
    {%- endif -%}
    {{ return(true) }}
{%- endmacro %}

{# Whether audit.input_sets exists (a plain query, see check_input_set). #}
{% macro input_set_table_exists() -%}
    {{- return(adapter.dispatch('input_set_table_exists', 'card_keeper')()) -}}
{%- endmacro %}

{% macro default__input_set_table_exists() -%}
    {{- return(run_query(
        "select count(*) from duckdb_tables()
        where schema_name = 'audit' and table_name = 'input_sets'"
    ).columns[0].values()[0] > 0) -}}
{%- endmacro %}

{#
    The on-run-start hook described at the top of this file: check_input_set(), one view per
    input table in schema raw, and on a full build the inputs it read in audit.input_sets.
#}
{% macro create_input_views() -%}
    {{- return(adapter.dispatch('create_input_views', 'card_keeper')()) -}}
{%- endmacro %}

{% macro default__create_input_views() -%}
    {%- if not execute -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set root = project_root() -%}
    {%- set inputs = {} -%}
    {%- for table_name, spec in input_contract().items() -%}
        {%- do inputs.update({table_name: input_path(spec, root)}) -%}
    {%- endfor -%}
    {%- do check_input_set(inputs) -%}
    {%- set statements = ['create schema if not exists raw'] -%}
    {%- for table_name, spec in input_contract().items() -%}
        {%- set plan = plan_chat_turn_files(inputs[table_name])
            if table_name == 'chat_turn' else {'statements': [], 'files': none} -%}
        {%- do statements.extend(plan.statements) -%}
        {%- if plan.files is not none and not plan.files -%}
            {#- An incremental build with no new chat_turn file: no rows to read. -#}
            {%- set reader = {
                'statements': ['drop table if exists raw.' ~ table_name ~ '__careful_rows'],
                'select': empty_input(spec),
            } -%}
        {%- elif inputs[table_name] -%}
            {%- set reader = read_input(table_name, spec, inputs[table_name], plan.files) -%}
        {%- else -%}
            {%- set reader = {
                'statements': ['drop table if exists raw.' ~ table_name ~ '__careful_rows'],
                'select': empty_input(spec),
            } -%}
        {%- endif -%}
        {%- do statements.extend(reader.statements) -%}
        {%- do statements.append(
            'create or replace view raw.' ~ table_name ~ ' as ' ~ reader.select
        ) -%}
    {%- endfor -%}
    {%- if selects_every_model() -%}
        {%- set values = [] -%}
        {%- for table_name, path in inputs.items() -%}
            {%- do values.append(
                '(' ~ sql_text(invocation_id) ~ ', current_timestamp::timestamp, '
                ~ sql_text(table_name) ~ ', ' ~ (sql_text(path) if path else 'null') ~ ')'
            ) -%}
        {%- endfor -%}
        {%- do statements.extend([
            'create schema if not exists audit',
            'create table if not exists audit.input_sets (invocation_id varchar,'
                ~ ' recorded_at timestamp, table_name varchar, input_path varchar)',
            'insert into audit.input_sets values ' ~ values | join(', '),
        ]) -%}
    {%- endif -%}
    {{ return(statements | join(';\n')) }}
{%- endmacro %}
