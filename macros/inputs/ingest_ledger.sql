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
    and starts the ledger anew. The other inputs (cards, lexicon, golden labels, LLM summaries)
    are small and are read whole on every build: they are rules and labels, not logs.
    base_chat_logs__turns records the new files in the ledger in its own transaction
    (record_ingested_files), so a build that fails before it leaves them `new`.
#}
{% macro plan_chat_turn_files(path) -%}
    {{- return(adapter.dispatch('plan_chat_turn_files', 'card_keeper')(path)) -}}
{%- endmacro %}

{#- Spark builds read every file on every build: no ledger. -#}
{% macro spark__plan_chat_turn_files(path) -%}
    {{- return({'statements': [], 'files': none}) -}}
{%- endmacro %}

{#
    Returns {statements, files}: the statements that write the plan (run before the raw views
    are created), and the files to read (none: every file the input names). A full build plans
    every file `new`; the ledger is then replaced when base_chat_logs__turns records them.
#}
{% macro default__plan_chat_turn_files(path) -%}
    {%- set ledger_exists = run_query(
        "select count(*) from duckdb_tables()
        where schema_name = 'audit' and table_name = 'ingested_files'"
    ).columns[0].values()[0] > 0 -%}
    {%- set store_exists = run_query(
        "select count(*) from duckdb_tables()
        where schema_name = 'staging' and table_name = 'base_chat_logs__turns'"
    ).columns[0].values()[0] > 0 -%}
    {%- set incremental = ledger_exists and store_exists and not flags.FULL_REFRESH -%}
    {%- set statements = [
        'create schema if not exists audit',
        'create table if not exists audit.ingested_files (input_table varchar, file_path varchar,'
            ~ ' file_size bigint, modified_at timestamp, ingested_by varchar,'
            ~ ' ingested_at timestamp)',
        'create table if not exists audit.finished_batches (invocation_id varchar,'
            ~ ' finished_at timestamp)',
    ] -%}
    {%- if store_exists and not ledger_exists and not flags.FULL_REFRESH -%}
        {#- A turn store without a ledger (a database built before there was one): which files
            it holds is unknown, and appending them again would make every turn a duplicate.
            The tables cannot be dropped here (dbt has cached them as existing), so the build
            stops before any model runs and says what to do. -#}
        {{ exceptions.raise_compiler_error(
            "input_chat_turn: this database (" ~ target.path ~ ") holds turns but no ingest "
            ~ "ledger: it was built before builds became incremental. Run `dbt build "
            ~ "--full-refresh` once; later builds read only new files "
            ~ "(docs/rules.md#incremental-builds)."
        ) }}
    {%- endif -%}
    {%- set listing = "select filename as file_path, size as file_size,"
        ~ " cast(last_modified as timestamp) as modified_at from read_blob(" ~ sql_text(path) ~ ")" -%}
    {%- set previous = "select file_path, file_size, modified_at, ingested_by, ingested_at"
        ~ " from audit.ingested_files where input_table = 'chat_turn'"
        if incremental else "select null::varchar as file_path, null::bigint as file_size,"
        ~ " null::timestamp as modified_at, null::varchar as ingested_by,"
        ~ " null::timestamp as ingested_at where false" -%}
    {%- do statements.append(
        "create or replace table audit.chat_turn_files as
        with listed as (" ~ listing ~ "),
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
            on listed.file_path = previous.file_path
        order by file_path"
    ) -%}
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

{% macro spark__record_ingested_files() -%}
    {{- return('') -}}
{%- endmacro %}

{% macro default__record_ingested_files() -%}
    delete from audit.ingested_files
    where
        input_table = 'chat_turn'
        and (select any_value(build_mode) from audit.chat_turn_files) = 'full';
    insert into audit.ingested_files
    select
        input_table,
        file_path,
        file_size,
        modified_at,
        planned_by as ingested_by,
        current_timestamp::timestamp as ingested_at
    from audit.chat_turn_files
    where file_status = 'new'
{%- endmacro %}
