{#
    Whether `model_column` names a compared model (docs/rules.md#evaluation): one of
    var('compared_models'), or any model when the var is empty.
#}
{% macro is_compared_model(model_column) -%}
    {%- if var('compared_models') -%}
        {{ model_column }} in ({{ text_list_var('compared_models') }})
    {%- else -%}
        true
    {%- endif -%}
{%- endmacro %}
