-- Per model and per model × character (docs/rules.md#evaluation), the deviation rate (verdict
-- other than 설정대로 말함) with a Wilson 95% interval and the breakdown per verdict — over all turns,
-- and over only the prompt_ids every compared model answered.
{{ config(contract={'enforced': target.type != 'spark'}) }}

with compared as (
    select * from {{ ref('int_turns_compared') }}
),

scoped as (
    select
        'all_turns' as scope,
        *
    from compared
    union all
    select
        'shared_prompts' as scope,
        *
    from compared
    where is_shared_prompt
),

-- Counted once per scope, model and character, then summed per model: two groupings of the
-- scoped rows would materialise them (every compared row copied, shared prompts twice).
counted as (
    select
        scope,
        model_id,
        character_id,
        {{ deviation_counts() }}
    from scoped
    group by scope, model_id, character_id
),

per_model as (
    select
        scope,
        'model' as grain,
        model_id,
        cast(null as {{ sql_type_text() }}) as character_id,
        {{ deviation_figures(from_counts=true) }}
    from counted
    group by scope, model_id
),

per_model_character as (
    select
        scope,
        'model_character' as grain,
        model_id,
        character_id,
        {{ deviation_figures(from_counts=true) }}
    from counted
    group by scope, model_id, character_id
),

final as (
    select * from per_model
    union all
    select * from per_model_character
)

select
    {{ sql_star_except('scope, grain, model_id, character_id') }},
    cast(scope as {{ sql_type_text() }}) as scope,
    cast(grain as {{ sql_type_text() }}) as grain,
    cast(model_id as {{ sql_type_text() }}) as model_id,
    cast(character_id as {{ sql_type_text() }}) as character_id
from final
