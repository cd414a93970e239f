-- The canon each character is judged against (rule v2): the card's canon_entities, the card's
-- own name (a character introducing itself is inside its world), and the names creators marked
-- `add` (manual check 2 feeds the next build): int_canon_decisions, seed canon_review overridden
-- by the reviewers' canon_decisions.csv (docs/rules.md#reviewer-decisions). A `block` adds
-- nothing and removes nothing from the card's own canon_entities.
with character_cards as (
    select
        character_id,
        name,
        honorific_rule,
        first_person,
        canon_entities,
        forbidden_topics,
        entity_roles
    from {{ ref('stg_chat_logs__character_cards') }}
),

added_names as (
    select
        character_id,
        {{ ordered_list('name', [('name', 'asc')]) }} as added_entities
    from {{ ref('int_canon_decisions') }}
    where decision = 'add'
    group by character_id
),

canon as (
    select
        character_cards.character_id,
        {{ concat_lists([
            'coalesce(character_cards.canon_entities, ' ~ list_of([]) ~ ')',
            list_of(['character_cards.name']),
            'coalesce(added_names.added_entities, ' ~ list_of([]) ~ ')',
        ]) }} as canon_entities,
        {{ list_length('character_cards.canon_entities') }} as card_canon_entity_count,
        {{ list_length('added_names.added_entities') }} as added_entity_count,
        character_cards.honorific_rule,
        character_cards.first_person,
        character_cards.forbidden_topics,
        character_cards.entity_roles
    from character_cards
    left join added_names
        on character_cards.character_id = added_names.character_id
),


-- Everything of a card that can change a verdict, summary or hedge, hashed: verdict_history
-- records a turn again when its card's rules change.
hashed as (
    select
        character_id,
        canon_entities,
        card_canon_entity_count,
        added_entity_count,
        md5({{ to_json_text(struct_of([
            ('honorific_rule', 'honorific_rule'),
            ('first_person', 'first_person'),
            ('canon', 'canon_entities'),
            ('forbidden_topics', 'forbidden_topics'),
            ('entity_roles', 'entity_roles'),
        ])) }}) as card_rules_hash
    from canon
)

select * from hashed
