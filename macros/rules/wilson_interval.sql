{#
    The Wilson score interval for a proportion (successes out of trials), 95% by default
    (z = 1.959964). bound is 'low' or 'high'. Null when trials is 0. Chosen over the normal
    approximation because it stays inside [0, 1] and behaves at small n and at rates near 0.
#}
{% macro wilson_interval(successes, trials, bound, z=1.959964) -%}
    {%- set p = '(cast(' ~ successes ~ ' as double) / ' ~ trials ~ ')' -%}
    {%- set z2 = (z * z) | string -%}
    case
        when {{ trials }} > 0 then
            (
                {{ p }} + {{ z2 }} / (2.0 * {{ trials }})
                {{ '-' if bound == 'low' else '+' }} {{ z }} * sqrt(
                    {{ p }} * (1 - {{ p }}) / {{ trials }}
                    + {{ z2 }} / (4.0 * {{ trials }} * {{ trials }})
                )
            ) / (1 + {{ z2 }} / {{ trials }})
    end
{%- endmacro %}
