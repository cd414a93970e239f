{#
    Tone step 3 (docs/rules.md#tone) for one eojeol: the is_honorific of the longest ending it ends
    with, false when none matches (or the eojeol is null). `endings` and `flags` are the
    honorific_endings seed as two parallel lists sorted longest ending first, so the first match is
    the longest. DuckDB list lambdas, hence behind this macro.
#}
{% macro ending_is_honorific(eojeol, endings, flags) -%}
    coalesce(
        {{ flags }}[
            list_position(
                list_transform({{ endings }}, lambda ending: {{ ends_with(eojeol, 'ending') }}),
                true
            )
        ],
        false
    )
{%- endmacro %}
