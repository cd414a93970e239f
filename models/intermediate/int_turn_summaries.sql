-- Every judged turn with its rule-default one-line summary (one 존댓말 sentence
-- naming the figures behind the verdict) and hedge (which comparison was skipped and why, or
-- the honorific_level note; docs/rules.md#summary-and-hedge). It keeps the judged columns, so that
-- fct_turn_verdicts reads one relation in one pass instead of joining a million summaries back to
-- their turns.

with judged as (
    select * from {{ ref('int_turns_judged_with_cards') }}
),

phrased as (
    select
        *,
        -- Pieces reused by several verdicts.
        '답장 ' || hangul_sentence_count || '문장 가운데 존댓말로 끝난 문장이 '
        || honorific_sentence_count || '개' as register_figures,
        case
            when {{ list_size('honorific_eojeols') }} > 0
                then '(' || {{ quoted_list(list_slice('honorific_eojeols', 1, 2)) }} || ')'
            else ''
        end as honorific_examples
    from judged
),

summarised as (
    select
        *,
        case verdict
            when '금지 소재 접촉'
                then
                    case
                        when lexicon_hit_count > 1
                            then '사전 용어 ' || lexicon_hit_count || '개가 답장에 걸렸고, 그중 '
                        else '답장에 나온 사전 용어 '
                    end
                    || '「' || touched_term || '」' || {{ particle('touched_term', '이', '가') }}
                    || ' 카드가 막은 소재 「' || touched_topic || '」에 닿았습니다.'
            when '세계관 밖 고유명사'
                then
                    '카드 canon ' || canon_entity_count || '개와 캐릭터 이름 「' || character_name
                    || '」에 없는 이름 '
                    || {{ list_size('off_canon_entities') }} || '개('
                    || {{ quoted_list('off_canon_entities') }}
                    || ')가 답장에 나와 세계관 밖으로 벗어났습니다.'
            when '말투 어긋남'
                then
                    case
                        when tone_status = 'hit' and first_person_status = 'hit'
                            then
                                '카드는 '
                                || honorific_rule
                                || ' · 「'
                                || card_first_person
                                || '」'
                                || '인데 '
                                || register_figures
                                || honorific_examples || '라 ' || tone || '로 읽히고 1인칭도 「'
                                || first_person || '」' || {{ particle('first_person', '을', '를') }}
                                || ' 써 두 규칙을 함께 벗어났습니다.'
                        when tone_status = 'hit'
                            then
                                '카드는 ' || honorific_rule || '인데 ' || register_figures
                                || honorific_examples || '라 ' || tone || '로 읽혀 말투가 어긋났습니다.'
                        else
                            '카드의 1인칭은 「' || card_first_person || '」인데 답장은 「'
                            || first_person || '」' || {{ particle('first_person', '을', '를') }}
                            || ' 써 1인칭이 어긋났습니다.'
                    end
            when '앞 회차를 기억 못 함'
                then
                    '유저가 「' || asked_role || '」' || {{ particle('asked_role', '을', '를') }}
                    || ' 물었고 카드는 그 대상을 「' || recall_target || '」'
                    || {{ particle('recall_target', '으로', '로') }} || ' 적어 두었는데, '
                    || recall_source_turn || '에 나온 「' || recall_target || '」'
                    || {{ particle('recall_target', '이', '가') }} || ' 이번 답장에는 없습니다.'
            else
                case
                    when tone is null
                        then '답장에 한글 문장이 없어 말투는 판정하지 못했고 '
                    else register_figures || '라 카드의 ' || honorific_rule || ' 규칙과 맞고 '
                end
                || case
                    when first_person_status = 'pass'
                        then '1인칭 「' || first_person || '」도 카드와 같습니다.'
                    else '카드 밖 이름이나 금지 소재도 나오지 않았습니다.'
                end
        end as summary,
        {% call filtered_list_of('sentence', 'sentence is not null') -%}
                case
                    when off_canon_status = 'skipped'
                        then '등장 이름 목록(named_entities)을 뽑지 못해 세계관 대조는 건너뛰었습니다.'
                end,
                case
                    when tone_status = 'skipped'
                        then '답장에 한글 음절이 든 문장이 없어 말투 대조는 건너뛰었습니다.'
                end,
                case
                    when first_person is null
                        then '로그에 1인칭(first_person)이 없어 1인칭 비교는 건너뛰었습니다.'
                    when card_first_person is null
                        then '카드에 1인칭(first_person)이 없어 1인칭 비교는 건너뛰었습니다.'
                end,
                case
                    when recall_reason = 'user_message_null'
                        then '유저가 앞 회차를 물었지만 유저 메시지가 비어 있어 기억 판정은 건너뛰었습니다.'
                    when recall_reason = 'recall_role_not_in_message'
                        then
                            '유저가 앞 회차를 물었지만 메시지에 카드의 관계어('
                            || {{ list_join(entity_roles_roles('entity_roles'), "', '") }}
                            || ')가 없어 기억 판정은 건너뛰었습니다.'
                end,
                case
                    when tone_note = 'honorific_level_disagrees'
                        then
                            '로그의 honorific_level 은 ' || honorific_level || '이지만 답장에서 뽑은 말투는 '
                            || tone || '이며, 판정에는 뽑은 말투만 썼습니다.'
                end
        {%- endcall %} as hedge_sentences
    from phrased
),

final as (
    select
        {{ all_columns_except(['register_figures', 'honorific_examples', 'hedge_sentences']) }},
        nullif({{ list_join('hedge_sentences', "' '") }}, '') as hedge
    from summarised
)

select * from final
