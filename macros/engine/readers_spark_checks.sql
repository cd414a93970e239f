{#
    Spark SQL for the staging checks of macros/inputs/ (collect_violations, first_occurrences,
    is_later_occurrence, has_clean_card, names_where, wrong_type_ids_of_json_lines); their
    comments there say what each computes. Spark takes IN / EXISTS subqueries only in a
    filter, so the two membership tests are a window and a scalar subquery here.
#}

{% macro spark__collect_violations(checks) -%}
    filter(
        array(
            {%- for check in checks %}
            case
                when {{ check.condition }}
                    then named_struct(
                        'column_name', '{{ check.column }}',
                        'reason_code', {{ check.reason }},
                        'raw_value', cast({{ check.raw }} as string)
                    )
            end{{ ',' if not loop.last }}
            {%- endfor %}
        ),
        violation -> violation is not null
    )
{%- endmacro %}

{% macro spark__first_occurrences(relation, key) -%}
    select
        {{ key }} as duplicated_key,
        min(named_struct('source_file', _source_file, 'source_row', _source_row))
            as first_occurrence
    from {{ relation }}
    where {{ key }} is not null
    group by {{ key }}
    having count(*) > 1
{%- endmacro %}

{#
    A later occurrence is a row whose key an earlier row (in file, then line order) has: the
    same rows first_occurrences() + the IN tests find on DuckDB, with one window.
#}
{% macro spark__is_later_occurrence(alias, duplicates, key) -%}
    (
        {{ alias }}.{{ key }} is not null
        and row_number() over (
            partition by {{ alias }}.{{ key }}
            order by {{ alias }}._source_file, {{ alias }}._source_row
        ) > 1
    )
{%- endmacro %}

{# The clean cards' ids as one array (a scalar subquery: a few cards), then a lookup. #}
{% macro spark__has_clean_card(character_id, clean_cards) -%}
    coalesce(
        array_contains(
            (
                select collect_set(clean_cards.character_id)
                from {{ clean_cards }} as clean_cards
            ),
            {{ character_id }}
        ),
        false
    )
{%- endmacro %}

{% macro spark__names_where(conditions) -%}
    {%- if conditions -%}
        nullif(
            filter(
                array(
                    {%- for name, condition in conditions.items() %}
                    case when {{ condition }} then '{{ name }}' end{{ ',' if not loop.last }}
                    {%- endfor %}
                ),
                name -> name is not null
            ),
            cast(array() as array<string>)
        )
    {%- else -%}
        cast(null as array<string>)
    {%- endif -%}
{%- endmacro %}

{#
    wrong_type_ids for JSON Lines on Spark: `record` holds each id as from_json's text (a
    string's value, any other value's JSON text). Only an id that a non-string could have made
    (the pattern of the DuckDB macro) has its JSON type read from the line as a VARIANT: a
    string, a 64-bit integer or null is fine. A VARIANT keeps an integer past 64 bits as a
    DECIMAL(…, 0), as it does a number written with a fraction (5.0), so an unsigned 64-bit
    integer (DuckDB's UBIGINT, fine there) is recognised by its digits.
#}
{% macro spark__wrong_type_ids_of_json_lines(spec, record, line) -%}
    {%- set names = id_column_names(spec) -%}
    {%- set conditions = {} -%}
    {%- for name in names -%}
        {%- set kind = "schema_of_variant(variant_get(try_parse_json(" ~ line ~ "), '$."
            ~ name ~ "'))" -%}
        {%- do conditions.update({
            name: 'not coalesce(' ~ kind ~ " in ('STRING', 'BIGINT', 'VOID') or ("
                ~ record ~ '.' ~ name ~ " rlike '^[0-9]{19,20}$' and try_cast(" ~ record ~ '.'
                ~ name ~ ' as decimal(20, 0)) <= 18446744073709551615), true)'
        }) -%}
    {%- endfor -%}
    case
        when
            {%- for name in names %}
            {{ record }}.{{ name }} rlike {{ sql_text(
                '^(?:[\\[{].*|true|false|-?[0-9]+(?:[.eE].*|[0-9]{18,}))\\z'
            ) }}{{ ' or' if not loop.last }}
            {%- endfor %}
            then {{ names_where(conditions) }}
    end
{%- endmacro %}

{# has_no_violations on Spark: the list is empty. #}
{% macro spark__has_no_violations(violations) -%}
    size({{ violations }}) = 0
{%- endmacro %}
