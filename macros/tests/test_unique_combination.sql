{#
    Generic test: no two rows share the same values in `columns` (a composite key).
    Returns the duplicated combinations.

    written_by: on a table kept across builds (docs/rules.md#incremental-builds), the column
    naming the build that wrote each row (judged_by, _ingested_by, recorded_by). A key can only
    come twice when a build writes it, and the rows written earlier were checked by the build
    that wrote them, so a `dbt build` checks the keys of the rows it wrote, against every row:
    its grain test costs what its batch costs, and nothing when it wrote no row (a build with
    no new turn). A full build wrote every row, so it checks every key; `dbt test` on its own
    wrote nothing and checks every key too, as without the argument. Rows of a column added
    to an older table (null) count as written earlier.
#}
{% test unique_combination(model, columns, written_by=none) %}
    {%- set keys = columns | join(', ') -%}
    {%- set scope = unique_combination_scope(model, written_by) -%}
    {%- if scope == 'none' %}
    -- This build wrote no row of {{ model }}: no key can have come twice since the last check.
    select {{ keys }}, count(*) as occurrences
    from {{ model }}
    where 1 = 0
    group by {{ keys }}
    {%- elif scope == 'written' %}
    with written as (
        select distinct {{ keys }}
        from {{ model }}
        where {{ written_by }} = {{ this_build() }}
    )

    select
        {% for column in columns %}stored.{{ column }}, {% endfor %}
        count(*) as occurrences
    from {{ model }} as stored
    inner join written
        on {% for column in columns -%}
            {{ 'and ' if not loop.first }}stored.{{ column }} = written.{{ column }}
        {% endfor %}
    group by {% for column in columns %}stored.{{ column }}{{ ', ' if not loop.last }}{% endfor %}
    having count(*) > 1
    {%- else %}
    select
        {{ keys }},
        count(*) as occurrences
    from {{ model }}
    group by {{ keys }}
    having count(*) > 1
    {%- endif %}
{% endtest %}

{#-
    Which keys unique_combination checks: 'all', 'written' (the keys of this build's rows) or
    'none' (a `dbt build` that wrote no row). Only `dbt build` narrows: the rows a `dbt test`
    reads were written by another invocation.
-#}
{% macro unique_combination_scope(model, written_by) -%}
    {%- if not execute or written_by is none or flags.WHICH != 'build' -%}
        {{- return('all') -}}
    {%- endif -%}
    {%- set wrote = has_rows(model, written_by ~ ' = ' ~ this_build()) -%}
    {%- if not wrote -%}
        {{- return('none') -}}
    {%- elif has_rows(model, written_by ~ ' is distinct from ' ~ this_build()) -%}
        {{- return('written') -}}
    {%- else -%}
        {{- return('all') -}}
    {%- endif -%}
{%- endmacro %}

{#- Whether any row of `relation` meets `condition` (a query that stops at the first one). -#}
{% macro has_rows(relation, condition) -%}
    {{- return(run_query(
        'select 1 from ' ~ relation ~ ' where ' ~ condition ~ ' limit 1'
    ).rows | length > 0) -}}
{%- endmacro %}
