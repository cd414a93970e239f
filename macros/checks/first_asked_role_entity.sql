{#
    Check 6's asked entity: the entity of the first entry of the card's `roles` (a list of
    {role, entity} structs, in card order) whose role word `message` contains; null when none.
    DuckDB's lists count from 1, Spark's arrays from 0 (past the end is null with ANSI off).
#}
{% macro first_asked_role_entity(roles, message) -%}
    {{- return(adapter.dispatch('first_asked_role_entity', 'card_keeper')(roles, message)) -}}
{%- endmacro %}

{% macro duckdb__first_asked_role_entity(roles, message) -%}
    struct_extract(
            list_filter(
                {{ roles }},
                -- entry is the lambda's parameter, not a column.
                lambda entry: contains(
                    {{ message }}, struct_extract(entry, 'role')  -- noqa: RF02
                )
            )[1],
            'entity'
        )
{%- endmacro %}

{% macro spark__first_asked_role_entity(roles, message) -%}
    filter({{ roles }}, entry -> contains({{ message }}, entry.role))[0].entity
{%- endmacro %}
