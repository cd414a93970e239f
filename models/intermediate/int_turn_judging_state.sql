-- One row per turn the verdict marts hold or held: the build that last judged it, why, and the
-- rule and card fingerprints it was judged with (docs/rules.md#incremental-builds). A full
-- build judges every clean turn. An incremental build rewrites the rows of the turns
-- it judges again, each with its reason:
--   new_turn         of an ingest batch no build judged yet (normally this build's);
--   rules_changed    the rule version or fingerprint (endings, terminators, lexicon) changed:
--                    every turn;
--   card_changed     its card's rules (card_rules_hash: canon, canon_review, register, first
--                    person, forbidden topics, roles) changed, or its card became clean;
--   llm_summaries_changed  the LLM-written summaries given for it changed;
--   late_turn        it asks to recall, and this build ingested an earlier turn of its session;
--   unfinished_build the build that last judged it stopped before every judging model of the
--                    turn store wrote it (audit.finished_batches, record_finished_batch);
--   turn_removed     its card is no longer clean: its rows leave the verdict marts
--                    (fct_contract_violations quarantines it as unknown_character_id).
-- int_turns_to_judge lists this build's rows; the turn-store models judge exactly those.
{{ config(
    materialized=turn_store_materialization(),
    incremental_strategy=turn_store_strategy('delete+insert'),
    unique_key='turn_id',
    partition_by=turn_store_partition_by(),
    on_schema_change='fail',
    post_hook="{{ drop_stale_partitions() }}",
) }}

-- Staging is read by each CTE that needs it, with only the columns it needs: a CTE read twice
-- is materialised whole, and this model reads the whole turn store.
with cards as (
    select
        character_id,
        card_rules_hash
    from {{ ref('int_character_canon') }}
),

rule_fingerprint as (
    select
        rule_version,
        rule_fingerprint
    from {{ ref('int_rule_fingerprint') }}
),

llm_summaries as (
    select
        turn_id,
        md5({{ ordered_text_agg(
            to_json_text(struct_of([
                ('verdict', 'verdict'), ('summary', 'summary'), ('evidence', 'evidence'),
            ])),
            "'|'",
            [('candidate_number', 'asc')],
        ) }}) as llm_summaries_hash
    from {{ ref('stg_chat_logs__llm_summaries') }}
    group by turn_id
),

current_turns as (
    select
        turns.turn_id,
        turns.session_id,
        turns.character_id,
        turns.created_at,
        cards.card_rules_hash,
        rule_fingerprint.rule_version,
        rule_fingerprint.rule_fingerprint,
        llm_summaries.llm_summaries_hash,
        turns._ingested_by as ingested_by,
        coalesce(turns.user_asked_recall, false) as user_asked_recall
    from {{ ref('stg_chat_logs__turns') }} as turns
    inner join cards
        on turns.character_id = cards.character_id
    cross join rule_fingerprint
    left join llm_summaries
        on turns.turn_id = llm_summaries.turn_id
),

{#- The state's columns of a turn, in the order stored: judged, removed or fully built. -#}
{%- set stored_columns = [
    'turn_id', 'session_id', 'character_id', 'created_at', 'user_asked_recall',
    'card_rules_hash', 'rule_version', 'rule_fingerprint', 'llm_summaries_hash',
    'ingested_by',
] %}
{% if is_incremental() %}

    judged_rules as (
        select distinct
            rule_version,
            rule_fingerprint
        from {{ this }}
        where not is_removed
    ),

    -- Every stored turn is judged again when the rules changed.
    rules_changed as (
        select count(*) > 0 as is_changed
        from judged_rules
        cross join rule_fingerprint
        where
            judged_rules.rule_version is distinct from rule_fingerprint.rule_version
            or judged_rules.rule_fingerprint is distinct from rule_fingerprint.rule_fingerprint
    ),

    -- Cards whose rules differ from the ones their stored turns were judged with, cards that
    -- are new (or clean again), and cards that are gone (or quarantined).
    judged_cards as (
        select distinct
            character_id,
            card_rules_hash
        from {{ this }}
        where not is_removed
    ),

    changed_cards as (
        select coalesce(cards.character_id, judged_cards.character_id) as character_id
        from cards
        full outer join judged_cards
            on
                cards.character_id = judged_cards.character_id
                and cards.card_rules_hash = judged_cards.card_rules_hash
        where cards.character_id is null or judged_cards.character_id is null
    ),

    -- The ingest batches whose turns were judged: any other batch is new (this build's, or
    -- one whose build stopped after ingesting it).
    judged_batches as (
        select distinct ingested_by
        from {{ this }}
    ),

    -- Batches whose build stopped before every judging model wrote them: judged again.
    unfinished_turns as (
        select
            turn_id,
            character_id
        from {{ this }}
        where
            judged_by not in (
                select finished.invocation_id
                from {{ source('ingest', 'finished_batches') }} as finished
            )
    ),

    -- The clean turns of the new batches that the state does not hold: a new turn has no row
    -- in any turn-store table, so delete_judged_turns skips it. (A stored turn can come with a
    -- new batch only when staging alone was rebuilt with --full-refresh; it is not new.)
    new_turns as (
        select
            turns.turn_id,
            turns.session_id,
            turns.created_at
        from {{ ref('stg_chat_logs__turns') }} as turns
        where
            turns._ingested_by not in (select judged_batches.ingested_by from judged_batches)
            and not exists (
                select 1
                from {{ this }} as judged_turns
                where judged_turns.turn_id = turns.turn_id
            )
    ),

    -- Per session, the earliest created_at among its new turns: a turn of the session from
    -- then on that asks to recall may now find (or lose) its first mention.
    earliest_new_in_session as (
        select
            session_id,
            min(created_at) as created_at
        from new_turns
        group by session_id
    ),

    late_recall_turns as (
        select recall_turns.turn_id
        from {{ ref('stg_chat_logs__turns') }} as recall_turns
        inner join earliest_new_in_session
            on recall_turns.session_id = earliest_new_in_session.session_id
        where
            coalesce(recall_turns.user_asked_recall, false)
            and recall_turns.created_at >= earliest_new_in_session.created_at
    ),

    judged_llm_summaries as (
        select
            turn_id,
            llm_summaries_hash
        from {{ this }}
        where not is_removed and llm_summaries_hash is not null
    ),

    llm_summaries_changed as (
        select coalesce(llm_summaries.turn_id, judged_llm_summaries.turn_id) as turn_id
        from llm_summaries
        full outer join judged_llm_summaries
            on llm_summaries.turn_id = judged_llm_summaries.turn_id
        where
            llm_summaries.llm_summaries_hash
            is distinct from judged_llm_summaries.llm_summaries_hash
    ),

    card_changed_turns as (
        select turns.turn_id
        from {{ ref('stg_chat_logs__turns') }} as turns
        inner join changed_cards
            on turns.character_id = changed_cards.character_id
    ),

    -- Each turn to judge once, with its first reason in this order.
    reasons as (
        select
            turn_id,
            1 as reason_order,
            'card_changed' as judge_reason
        from card_changed_turns
        union all
        select
            turn_id,
            2 as reason_order,
            'new_turn' as judge_reason
        from new_turns
        union all
        select
            turn_id,
            5 as reason_order,
            'unfinished_build' as judge_reason
        from unfinished_turns
        union all
        select
            turn_id,
            3 as reason_order,
            'llm_summaries_changed' as judge_reason
        from llm_summaries_changed
        union all
        select
            turn_id,
            4 as reason_order,
            'late_turn' as judge_reason
        from late_recall_turns
    ),

    first_reasons as (
        select
            turn_id,
            min_by(judge_reason, reason_order) as judge_reason
        from reasons
        group by turn_id
    ),

    judged as (
        select
            current_turns.*,
            case
                when rules_changed.is_changed then 'rules_changed'
                else first_reasons.judge_reason
            end as judge_reason
        from current_turns
        cross join rules_changed
        left join first_reasons
            on current_turns.turn_id = first_reasons.turn_id
        where rules_changed.is_changed or first_reasons.turn_id is not null
    ),

    -- Stored turns that are no longer clean (their card changed, so they left staging), and
    -- removed turns of an unfinished batch: removed (again) from the verdict marts.
    removal_candidates as (
        select judged_turns.*
        from {{ this }} as judged_turns
        where
            judged_turns.character_id in (select changed_cards.character_id from changed_cards)
            or judged_turns.turn_id in (select unfinished_turns.turn_id from unfinished_turns)
    ),

    removed as (
        select removal_candidates.*
        from removal_candidates
        left join {{ ref('stg_chat_logs__turns') }} as turns
            on removal_candidates.turn_id = turns.turn_id
        where turns.turn_id is null
    ),

    final as (
        select
            {{ stored_columns | join(',\n            ') }},
            judge_reason,
            false as is_removed
        from judged
        union all
        select
            {{ stored_columns | join(',\n            ') }},
            'turn_removed' as judge_reason,
            true as is_removed
        from removed
    )

{% else %}

    final as (
        select
            {{ stored_columns | join(',\n            ') }},
            'full_build' as judge_reason,
            false as is_removed
        from current_turns
    )

{% endif %}

select
    *,
    current_timestamp::timestamp as judged_at,
    cast({{ this_build() }} as {{ text_type() }}) as judged_by
from final
{{ kept_turn_store_rows('final') }}
