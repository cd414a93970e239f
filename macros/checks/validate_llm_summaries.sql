{#
    May an LLM-written summary replace the rule default (docs/rules.md#summary-and-hedge)? A
    candidate passes only if it passes checks 1, 2, 8, 9 and 10 and claims the rule's own verdict.
    Returns one row per candidate: candidate_id, turn_id, summary, is_accepted and
    rejection_reason, the first failure in this order: unknown_turn, non_enum_verdict,
    missing_required_field, invented_field_name, altered_value, banmal_summary, verdict_differs.
    `candidates` is a relation with candidate_id, turn_id, verdict, summary and evidence (JSON
    text: an array of {source, field, agg, value}).
#}
{% macro validate_llm_summaries(candidates) -%}
    with candidates as (
        select
            candidate_id,
            turn_id,
            verdict,
            summary,
            evidence,
            {{ is_json_array('evidence') }} as is_evidence_array
        from {{ candidates }}
    ),

    judged as (
        select
            turn_id,
            session_id,
            character_id,
            verdict
        from {{ ref('int_turns_judged') }}
    ),

    verdict_words as (
        select verdict from {{ ref('verdict_words') }}
    ),

    turns as (
        select * from {{ ref('stg_chat_logs__turns') }}
    ),

    {{ evidence_source_columns() }},

    items as (
        select
            candidate_id,
            unnest(from_json(evidence, '["JSON"]')) as item
        from candidates
        where is_evidence_array
    ),

    evidence as (
        select
            items.candidate_id,
            candidates.turn_id as candidate_turn_id,
            -- Where the candidate's turn may cite from: its session and its card.
            candidate_turns.session_id as candidate_session_id,
            candidate_turns.character_id as candidate_character_id,
            items.item ->> '$.source' as source,
            items.item ->> '$.field' as field,
            items.item ->> '$.agg' as agg,
            case
                when json_type(items.item, '$.value') = 'VARCHAR' then items.item ->> '$.value'
                when json_type(items.item, '$.value') = 'NULL' then null
                else cast(items.item -> '$.value' as varchar)
            end as value,
            coalesce(
                json_type(items.item) = 'OBJECT'
                and json_exists(items.item, '$.source')
                and json_exists(items.item, '$.field')
                and json_exists(items.item, '$.value'),
                false
            ) as has_required_keys
        from items
        inner join candidates
            on items.candidate_id = candidates.candidate_id
        left join turns as candidate_turns
            on candidates.turn_id = candidate_turns.turn_id
    ),

    item_checks as (
        select
            evidence.candidate_id,
            evidence.has_required_keys,
            source_columns.field is not null as is_real_field,
            (
                {{ candidate_value_is_cited('evidence') }}
            ) as is_verbatim
        from evidence
        left join source_columns
            on evidence.source = source_columns.source and evidence.field = source_columns.field
    ),

    per_candidate as (
        select
            candidate_id,
            count(*) as item_count,
            bool_and(has_required_keys) as has_required_keys,
            bool_and(is_real_field) as has_real_fields,
            bool_and(coalesce(is_verbatim, false)) as has_verbatim_values
        from item_checks
        group by candidate_id
    ),

    honorific as (
        select
            candidate_id,
            ck_last_sentence_is_honorific(summary, {{ tone_rule_arguments() }})
            and not contains(summary, chr(10)) as ends_honorific
        from candidates
    ),

    reasons as (
        select
            candidates.candidate_id,
            candidates.turn_id,
            candidates.summary,
            case
                when judged.turn_id is null then 'unknown_turn'
                when
                    coalesce(candidates.verdict, '') <> ''
                    and verdict_words.verdict is null
                    then 'non_enum_verdict'
                when
                    coalesce(candidates.verdict, '') = ''
                    or coalesce(candidates.summary, '') = ''
                    or not candidates.is_evidence_array
                    or coalesce(per_candidate.item_count, 0) = 0
                    or not per_candidate.has_required_keys
                    then 'missing_required_field'
                when not per_candidate.has_real_fields then 'invented_field_name'
                when not per_candidate.has_verbatim_values then 'altered_value'
                when not coalesce(honorific.ends_honorific, false) then 'banmal_summary'
                when candidates.verdict <> judged.verdict then 'verdict_differs'
            end as rejection_reason
        from candidates
        left join judged
            on candidates.turn_id = judged.turn_id
        left join verdict_words
            on candidates.verdict = verdict_words.verdict
        left join per_candidate
            on candidates.candidate_id = per_candidate.candidate_id
        left join honorific
            on candidates.candidate_id = honorific.candidate_id
    )

    select
        candidate_id,
        turn_id,
        summary,
        rejection_reason is null as is_accepted,
        rejection_reason
    from reasons
{%- endmacro %}

{# Whether a JSON text is an array (false for null, invalid JSON or any other JSON value). #}
{% macro is_json_array(expression) -%}
    case
        when not coalesce(json_valid({{ expression }}), false) then false
        else json_type({{ expression }}) = 'ARRAY'
    end
{%- endmacro %}

{#
    Whether a candidate's evidence value is quoted verbatim from a row it may cite: any
    chat_turn of the candidate turn's session (the reply, or an earlier turn for recall), the
    turn's own character_card, or any topic_lexicon row. Compared by the column's type, as
    check 9 does, with the column list read from the catalog. `alias` carries the candidate
    turn's candidate_session_id and candidate_character_id, so the test correlates on them
    alone (joining the turns to the candidate's turn inside it paired every turn of every
    session).
#}
{% macro candidate_value_is_cited(alias) -%}
    {%- set sources = evidence_source_models() -%}
    case {{ alias }}.source
        {%- for source, relation in sources.items() %}
        when '{{ source }}' then exists (
            select 1
            from {{ relation }} as cited
            {%- if source == 'chat_turn' %}
            where cited.session_id = {{ alias }}.candidate_session_id
            {%- elif source == 'character_card' %}
            where cited.character_id = {{ alias }}.candidate_character_id
            {%- else %}
            where true
            {%- endif %}
                and {{ evidence_field_matches(relation, alias) }}
        )
        {%- endfor %}
        else false
    end
{%- endmacro %}
