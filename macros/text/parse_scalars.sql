{#
    Typed parsing of normalised scalar text. Each returns null both for null and for an
    unparsable value; staging compares the text with the parsed value to tell them apart.
    - parse_boolean: true/false, t/f, 1/0, yes/no, y/n (any case). Every format goes through
      this one rule: a JSON or Parquet boolean reaches it as the text true / false, a JSON
      string as its own value.
    - parse_timestamp: ISO 8601 with or without an offset; an offset is converted to UTC.
      Whatever its year: staging quarantines a year outside timestamp_in_range() as
      out_of_range_timestamp.
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

{#
    The UTC timestamp a text names, whatever its year; null when it names none. The text
    must start with its year's digits: DuckDB also reads the words 'epoch', 'infinity' and
    '-infinity' as timestamps, and none of them is a time a reply was written (they are
    unparsable_timestamp, like any other word).
#}
{% macro parse_timestamp(expression) -%}
    {{- adapter.dispatch('parse_timestamp', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__parse_timestamp(expression) -%}
    case
        when regexp_matches({{ expression }}, '^[0-9]')
            then cast(timezone('UTC', try_cast({{ expression }} as timestamptz)) as timestamp)
    end
{%- endmacro %}

{#
    Whether a parsed timestamp lies in the accepted years, 1900 to 9999 (UTC): the later
    steps, the export and the dashboard hand timestamps to Python, whose datetime stops at
    year 9999 (a year 99999 or a date BC cannot be shown or exported), and a chat log written
    before 1900 is a placeholder (0001-01-01) or a typo, not a reply. Null gives null.
#}
{% macro timestamp_in_range(timestamp_expression) -%}
    year({{ timestamp_expression }}) between 1900 and 9999
{%- endmacro %}

{#
    Whether a text names a date before the common era with an era marker ('0044-03-15 BC',
    '0044-03-15 (BC)'). DuckDB reads only the second form, so the marker is looked for in the
    text: any such date is out of range.
#}
{% macro names_date_before_common_era(expression) -%}
    {{- adapter.dispatch('names_date_before_common_era', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__names_date_before_common_era(expression) -%}
    regexp_matches({{ expression }}, '^[0-9].*\b[Bb][Cc]\b')
{%- endmacro %}

{% macro parse_integer(expression) -%}
    {{- adapter.dispatch('parse_integer', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__parse_integer(expression) -%}
    case
        when regexp_full_match({{ expression }}, '[+-]?[0-9]+')
            then try_cast({{ expression }} as bigint)
    end
{%- endmacro %}
