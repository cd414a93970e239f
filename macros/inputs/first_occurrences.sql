{#
    For each key value that occurs more than once in `relation`, the (_source_file,
    _source_row) of its first occurrence in file order: every other row with that key is a
    duplicate to quarantine. Aggregating keys is far cheaper than a window that sorts whole
    rows, and only duplicated keys come out, so the join back is small.
#}
{% macro first_occurrences(relation, key) -%}
    select
        {{ key }} as duplicated_key,
        min({'source_file': _source_file, 'source_row': _source_row}) as first_occurrence
    from {{ relation }}
    where {{ key }} is not null
    group by {{ key }}
    having count(*) > 1
{%- endmacro %}

{# Whether a row of `alias` is a later occurrence of a key listed by first_occurrences(). #}
{% macro is_later_occurrence(alias, duplicates_alias) -%}
    (
        {{ duplicates_alias }}.duplicated_key is not null
        and {'source_file': {{ alias }}._source_file, 'source_row': {{ alias }}._source_row}
        <> {{ duplicates_alias }}.first_occurrence
    )
{%- endmacro %}
