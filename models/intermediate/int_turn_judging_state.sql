-- One row per turn the verdict marts hold or held: the build that last judged it, why, and the
-- rule and card fingerprints it was judged with (docs/rules.md#incremental-builds). A full
-- build judges every clean turn. An incremental build (DuckDB) rewrites the rows of the turns
-- it judges again, each with its reason:
--   new_turn         ingested by this build;
--   rules_changed    the rule version or fingerprint (endings, terminators, lexicon) changed:
--                    every turn;
--   card_changed     its card's rules (card_rules_hash: canon, canon_review, register, first
--                    person, forbidden topics, roles) changed, or its card became clean;
--   llm_summaries_changed  the LLM-written summaries given for it changed;
--   late_turn        it asks to recall, and this build ingested an earlier turn of its session;
--   turn_removed     its card is no longer clean: its rows leave the verdict marts
--                    (fct_contract_violations quarantines it as unknown_character_id).
-- int_turns_to_judge lists this build's rows; the turn-store models judge exactly those.
{{ config(
    materialized=turn_store_materialization(),
    incremental_strategy='delete+insert',
    unique_key='turn_id',
    on_schema_change='fail',
) }}
-- depends_on: {{ ref('base_chat_logs__turns') }}

with turns as (
    select
        turn_id,
        session_id,
        character_id,
        created_at,
        coalesce(user_asked_recall, false) as user_asked_recall
    from {{ ref('stg_chat_logs__turns') }}
),

cards as (
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
        turns.user_asked_recall,
        cards.card_rules_hash,
        rule_fingerprint.rule_version,
        rule_fingerprint.rule_fingerprint,
        llm_summaries.llm_summaries_hash
    from turns
    inner join cards
        on turns.character_id = cards.character_id
    cross join rule_fingerprint
    left join llm_summaries
        on turns.turn_id = llm_summaries.turn_id
),

{% if is_incremental() %}

    previous as (
        select * from {{ this }}
        where not is_removed
    ),

    judged_rules as (
        select distinct
            rule_version,
            rule_fingerprint
        from previous
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
        from previous
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

    -- The clean turns this build ingested.
    new_turns as (
        select turn_id
        from {{ ref('base_chat_logs__turns') }}
        where
            _ingested_by = {{ this_build() }}
            and {{ list_size_function() }}(_violations) = 0
    ),

    -- Per session, the earliest created_at among its new turns: a turn of the session from
    -- then on that asks to recall may now find (or lose) its first mention.
    earliest_new_in_session as (
        select
            current_turns.session_id,
            min(current_turns.created_at) as created_at
        from current_turns
        inner join new_turns
            on current_turns.turn_id = new_turns.turn_id
        group by current_turns.session_id
    ),

    late_recall_turns as (
        select current_turns.turn_id
        from current_turns
        inner join earliest_new_in_session
            on current_turns.session_id = earliest_new_in_session.session_id
        where
            current_turns.user_asked_recall
            and current_turns.created_at >= earliest_new_in_session.created_at
    ),

    current_llm_summaries as (
        select
            turn_id,
            llm_summaries_hash
        from current_turns
        where llm_summaries_hash is not null
    ),

    judged_llm_summaries as (
        select
            turn_id,
            llm_summaries_hash
        from previous
        where llm_summaries_hash is not null
    ),

    llm_summaries_changed as (
        select coalesce(current_llm_summaries.turn_id, judged_llm_summaries.turn_id) as turn_id
        from current_llm_summaries
        full outer join judged_llm_summaries
            on current_llm_summaries.turn_id = judged_llm_summaries.turn_id
        where
            current_llm_summaries.llm_summaries_hash
            is distinct from judged_llm_summaries.llm_summaries_hash
    ),

    judged as (
        select
            current_turns.*,
            case
                when rules_changed.is_changed then 'rules_changed'
                when
                    current_turns.character_id
                    in (select changed_cards.character_id from changed_cards)
                    then 'card_changed'
                when current_turns.turn_id in (select new_turns.turn_id from new_turns)
                    then 'new_turn'
                when
                    current_turns.turn_id
                    in (select llm_summaries_changed.turn_id from llm_summaries_changed)
                    then 'llm_summaries_changed'
                when
                    current_turns.turn_id
                    in (select late_recall_turns.turn_id from late_recall_turns)
                    then 'late_turn'
            end as judge_reason
        from current_turns
        cross join rules_changed
    ),

    -- Stored turns that are no longer clean: their card changed and they left staging.
    changed_card_turns as (
        select current_turns.turn_id
        from current_turns
        inner join changed_cards
            on current_turns.character_id = changed_cards.character_id
    ),

    removed as (
        select previous.*
        from previous
        inner join changed_cards
            on previous.character_id = changed_cards.character_id
        where previous.turn_id not in (select changed_card_turns.turn_id from changed_card_turns)
    ),

    final as (
        select
            turn_id,
            session_id,
            character_id,
            created_at,
            user_asked_recall,
            card_rules_hash,
            rule_version,
            rule_fingerprint,
            llm_summaries_hash,
            judge_reason,
            false as is_removed
        from judged
        where judge_reason is not null
        union all
        select
            turn_id,
            session_id,
            character_id,
            created_at,
            user_asked_recall,
            card_rules_hash,
            rule_version,
            rule_fingerprint,
            llm_summaries_hash,
            'turn_removed' as judge_reason,
            true as is_removed
        from removed
    )

{% else %}

    final as (
        select
            *,
            'full_build' as judge_reason,
            false as is_removed
        from current_turns
    )

{% endif %}

select
    *,
    cast({{ this_build() }} as {{ text_type() }}) as judged_by,
    current_timestamp::timestamp as judged_at
from final
