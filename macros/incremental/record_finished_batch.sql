{#
    on-run-end (docs/rules.md#incremental-builds): when every model of the turn store that
    judges ran and succeeded in this invocation, its batch is finished: its invocation_id goes
    to audit.finished_batches. int_turn_judging_state judges again every turn of a batch that
    did not finish (a build that failed or stopped after the judging state advanced, or a
    partial run that rebuilt only some of these models), so no turn is left without its
    verdict, evidence or checks.
#}
{% macro turn_store_judging_models() -%}
    {{- return([
        'int_turn_judging_state', 'int_turns_toned', 'int_turns_judged', 'fct_turn_checks',
        'fct_turn_evidence', 'fct_turn_verdicts',
    ]) -}}
{%- endmacro %}

{% macro record_finished_batch(results) -%}
    {{- return(adapter.dispatch('record_finished_batch', 'card_keeper')(results)) -}}
{%- endmacro %}

{% macro default__record_finished_batch(results) -%}
    {%- set succeeded = [] -%}
    {%- for result in results
        if result.node.resource_type == 'model' and result.status == 'success' -%}
        {%- do succeeded.append(result.node.name) -%}
    {%- endfor -%}
    {%- for name in turn_store_judging_models() if name not in succeeded -%}
        {{ return('select 1') }}
    {%- endfor -%}
    {{ return(
        "insert into audit.finished_batches values (" ~ this_build() ~ ", current_timestamp)"
    ) }}
{%- endmacro %}
