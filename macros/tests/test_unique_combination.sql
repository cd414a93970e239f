{#
    Generic test: no two rows share the same values in `columns` (a composite key).
    Returns the duplicated combinations.
#}
{% test unique_combination(model, columns) %}
    select
        {{ columns | join(', ') }},
        count(*) as occurrences
    from {{ model }}
    group by {{ columns | join(', ') }}
    having count(*) > 1
{% endtest %}
