{#
    For each key value that occurs more than once in `relation`, the (_source_file,
    _source_row) of its first occurrence in file order: every other row with that key is a
    duplicate to quarantine. Aggregating keys is far cheaper than a window that sorts whole
    rows, and only duplicated keys come out, so is_later_occurrence() tests against few.
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

{#
    Whether a row of `alias` is a later occurrence of a key listed by first_occurrences() in
    `duplicates` (the CTE's name), as an EXISTS test: DuckDB then always builds its hash table
    on the few duplicated keys. A left join to them let the optimiser build it on the whole
    input instead, which ran out of memory at four million turns.
#}
{% macro is_later_occurrence(alias, duplicates, key) -%}
    exists (
        select 1
        from {{ duplicates }}
        where
            {{ duplicates }}.duplicated_key = {{ alias }}.{{ key }}
            and {{ duplicates }}.first_occurrence
            <> {'source_file': {{ alias }}._source_file, 'source_row': {{ alias }}._source_row}
    )
{%- endmacro %}
