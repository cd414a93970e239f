{#
    The input contract: for each input table, its var and its columns in order, with
    the kind of parsing each needs and whether it is required. Staging, the readers and the
    quarantine all take their column lists from here. The rules: docs/rules.md#input-contract.
    An `id` column (the keys turn_id, session_id, character_id, model_id, prompt_id and
    term_order) must be a string or an integer in every format (id_not_string_or_integer
    otherwise), and loses its format characters in staging (normalize_key).
#}
{% macro input_contract() -%}
    {{ return({
        'character_card': {
            'var': 'input_character_card',
            'key': 'character_id',
            'columns': [
                {'name': 'character_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'name', 'kind': 'text', 'required': true},
                {'name': 'persona', 'kind': 'text', 'required': false},
                {'name': 'honorific_rule', 'kind': 'text', 'required': true},
                {'name': 'first_person', 'kind': 'text', 'required': false},
                {'name': 'canon_entities', 'kind': 'list', 'required': false},
                {'name': 'forbidden_topics', 'kind': 'list', 'required': false},
                {'name': 'entity_roles', 'kind': 'roles', 'required': false},
                {'name': 'is_public', 'kind': 'boolean', 'required': false},
            ],
        },
        'topic_lexicon': {
            'var': 'input_topic_lexicon',
            'key': 'term_order',
            'columns': [
                {'name': 'term', 'kind': 'text', 'required': true},
                {'name': 'topic', 'kind': 'text', 'required': true},
                {'name': 'term_order', 'kind': 'integer', 'id': true, 'required': true},
            ],
        },
        'chat_turn': {
            'var': 'input_chat_turn',
            'key': 'turn_id',
            'columns': [
                {'name': 'turn_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'session_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'character_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'model_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'created_at', 'kind': 'timestamp', 'required': true},
                {'name': 'prompt_id', 'kind': 'text', 'id': true, 'required': false},
                {'name': 'user_message', 'kind': 'text', 'required': false},
                {'name': 'reply_text', 'kind': 'text', 'required': true, 'empty_ok': true},
                {'name': 'first_person', 'kind': 'text', 'required': false},
                {'name': 'named_entities', 'kind': 'list', 'required': false},
                {'name': 'honorific_level', 'kind': 'text', 'required': false},
                {'name': 'user_asked_recall', 'kind': 'boolean', 'required': false},
            ],
        },
        'golden_labels': {
            'var': 'input_golden_labels',
            'optional': true,
            'demo_default': 'data/demo/golden_labels.csv',
            'key': 'turn_id',
            'columns': [
                {'name': 'turn_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'expected_verdict', 'kind': 'text', 'required': true},
                {'name': 'note', 'kind': 'text', 'required': false},
            ],
        },
        'llm_summaries': {
            'var': 'input_llm_summaries',
            'optional': true,
            'demo_default': 'data/demo/llm_summaries.jsonl',
            'key': 'turn_id',
            'columns': [
                {'name': 'turn_id', 'kind': 'text', 'id': true, 'required': true},
                {'name': 'verdict', 'kind': 'text', 'required': false},
                {'name': 'summary', 'kind': 'text', 'required': false},
                {'name': 'evidence', 'kind': 'json', 'required': false},
            ],
        },
    }) }}
{%- endmacro %}
