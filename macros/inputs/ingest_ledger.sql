{#
    The ingest ledger of chat_turn (docs/rules.md#incremental-builds). Chat logs only grow, one
    file a day or so: a build reads only the files of input_chat_turn that no earlier build of
    this database ingested, so parsing costs what the new files cost. The ledger,
    audit.ingested_files, holds each ingested file's path, size and modification time; the
    build's plan, audit.chat_turn_files, lists every file the input names now and every file
    ingested before, each with its status:

    - `new`: not ingested yet; this build reads it.
    - `ingested`: ingested before, same size and modification time; not read again.
    - `changed`: ingested before, but its size or modification time differs now. Its rows are
      kept as they were ingested, the file is not read a second time, and the build warns.
    - `missing`: ingested before, and the input no longer names it (deleted, moved, or the var
      now names other files). Its rows are kept, and the build warns.

    Only `dbt build --full-refresh` (or a database with no ledger yet) reads every file again,
    and starts the ledger anew. The same on DuckDB and on Spark (Parquet tables in `audit`). The other inputs (cards, lexicon, golden labels, LLM summaries)
    are small and are read whole on every build: they are rules and labels, not logs.
    base_chat_logs__turns records the new files in the ledger in its own transaction
    (record_ingested_files), so a build that fails before it leaves them `new`.
#}
{% macro plan_chat_turn_files(path) -%}
    {{- return(adapter.dispatch('plan_chat_turn_files', 'card_keeper')(path)) -}}
{%- endmacro %}

{#- Whether schema.table exists on Spark. -#}
{% macro spark_table_exists(schema, table) -%}
    {%- if run_query("show databases like '" ~ schema ~ "'").rows | length == 0 -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(run_query("show tables in " ~ schema ~ " like '" ~ table ~ "'").rows | length > 0) }}
{%- endmacro %}

{#- Whether this database's ledger and turn store exist: {ledger, store}. -#}
{% macro ingest_tables_exist() -%}
    {{- return(adapter.dispatch('ingest_tables_exist', 'card_keeper')()) -}}
{%- endmacro %}

{% macro default__ingest_tables_exist() -%}
    {%- set found = run_query(
        "select
            count(*) filter (where schema_name = 'audit' and table_name = 'ingested_files'),
            count(*) filter (where schema_name = 'staging' and table_name = 'base_chat_logs__turns')
        from duckdb_tables()"
    ).rows[0] -%}
    {{ return({'ledger': found[0] > 0, 'store': found[1] > 0}) }}
{%- endmacro %}

{% macro spark__ingest_tables_exist() -%}
    {{ return({
        'ledger': spark_table_exists('audit', 'ingested_files'),
        'store': spark_table_exists('staging', 'base_chat_logs__turns'),
    }) }}
{%- endmacro %}

{#- The files a glob names, with size and modification time: file_path, file_size, modified_at. -#}
{% macro ledger_file_listing(path) -%}
    {{- return(adapter.dispatch('ledger_file_listing', 'card_keeper')(path)) -}}
{%- endmacro %}

{% macro duckdb__ledger_file_listing(path) -%}
    {{- return("select filename as file_path, size as file_size,"
        ~ " cast(last_modified as timestamp) as modified_at from read_blob(" ~ sql_text(path) ~ ")") -}}
{%- endmacro %}

{% macro spark__ledger_file_listing(path) -%}
    {{- return("select " ~ spark_file_path('path', false) ~ " as file_path, length as file_size,"
        ~ " cast(modificationTime as timestamp) as modified_at from binaryFile.`" ~ path ~ "`") -}}
{%- endmacro %}

{#- How a table the hooks create is stored: DuckDB's own, Parquet on Spark. -#}
{% macro table_storage_clause() -%}
    {{- return(' using parquet' if target.type == 'spark' else '') -}}
{%- endmacro %}

{#- The statements that replace a table by a query's rows. -#}
{% macro replace_table_statements(name, query) -%}
    {%- if target.type == 'spark' -%}
        {{ return([
            'drop table if exists ' ~ name,
            'create table ' ~ name ~ table_storage_clause() ~ ' as ' ~ query,
        ]) }}
    {%- endif -%}
    {{ return(['create or replace table ' ~ name ~ ' as ' ~ query]) }}
{%- endmacro %}

{#
    Returns {statements, files}: the statements that write the plan (run before the raw views
    are created), and the files to read (none: every file the input names). A full build plans
    every file `new`; the ledger is then replaced when base_chat_logs__turns records them.
#}
{% macro default__plan_chat_turn_files(path) -%}
    {%- set existing = ingest_tables_exist() -%}
    {%- set ledger_exists, store_exists = existing.ledger, existing.store -%}
    {%- set incremental = ledger_exists and store_exists and not flags.FULL_REFRESH -%}
    {%- set text, stored_as = text_type(), table_storage_clause() -%}
    {%- set statements = [
        'create schema if not exists audit',
        'create table if not exists audit.ingested_files (input_table ' ~ text ~ ', file_path '
            ~ text ~ ', file_size bigint, modified_at timestamp, ingested_by ' ~ text ~ ','
            ~ ' ingested_at timestamp)' ~ stored_as,
        'create table if not exists audit.finished_batches (invocation_id ' ~ text ~ ','
            ~ ' finished_at timestamp)' ~ stored_as,
    ] -%}
    {%- if store_exists and not ledger_exists and not flags.FULL_REFRESH -%}
        {#- A turn store without a ledger (a database built before there was one): which files
            it holds is unknown, and appending them again would make every turn a duplicate.
            The tables cannot be dropped here (dbt has cached them as existing), so the build
            stops before any model runs and says what to do. -#}
        {{ exceptions.raise_compiler_error(
            "input_chat_turn: this database (" ~ (target.path or target.schema) ~ ") holds turns but no ingest "
            ~ "ledger: it was built before builds became incremental. Run `dbt build "
            ~ "--full-refresh` once; later builds read only new files "
            ~ "(docs/rules.md#incremental-builds)."
        ) }}
    {%- endif -%}
    {%- set listing = ledger_file_listing(path) -%}
    {%- set previous = "select file_path, file_size, modified_at, ingested_by, ingested_at"
        ~ " from audit.ingested_files where input_table = 'chat_turn'"
        if incremental else "select cast(null as " ~ text ~ ") as file_path,"
        ~ " cast(null as bigint) as file_size, cast(null as timestamp) as modified_at,"
        ~ " cast(null as " ~ text ~ ") as ingested_by, cast(null as timestamp) as ingested_at"
        ~ " where false" -%}
    {%- do statements.extend(replace_table_statements('audit.chat_turn_files',
        "with listed as (" ~ listing ~ "),
        previous as (" ~ previous ~ ")
        select
            'chat_turn' as input_table,
            coalesce(listed.file_path, previous.file_path) as file_path,
            case
                when previous.file_path is null then 'new'
                when listed.file_path is null then 'missing'
                when listed.file_size is distinct from previous.file_size
                    or listed.modified_at is distinct from previous.modified_at then 'changed'
                else 'ingested'
            end as file_status,
            listed.file_size,
            listed.modified_at,
            previous.file_size as ingested_file_size,
            previous.modified_at as ingested_modified_at,
            previous.ingested_by,
            previous.ingested_at,
            " ~ sql_text('incremental' if incremental else 'full') ~ " as build_mode,
            " ~ sql_text(invocation_id) ~ " as planned_by
        from listed
        full outer join previous
            on listed.file_path = previous.file_path"
    )) -%}
    {%- if not incremental -%}
        {{ return({'statements': statements, 'files': none}) }}
    {%- endif -%}
    {#- The plan is needed now, to know which files to read: run it here. -#}
    {%- for statement in statements -%}
        {%- do run_query(statement) -%}
    {%- endfor -%}
    {%- set planned = run_query(
        "select file_path, file_status, file_size, ingested_file_size, modified_at,
            ingested_modified_at
        from audit.chat_turn_files order by file_path"
    ) -%}
    {%- set files = [] -%}
    {%- for file, status, size, ingested_size, modified, ingested_modified in planned.rows -%}
        {%- if status == 'new' -%}
            {%- do files.append(file) -%}
        {%- elif status == 'changed' -%}
            {%- do exceptions.warn(
                "input_chat_turn: " ~ file ~ " changed since it was ingested (size "
                ~ ingested_size ~ " -> " ~ size ~ ", modified " ~ ingested_modified ~ " -> "
                ~ modified ~ "); its rows are kept as ingested and it is not read again. "
                ~ "To read it anew, run `dbt build --full-refresh` (marts.fct_ingested_files)"
            ) -%}
        {%- elif status == 'missing' -%}
            {%- do exceptions.warn(
                "input_chat_turn: " ~ file ~ " was ingested earlier but the input no longer "
                ~ "names it; its turns are kept. To drop them, run `dbt build --full-refresh`"
                ~ " (marts.fct_ingested_files)"
            ) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do log(
        "input_chat_turn: " ~ files | length ~ " new file(s) to ingest, "
        ~ (planned.rows | length - files | length) ~ " ingested or reported earlier",
        info=true
    ) -%}
    {{ return({'statements': [], 'files': files}) }}
{%- endmacro %}

{#
    base_chat_logs__turns' post-hook: the files this build read enter the ledger, in the
    model's own transaction. A full build replaces the ledger.
#}
{% macro record_ingested_files() -%}
    {{- return(adapter.dispatch('record_ingested_files', 'card_keeper')()) -}}
{%- endmacro %}

{#- Spark runs one statement a hook: a full build overwrites the ledger, others append. -#}
{% macro spark__record_ingested_files() -%}
    {%- set is_full = execute and run_query(
        "select count(*) from audit.chat_turn_files where build_mode = 'full'"
    ).columns[0].values()[0] > 0 -%}
    insert {{ 'overwrite table' if is_full else 'into' }} audit.ingested_files
    {{ newly_ingested_files() }}
{%- endmacro %}

{% macro default__record_ingested_files() -%}
    delete from audit.ingested_files
    where
        input_table = 'chat_turn'
        and (select any_value(build_mode) from audit.chat_turn_files) = 'full';
    insert into audit.ingested_files
    {{ newly_ingested_files() }}
{%- endmacro %}

{#- The ledger rows of the files this build read: those its plan calls new. -#}
{% macro newly_ingested_files() -%}
    select
        input_table,
        file_path,
        file_size,
        modified_at,
        planned_by as ingested_by,
        cast(current_timestamp as timestamp) as ingested_at
    from audit.chat_turn_files
    where file_status = 'new'
{%- endmacro %}
