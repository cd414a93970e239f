{#
    The select-list of deviation figures over a group of rows of int_turns_compared: turns,
    deviations, rate with its Wilson 95% interval, and the count and rate of each verdict.
    With from_counts, over a group of rows of deviation_counts() instead, whose counts it sums.
#}
{% macro deviation_figures(from_counts=false) -%}
    {%- set turns = 'cast(' ~ ('sum(turn_count)' if from_counts else 'count(*)') ~ ' as bigint)' -%}
    {%- set deviations = 'cast(' ~ (
        'sum(deviation_count)' if from_counts else 'count(*) filter (where is_deviation)'
    ) ~ ' as bigint)' -%}
    {{ turns }} as turns,
    {{ deviations }} as deviations,
    cast({{ deviations }} / {{ turns }} as double) as deviation_rate,
    cast({{ wilson_interval(deviations, turns, 'low') }}
        as double) as ci_low,
    cast({{ wilson_interval(deviations, turns, 'high') }}
        as double) as ci_high,
    {% for name, verdict in deviation_verdicts() -%}
        {%- set verdict_turns = 'cast(' ~ (
            'sum(' ~ name ~ '_count)' if from_counts
            else "count(*) filter (where verdict = '" ~ verdict ~ "')"
        ) ~ ' as bigint)' -%}
        {{ verdict_turns }} as {{ name }}_turns,
        cast({{ verdict_turns }} / {{ turns }} as double)
            as {{ name }}_rate{{ ',' if not loop.last }}
    {% endfor -%}
{%- endmacro %}

{#
    The counts deviation_figures(from_counts=true) sums, over a group of rows of
    int_turns_compared: a group can then be counted once at its finest grain and summed to
    coarser ones.
#}
{% macro deviation_counts() -%}
    count(*) as turn_count,
    count(*) filter (where is_deviation) as deviation_count,
    {% for name, verdict in deviation_verdicts() -%}
        count(*) filter (where verdict = '{{ verdict }}') as {{ name }}_count{{ ',' if not loop.last }}
    {% endfor -%}
{%- endmacro %}

{#- The five verdicts, each with the name of its figures' columns. -#}
{% macro deviation_verdicts() -%}
    {{- return([
        ('kept', '설정대로 말함'),
        ('register', '말투 어긋남'),
        ('off_canon', '세계관 밖 고유명사'),
        ('forbidden_topic', '금지 소재 접촉'),
        ('forgot_recall', '앞 회차를 기억 못 함'),
    ]) -}}
{%- endmacro %}
