{#
    Typed parsing of normalised scalar text. Each returns null both for null and for an
    unparsable value; staging compares the text with the parsed value to tell them apart.
    - parse_boolean: true/false, t/f, 1/0, yes/no, y/n (any case). Every format goes through
      this one rule: a JSON or Parquet boolean reaches it as the text true / false, a JSON
      string as its own value.
    - parse_timestamp: ISO 8601 with or without an offset; an offset is converted to UTC.
    - parse_integer: a whole number written in decimal digits, with an optional sign.
#}
{% macro parse_boolean(expression) -%}
    case lower({{ expression }})
        when 'true' then true
        when 't' then true
        when '1' then true
        when 'yes' then true
        when 'y' then true
        when 'false' then false
        when 'f' then false
        when '0' then false
        when 'no' then false
        when 'n' then false
    end
{%- endmacro %}

{% macro parse_timestamp(expression) -%}
    cast(timezone('UTC', try_cast({{ expression }} as timestamptz)) as timestamp)
{%- endmacro %}

{% macro parse_integer(expression) -%}
    case
        when regexp_full_match({{ expression }}, '[+-]?[0-9]+')
            then try_cast({{ expression }} as bigint)
    end
{%- endmacro %}
