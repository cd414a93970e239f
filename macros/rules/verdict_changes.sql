{#
    The CTEs that list, for each pair of rule fingerprints of a CTE `pairs` (from_fingerprint,
    to_fingerprint), the turns whose latest verdict under `from` differs from their latest
    verdict under `to`, with the rule inputs that differ between the two fingerprints
    (docs/rules.md#rule-history). Ends with a CTE `verdict_changes`. The caller passes the two
    history relations it refs: fct_verdict_changes with the consecutive pairs of
    fct_rule_fingerprints, the analysis verdict_changes_between_fingerprints with any two.

    Only the history rows of the pairs' fingerprints are read; each turn's latest row per
    fingerprint is one window over them, and each pair is one hash join on (fingerprint,
    turn_id), so the cost grows with the rows of the fingerprints compared, never with their
    square. The inputs (a few hundred rows per fingerprint) are compared the same way: per
    pair and (input_kind, input_key), the values under each side; a key on one side only is
    added (+) or removed (-). The rule version counts by its latest row under a fingerprint,
    a card by its latest row under it (the card its latest verdicts were judged with: a changed
    card re-records its turns). A pair of which one side's inputs were never recorded (judged
    before rule_input_history existed) has null changed_inputs and inputs_recorded false.
#}
{% macro verdict_changes(verdict_history, rule_input_history, pairs='pairs') -%}
    pair_fingerprints as (
        select from_fingerprint as rule_fingerprint from {{ pairs }}
        union
        select to_fingerprint as rule_fingerprint from {{ pairs }}
    ),

    pair_history as (
        select
            turn_id,
            model_id,
            character_id,
            verdict,
            deciding_check,
            rule_fingerprint,
            judged_inputs_hash,
            recorded_at
        from {{ verdict_history }}
        where rule_fingerprint in (select pair_fingerprints.rule_fingerprint from pair_fingerprints)
    ),

    latest_verdicts as (
        {{ sql_first_per_partition(
            'pair_history', 'turn_id, rule_fingerprint', 'recorded_at desc, judged_inputs_hash desc'
        ) }}
    ),

    changed_turns as (
        select
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            after_change.turn_id,
            after_change.model_id,
            after_change.character_id,
            before_change.verdict as verdict_before,
            after_change.verdict as verdict_after,
            before_change.deciding_check as deciding_check_before,
            after_change.deciding_check as deciding_check_after
        from {{ pairs }}
        inner join latest_verdicts as before_change
            on {{ pairs }}.from_fingerprint = before_change.rule_fingerprint
        inner join latest_verdicts as after_change
            on
                {{ pairs }}.to_fingerprint = after_change.rule_fingerprint
                and before_change.turn_id = after_change.turn_id
        where before_change.verdict <> after_change.verdict
    ),

    pair_inputs as (
        select
            rule_fingerprint,
            input_kind,
            input_key,
            input_value,
            value_hash,
            recorded_at
        from {{ rule_input_history }}
        where rule_fingerprint in (select pair_fingerprints.rule_fingerprint from pair_fingerprints)
    ),

    versioned_inputs as (
        select * from pair_inputs
        where input_kind in ('rule_version', 'card')
    ),

    -- The rule version and each card: the latest row under a fingerprint.
    latest_inputs as (
        {{ sql_first_per_partition(
            'versioned_inputs',
            'rule_fingerprint, input_kind, input_key',
            'recorded_at desc, value_hash desc',
        ) }}
    ),

    -- The endings, terminators and terms (fixed by the fingerprint) and the rule version: one
    -- text per key (a key listed twice in a seed, with two values, shows both).
    fingerprint_inputs as (
        select
            rule_fingerprint,
            input_kind,
            input_key,
            {{ ordered_text_agg('input_value', "' | '", [('input_value', 'asc')]) }}
                as input_values
        from pair_inputs
        where input_kind not in ('rule_version', 'card')
        group by rule_fingerprint, input_kind, input_key
        union all
        select
            rule_fingerprint,
            input_kind,
            input_key,
            input_value as input_values
        from latest_inputs
        where input_kind = 'rule_version'
    ),

    recorded_fingerprints as (
        select distinct rule_fingerprint
        from pair_inputs
    ),

    pair_keys as (
        select
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            fingerprint_inputs.input_kind,
            fingerprint_inputs.input_key
        from {{ pairs }}
        inner join fingerprint_inputs
            on {{ pairs }}.from_fingerprint = fingerprint_inputs.rule_fingerprint
        union
        select
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            fingerprint_inputs.input_kind,
            fingerprint_inputs.input_key
        from {{ pairs }}
        inner join fingerprint_inputs
            on {{ pairs }}.to_fingerprint = fingerprint_inputs.rule_fingerprint
    ),

    input_changes as (
        select
            pair_keys.from_fingerprint,
            pair_keys.to_fingerprint,
            pair_keys.input_kind,
            pair_keys.input_key,
            case
                when before_input.input_values is null
                    then '+' || pair_keys.input_kind || ' ' || pair_keys.input_key
                    || ' (' || after_input.input_values || ')'
                when after_input.input_values is null
                    then '-' || pair_keys.input_kind || ' ' || pair_keys.input_key
                    || ' (' || before_input.input_values || ')'
                when pair_keys.input_kind = 'rule_version'
                    then 'rule_version: '
                    || before_input.input_values || ' → ' || after_input.input_values
                else pair_keys.input_kind || ' ' || pair_keys.input_key || ': '
                    || before_input.input_values || ' → ' || after_input.input_values
            end as change_text,
            case pair_keys.input_kind
                when 'rule_version' then 1
                when 'terminator' then 2
                when 'ending' then 3
                else 4
            end as kind_order
        from pair_keys
        left join fingerprint_inputs as before_input
            on
                pair_keys.from_fingerprint = before_input.rule_fingerprint
                and pair_keys.input_kind = before_input.input_kind
                and pair_keys.input_key = before_input.input_key
        left join fingerprint_inputs as after_input
            on
                pair_keys.to_fingerprint = after_input.rule_fingerprint
                and pair_keys.input_kind = after_input.input_kind
                and pair_keys.input_key = after_input.input_key
        where before_input.input_values is distinct from after_input.input_values
    ),

    pair_changes as (
        select
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            before_recorded.rule_fingerprint is not null
            and after_recorded.rule_fingerprint is not null as inputs_recorded,
            {{ ordered_text_agg(
                'input_changes.change_text', "'; '",
                [('input_changes.kind_order', 'asc'), ('input_changes.input_key', 'asc')],
            ) }} as rule_changes
        from {{ pairs }}
        left join recorded_fingerprints as before_recorded
            on {{ pairs }}.from_fingerprint = before_recorded.rule_fingerprint
        left join recorded_fingerprints as after_recorded
            on {{ pairs }}.to_fingerprint = after_recorded.rule_fingerprint
        left join input_changes
            on
                {{ pairs }}.from_fingerprint = input_changes.from_fingerprint
                and {{ pairs }}.to_fingerprint = input_changes.to_fingerprint
        group by
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            before_recorded.rule_fingerprint,
            after_recorded.rule_fingerprint
    ),

    pair_cards as (
        select
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            latest_inputs.input_key as character_id
        from {{ pairs }}
        inner join latest_inputs
            on {{ pairs }}.from_fingerprint = latest_inputs.rule_fingerprint
        where latest_inputs.input_kind = 'card'
        union
        select
            {{ pairs }}.from_fingerprint,
            {{ pairs }}.to_fingerprint,
            latest_inputs.input_key as character_id
        from {{ pairs }}
        inner join latest_inputs
            on {{ pairs }}.to_fingerprint = latest_inputs.rule_fingerprint
        where latest_inputs.input_kind = 'card'
    ),

    -- Per pair, the characters whose latest card differs (added, removed or changed).
    card_changes as (
        select
            pair_cards.from_fingerprint,
            pair_cards.to_fingerprint,
            pair_cards.character_id,
            case
                when before_card.input_value is null
                    then '+card ' || pair_cards.character_id
                    || ' (' || after_card.input_value || ')'
                when after_card.input_value is null
                    then '-card ' || pair_cards.character_id
                    || ' (' || before_card.input_value || ')'
                when before_card.input_value = after_card.input_value
                    then 'card ' || pair_cards.character_id || ': card_rules_hash '
                    || before_card.value_hash || ' → ' || after_card.value_hash
                else 'card ' || pair_cards.character_id || ': '
                    || before_card.input_value || ' → ' || after_card.input_value
            end as change_text
        from pair_cards
        left join latest_inputs as before_card
            on
                pair_cards.from_fingerprint = before_card.rule_fingerprint
                and before_card.input_kind = 'card'
                and pair_cards.character_id = before_card.input_key
        left join latest_inputs as after_card
            on
                pair_cards.to_fingerprint = after_card.rule_fingerprint
                and after_card.input_kind = 'card'
                and pair_cards.character_id = after_card.input_key
        where before_card.value_hash is distinct from after_card.value_hash
    ),

    verdict_changes as (
        select
            changed_turns.from_fingerprint,
            changed_turns.to_fingerprint,
            changed_turns.turn_id,
            changed_turns.model_id,
            changed_turns.character_id,
            changed_turns.verdict_before,
            changed_turns.verdict_after,
            changed_turns.deciding_check_before,
            changed_turns.deciding_check_after,
            case
                when pair_changes.inputs_recorded
                    then nullif(
                        coalesce(pair_changes.rule_changes, '')
                        || case
                            when pair_changes.rule_changes is not null
                                and card_changes.change_text is not null
                                then '; '
                            else ''
                        end
                        || coalesce(card_changes.change_text, ''),
                        ''
                    )
            end as changed_inputs,
            pair_changes.inputs_recorded
            and card_changes.change_text is not null as card_changed,
            pair_changes.inputs_recorded
        from changed_turns
        inner join pair_changes
            on
                changed_turns.from_fingerprint = pair_changes.from_fingerprint
                and changed_turns.to_fingerprint = pair_changes.to_fingerprint
        left join card_changes
            on
                changed_turns.from_fingerprint = card_changes.from_fingerprint
                and changed_turns.to_fingerprint = card_changes.to_fingerprint
                and changed_turns.character_id = card_changes.character_id
    )
{%- endmacro %}
