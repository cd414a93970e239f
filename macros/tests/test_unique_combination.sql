{#
    Generic test: no two rows share the same values in `columns` (a composite key).
    Returns the duplicated combinations.

    written_by: on a turn-store table (docs/rules.md#incremental-builds), the column naming the
    build that wrote each row (judged_by, _ingested_by). When the table holds rows of this
    build and of earlier ones, only the keys of this build's rows are checked, against every
    row: a key can only come twice when a build writes it, and the rows written earlier were
    checked by the build that wrote them. So an incremental build's grain test costs what its
    batch costs. A full build, or a `dbt test` on its own (which wrote nothing), checks every
    key, as without the argument.
#}
{% test unique_combination(model, columns, written_by=none) %}
    {%- set keys = columns | join(', ') -%}
    {%- set batch_only = execute and written_by is not none
        and has_rows(model, written_by ~ ' = ' ~ this_build())
        and has_rows(model, written_by ~ ' <> ' ~ this_build()) -%}
    {%- if batch_only %}
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

{#- Whether any row of `relation` meets `condition` (a query that stops at the first one). -#}
{% macro has_rows(relation, condition) -%}
    {{- return(run_query(
        'select 1 from ' ~ relation ~ ' where ' ~ condition ~ ' limit 1'
    ).rows | length > 0) -}}
{%- endmacro %}
