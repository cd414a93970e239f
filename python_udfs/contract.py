"""The input tables' columns in contract order, for the Python side (generator, baseline, tests).

The dbt side takes the same lists, with parsing kinds, from macros/inputs/input_contract.sql
(docs/rules.md#input-contract).
"""

CHAT_TURN_COLUMNS = [
    "turn_id",
    "session_id",
    "character_id",
    "model_id",
    "created_at",
    "prompt_id",
    "user_message",
    "reply_text",
    "first_person",
    "named_entities",
    "honorific_level",
    "user_asked_recall",
]
CHARACTER_CARD_COLUMNS = [
    "character_id",
    "name",
    "persona",
    "honorific_rule",
    "first_person",
    "canon_entities",
    "forbidden_topics",
    "entity_roles",
    "is_public",
]
TOPIC_LEXICON_COLUMNS = ["term", "topic", "term_order"]
INPUT_COLUMNS = {
    "chat_turn": CHAT_TURN_COLUMNS,
    "character_card": CHARACTER_CARD_COLUMNS,
    "topic_lexicon": TOPIC_LEXICON_COLUMNS,
}
