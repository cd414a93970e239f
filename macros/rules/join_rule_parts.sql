{#
    rule_expected / rule_observed (docs/rules.md#tone): "{register} · {first person}" with a space,
    U+00B7 and a space between; a null part is left out, and both null gives null.
#}
{% macro join_rule_parts(register_expression, first_person_expression) -%}
    case
        when {{ register_expression }} is not null and {{ first_person_expression }} is not null
            then {{ register_expression }} || ' · ' || {{ first_person_expression }}
        else coalesce({{ register_expression }}, {{ first_person_expression }})
    end
{%- endmacro %}
