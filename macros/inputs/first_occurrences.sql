{#
    For each key value that occurs more than once in `relation`, the (_source_file,
    _source_row) of its first occurrence in file order: every other row with that key is a
    duplicate to quarantine. Aggregating keys is far cheaper than a window that sorts whole
    rows, and only duplicated keys come out, so is_later_occurrence() tests against few.
#}
{% macro first_occurrences(relation, key) -%}
    {{- adapter.dispatch('first_occurrences', 'card_keeper')(relation, key) -}}
{%- endmacro %}

{% macro default__first_occurrences(relation, key) -%}
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
    `duplicates` (the CTE's name): its key is duplicated, and its own (_source_file,
    _source_row) is not the first occurrence of any duplicated key (a row's position is
    unique, so that is its own key's first occurrence). Two uncorrelated IN tests: DuckDB
    builds both hash tables on the few duplicated keys. A correlated EXISTS made it first
    deduplicate every input row's (key, file, row), and a left join let the optimiser build
    its hash table on the whole input, which ran out of memory at four million turns.
#}
{% macro is_later_occurrence(alias, duplicates, key) -%}
    {{- adapter.dispatch('is_later_occurrence', 'card_keeper')(alias, duplicates, key) -}}
{%- endmacro %}

{% macro default__is_later_occurrence(alias, duplicates, key) -%}
    (
        coalesce(
            {{ alias }}.{{ key }} in (select {{ duplicates }}.duplicated_key from {{ duplicates }}),
            false
        )
        and not coalesce(
            {'source_file': {{ alias }}._source_file, 'source_row': {{ alias }}._source_row}
            in (select {{ duplicates }}.first_occurrence from {{ duplicates }}),
            false
        )
    )
{%- endmacro %}
