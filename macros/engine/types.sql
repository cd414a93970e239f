{#
    Type names that differ between the engines: DuckDB's varchar (a bare `varchar` cast is an
    error on Spark, which wants `string`) and lists of text.
#}

{# The text type, for casts. #}
{% macro text_type() -%}
    {{- adapter.dispatch('text_type', 'card_keeper')() -}}
{%- endmacro %}

{% macro duckdb__text_type() -%}
    varchar
{%- endmacro %}

{% macro spark__text_type() -%}
    string
{%- endmacro %}

{# The type of a list of texts, for casts. #}
{% macro text_list_type() -%}
    {{- adapter.dispatch('text_list_type', 'card_keeper')() -}}
{%- endmacro %}

{% macro duckdb__text_list_type() -%}
    varchar[]
{%- endmacro %}

{% macro spark__text_list_type() -%}
    array<string>
{%- endmacro %}

{#
    Whether a mart's contract is enforced on this engine. The contracts name DuckDB's types
    (varchar, varchar[], struct(…)[], json), which Spark cannot cast to; on Spark the marts
    still cast every column to its type explicitly, but dbt does not compare them.
#}
{% macro contract_enforced() -%}
    {{ return(adapter.dispatch('contract_enforced', 'card_keeper')()) }}
{%- endmacro %}

{% macro duckdb__contract_enforced() -%}
    {{ return(true) }}
{%- endmacro %}

{% macro spark__contract_enforced() -%}
    {{ return(false) }}
{%- endmacro %}
