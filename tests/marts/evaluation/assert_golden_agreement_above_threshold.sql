-- Assert that the rules agree with the creators' labels at least at var
-- golden_agreement_min_rate. A warning, not an error: a low rate is news about the rules, not
-- a broken build. No labels (rate null) never warns.
{{ config(severity='warn') }}

select
    labelled_turns,
    agreeing_turns,
    agreement_rate,
    {{ number_var('golden_agreement_min_rate', maximum=1) }} as min_rate
from {{ ref('fct_golden_agreement_summary') }}
where agreement_rate < {{ number_var('golden_agreement_min_rate', maximum=1) }}
