{#
    The rule inputs the Python tone UDFs take after the text: the sentence terminators and
    the honorific_endings seed as two parallel lists (ending, is_honorific).
#}
{% macro tone_rule_arguments() -%}
    {{ text_var('sentence_terminators') }},
    (select list(ending order by ending) from {{ ref('honorific_endings') }}),
    (select list(is_honorific order by ending) from {{ ref('honorific_endings') }})
{%- endmacro %}
