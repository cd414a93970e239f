with base as (
    select * from {{ ref('base_chat_logs__character_cards') }}
),

clean as (
    select
        character_id,
        name,
        persona,
        honorific_rule,
        first_person,
        canon_entities,
        forbidden_topics,
        entity_roles,
        is_public
    from base
    where {{ has_no_violations('_violations') }}
)

select * from clean
