{#
    on-run-end: which verdict rows this build's checks of the checked turns read: the
    singular tests that depend on the macro checked_turn or on its table int_turns_to_check
    (the ten seed-000 checks, tests/marts/assert_check_*, and
    assert_skipped_checks_match_check_table). They read the turns it judged and the sample of
    older ones, which int_turns_to_check lists. One log line, and one row in
    audit.check_coverage, so that a check passing on an incremental build is never read as a
    check of every row.
#}
{% macro log_check_coverage(results) -%}
    {{- return(adapter.dispatch('log_check_coverage', 'card_keeper')(results)) -}}
{%- endmacro %}

{#- Whether the verdicts and the checked turns exist (a build that failed early has neither). -#}
{% macro checked_tables_exist() -%}
    {{- return(adapter.dispatch('checked_tables_exist', 'card_keeper')()) -}}
{%- endmacro %}

{% macro duckdb__checked_tables_exist() -%}
    {{ return(run_query(
        "select count(*) from duckdb_tables() where (schema_name, table_name) in"
        ~ " (('marts', 'fct_turn_verdicts'), ('intermediate', 'int_turns_to_check'),"
        ~ " ('intermediate', 'int_turns_to_judge'))"
    ).columns[0].values()[0] == 3) }}
{%- endmacro %}

{% macro spark__checked_tables_exist() -%}
    {{ return(spark_table_exists('marts', 'fct_turn_verdicts')
        and spark_table_exists('intermediate', 'int_turns_to_check')
        and spark_table_exists('intermediate', 'int_turns_to_judge')) }}
{%- endmacro %}

{% macro default__log_check_coverage(results) -%}
    {%- set checks = [] -%}
    {#- Singular tests only: the grain tests of int_turns_to_check depend on it too. -#}
    {%- for result in results
        if result.node.resource_type == 'test'
            and not result.node.test_metadata
            and result.status != 'skipped'
            and ('macro.' ~ project_name ~ '.checked_turn' in result.node.depends_on.macros
                or 'model.' ~ project_name ~ '.int_turns_to_check' in result.node.depends_on.nodes) -%}
        {%- do checks.append(result.node.name) -%}
    {%- endfor -%}
    {%- if not execute or not checks -%}
        {{ return('select 1') }}
    {%- endif -%}
    {#- A build that failed before the verdicts or the batch existed has nothing to count. -#}
    {%- if not checked_tables_exist() -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set counted = run_query(
        "select
            count(batch.turn_id),
            count(*) - count(batch.turn_id),
            (select count(*) from marts.fct_turn_verdicts)
        from intermediate.int_turns_to_check as checked
        left join intermediate.int_turns_to_judge as batch
            on checked.turn_id = batch.turn_id"
    ).rows[0] -%}
    {%- set written, sampled, total = counted[0], counted[1], counted[2] -%}
    {%- do log(
        "Checks of the verdicts (" ~ checks | length ~ ") read " ~ (written + sampled) ~ " of " ~ total
        ~ " verdict rows: the " ~ written ~ " of the turns this build judged"
        ~ (" and a " ~ var('recheck_older_share') ~ " sample (" ~ sampled ~ ") of the "
            ~ (total - written) ~ " older rows" if total > written else "")
        ~ " (docs/rules.md#incremental-builds)",
        info=true
    ) -%}
    {%- set text = text_type() -%}
    {%- for statement in [
        'create schema if not exists audit',
        'create table if not exists audit.check_coverage (invocation_id ' ~ text ~ ','
            ~ ' checked_at timestamp, check_count integer, rows_written bigint,'
            ~ ' rows_sampled bigint, rows_total bigint)' ~ table_storage_clause(),
        'insert into audit.check_coverage values (' ~ this_build() ~ ', current_timestamp, '
            ~ checks | length ~ ', ' ~ written ~ ', ' ~ sampled ~ ', ' ~ total ~ ')',
    ] -%}
        {%- do run_query(statement) -%}
    {%- endfor -%}
    {{ return('select 1') }}
{%- endmacro %}
