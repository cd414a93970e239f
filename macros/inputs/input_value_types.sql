{#
    One typing rule for every format (docs/rules.md#typing-rules). Staging sees every
    value as text; these macros let the readers of typed formats (JSON Lines, a JSON array,
    Parquet) hand it over by the same rule a CSV cell follows:
    - json_value_text: a JSON string is its own value, never its JSON text (`T-1`, not
      `"T-1"`); any other JSON value is its JSON text (`true`, `3`, `["리안"]`).
    - wrong_type_ids_*: the id columns of the contract (`'id': true`) whose value in a row is
      neither a string nor an integer (a JSON object, array, boolean or fraction; a Parquet
      double, boolean, timestamp, list, …), as a list of column names, null when there is
      none. Staging quarantines each as id_not_string_or_integer. A CSV cell is always a
      string, so a CSV reader has none.
#}
{% macro json_value_text(expression) -%}
    {{- adapter.dispatch('json_value_text', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__json_value_text(expression) -%}
    case
        when starts_with({{ expression }}, '"') then {{ expression }} ->> '$'
        else cast({{ expression }} as varchar)
    end
{%- endmacro %}

{# The id columns of a table's contract. #}
{% macro id_column_names(spec) -%}
    {%- set names = [] -%}
    {%- for column in spec.columns if column.get('id') -%}
        {%- do names.append(column.name) -%}
    {%- endfor -%}
    {{ return(names) }}
{%- endmacro %}

{# A list of the column names whose condition holds, null when none does. #}
{% macro names_where(conditions) -%}
    {{- adapter.dispatch('names_where', 'card_keeper')(conditions) -}}
{%- endmacro %}

{% macro default__names_where(conditions) -%}
    {%- if conditions -%}
        nullif(
            list_filter(
                [
                    {%- for name, condition in conditions.items() %}
                    case when {{ condition }} then '{{ name }}' end{{ ',' if not loop.last }}
                    {%- endfor %}
                ],
                lambda name: name is not null
            ),
            []
        )
    {%- else -%}
        cast(null as varchar[])
    {%- endif -%}
{%- endmacro %}

{# Whether a JSON value is a string or an integer (or null: a missing value). #}
{% macro is_string_or_integer_json(expression) -%}
    coalesce(json_type({{ expression }}) in ('VARCHAR', 'BIGINT', 'UBIGINT', 'NULL'), true)
{%- endmacro %}

{#
    wrong_type_ids for a reader whose columns have the DuckDB types `found` (name -> type):
    a VARCHAR or integer column holds only strings or integers, a JSON column is told value
    by value, and any other type (DOUBLE, BOOLEAN, TIMESTAMP, a list, a struct) holds none.
#}
{% macro wrong_type_ids(spec, found) -%}
    {%- set integer_types = [
        'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT',
        'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT',
    ] -%}
    {%- set conditions = {} -%}
    {%- for name in id_column_names(spec) if name in found -%}
        {%- if found[name] == 'JSON' -%}
            {%- do conditions.update({name: 'not ' ~ is_string_or_integer_json(name)}) -%}
        {%- elif found[name] != 'VARCHAR' and found[name] not in integer_types -%}
            {%- do conditions.update({name: name ~ ' is not null'}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ names_where(conditions) }}
{%- endmacro %}

{#
    wrong_type_ids for JSON Lines, whose ids `record` holds as VARCHAR (json_transform gives a
    string's value and any other value's JSON text). Only a text that a non-string could have
    made (an object or array, true / false, a number with a fraction or an exponent, or more
    digits than a 64-bit integer holds) has its JSON type looked up in the `line`: the ids of
    almost every line pass one regular expression and are never parsed again.
#}
{% macro wrong_type_ids_of_json_lines(spec, record, line) -%}
    {{- adapter.dispatch('wrong_type_ids_of_json_lines', 'card_keeper')(spec, record, line) -}}
{%- endmacro %}

{% macro default__wrong_type_ids_of_json_lines(spec, record, line) -%}
    {%- set names = id_column_names(spec) -%}
    {%- set conditions = {} -%}
    {%- for name in names -%}
        {%- do conditions.update({
            name: 'not ' ~ is_string_or_integer_json(
                'json_extract(' ~ line ~ ", '$." ~ name ~ "')"
            )
        }) -%}
    {%- endfor -%}
    case
        when
            {%- for name in names %}
            regexp_full_match(
                {{ record }}.{{ name }},
                '[\[{].*|true|false|-?[0-9]+(?:[.eE].*|[0-9]{18,})'
            ){{ ' or' if not loop.last }}
            {%- endfor %}
            then {{ names_where(conditions) }}
    end
{%- endmacro %}
