{#
    Whether an input row broke no rule of the input contract: `violations` is its _violations
    list, empty for a clean row (a null list, which no base model writes, is not clean, as
    with len() = 0). Each staging model keeps its clean rows by it. On DuckDB it asks whether
    the list has a first element. Written as a comparison, len(_violations) = 0, it makes
    DuckDB's planner guess that a fifth of the rows pass, where nearly all do: it took the 11M
    staged turns of the benchmark for 2.2M (the card filter took another fifth), and joined a
    check's 120,000 cited turns by hashing all of staging (docs/performance.md). It makes no
    such guess for an is-null test.
#}
{% macro has_no_violations(violations) -%}
    {{- adapter.dispatch('has_no_violations', 'card_keeper')(violations) -}}
{%- endmacro %}

{% macro default__has_no_violations(violations) -%}
    ({{ violations }} is not null and {{ violations }}[1] is null)
{%- endmacro %}
