{#
    The select-list of deviation figures over a group of rows of int_turns_compared: turns,
    deviations, rate with its Wilson 95% interval, and the count and rate of each verdict.
#}
{% macro deviation_figures() -%}
    {%- set verdicts = [
        ('kept', '설정대로 말함'),
        ('register', '말투 어긋남'),
        ('off_canon', '세계관 밖 고유명사'),
        ('forbidden_topic', '금지 소재 접촉'),
        ('forgot_recall', '앞 회차를 기억 못 함'),
    ] -%}
    cast(count(*) as bigint) as turns,
    cast(count(*) filter (where is_deviation) as bigint) as deviations,
    cast(count(*) filter (where is_deviation) / count(*) as double) as deviation_rate,
    cast({{ wilson_interval('count(*) filter (where is_deviation)', 'count(*)', 'low') }}
        as double) as ci_low,
    cast({{ wilson_interval('count(*) filter (where is_deviation)', 'count(*)', 'high') }}
        as double) as ci_high,
    {% for name, verdict in verdicts -%}
        cast(count(*) filter (where verdict = '{{ verdict }}') as bigint) as {{ name }}_turns,
        cast(count(*) filter (where verdict = '{{ verdict }}') / count(*) as double)
            as {{ name }}_rate{{ ',' if not loop.last }}
    {% endfor -%}
{%- endmacro %}
