{#
    The rule inputs the Python tone UDFs take after the text: the sentence terminators and the
    two parallel lists (endings, flags) of `ending_rule`, the relation of int_tone_ending_rule
    that the caller refs. The UDFs build a lookup from the lists, so their order does not matter.
#}
{% macro tone_rule_arguments(ending_rule) -%}
    {{ text_var('sentence_terminators') }},
    (select endings from {{ ending_rule }}),
    (select flags from {{ ending_rule }})
{%- endmacro %}
