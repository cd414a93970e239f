{#
    A list of {column_name, reason_code, raw_value} structs, one per check whose condition
    holds: checks is a list of dicts with SQL expressions 'condition', 'reason' and 'raw', and
    a literal 'column'. An empty list means the row passed every check.
#}
{% macro collect_violations(checks) -%}
    {{- adapter.dispatch('collect_violations', 'card_keeper')(checks) -}}
{%- endmacro %}

{% macro default__collect_violations(checks) -%}
    list_filter(
        [
            {%- for check in checks %}
            case
                when {{ check.condition }}
                    then {
                        'column_name': '{{ check.column }}',
                        'reason_code': {{ check.reason }},
                        'raw_value': cast({{ check.raw }} as varchar)
                    }
            end{{ ',' if not loop.last }}
            {%- endfor %}
        ],
        lambda violation: violation is not null
    )
{%- endmacro %}
