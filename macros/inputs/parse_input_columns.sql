{#
    Turn the raw input rows of `relation` (all text) into typed, normalised columns by the
    contract's kinds, keeping the raw key (and the raw_kept columns) as raw_<column> for the
    quarantine and listing the row's column-level contract violations in _column_violations
    (a list of {column_name, reason_code, raw_value}). Each value is normalised once (empty
    text becomes null, see normalize_input_text), then parsed once, then checked. Table-level
    checks (duplicates, unknown keys, enums) are added by each base model.
#}
{% macro parse_input(table_name, relation, raw_kept=[]) -%}
    {%- if not execute -%}
        {#- While dbt parses, the contract is not there yet (input_contract()). -#}
        {{ return('') }}
    {%- endif -%}
    {%- set spec = input_contract()[table_name] -%}
    {%- set checks = [{
        'condition': '_parse_error is not null',
        'column': '_line',
        'reason': '_parse_error',
        'raw': '_raw_line',
    }] -%}
    {%- set bounded = {} -%}
    {%- for column in spec.columns -%}
        {%- set normal = '_normal_' ~ column.name -%}
        {%- if column.required -%}
            {#- Empty text is already null here, except in an empty_ok column. -#}
            {%- do checks.append({
                'condition': '_parse_error is null and ' ~ normal ~ ' is null',
                'column': column.name,
                'reason': "'missing_required_value'",
                'raw': 'raw_' ~ column.name,
            }) -%}
        {%- endif -%}
        {%- set wrong_type = text_list_contains('_wrong_type_ids', "'" ~ column.name ~ "'") -%}
        {%- if column.get('id') -%}
            {%- do checks.append({
                'condition': wrong_type,
                'column': column.name,
                'reason': "'id_not_string_or_integer'",
                'raw': 'raw_' ~ column.name,
            }) -%}
        {%- endif -%}
        {%- set unparsable = {
            'boolean': 'unparsable_boolean',
            'integer': 'unparsable_integer',
            'list': 'unparsable_list',
            'roles': 'malformed_entity_roles',
        }.get(column.kind) -%}
        {%- if column.kind == 'timestamp' -%}
            {#- Parsed whatever its year; a year outside the accepted range is its own
                reason, and the typed column is null then (replaced below). A text that did
                not parse is looked at again only for its era marker (CASE: most rows parse
                and skip that regular expression). -#}
            {%- set before_common_era = names_date_before_common_era(normal) -%}
            {%- do checks.append({
                'condition': 'case when ' ~ column.name ~ ' is not null or ' ~ normal
                    ~ ' is null then false else not ' ~ before_common_era ~ ' end',
                'column': column.name,
                'reason': "'unparsable_timestamp'",
                'raw': 'raw_' ~ column.name,
            }) -%}
            {%- do checks.append({
                'condition': 'case when ' ~ column.name ~ ' is not null then not '
                    ~ timestamp_in_range(column.name) ~ ' when ' ~ normal ~ ' is not null then '
                    ~ before_common_era ~ ' else false end',
                'column': column.name,
                'reason': "'out_of_range_timestamp'",
                'raw': 'raw_' ~ column.name,
            }) -%}
            {%- do bounded.update({column.name:
                'case when ' ~ timestamp_in_range(column.name) ~ ' then ' ~ column.name
                ~ ' end'
            }) -%}
        {%- elif unparsable -%}
            {#- An id of the wrong type (a JSON 4.5 as term_order) is that, not also
                unparsable. -#}
            {%- do checks.append({
                'condition': normal ~ ' is not null and ' ~ column.name ~ ' is null'
                    ~ (' and not coalesce(' ~ wrong_type ~ ', false)' if column.get('id') else ''),
                'column': column.name,
                'reason': "'" ~ unparsable ~ "'",
                'raw': 'raw_' ~ column.name,
            }) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- The raw copies not kept: every column's but the key's and those raw_kept names (the
        raw values the base model's own checks quote). Each violation already carries the raw
        value it is about; a second copy of every column doubled the cost of storing a base
        table. #}
    {%- set dropped = ['_parse_error', '_raw_line', '_wrong_type_ids'] -%}
    {%- for column in spec.columns -%}
        {%- do dropped.append('_normal_' ~ column.name) -%}
        {%- if column.name != spec.key and column.name not in raw_kept -%}
            {%- do dropped.append('raw_' ~ column.name) -%}
        {%- endif -%}
    {%- endfor %}
    {%- set inner_columns = ['_source_file', '_source_row', '_parse_error', '_raw_line',
        '_wrong_type_ids'] -%}
    {%- for column in spec.columns -%}
        {%- do inner_columns.extend(
            ['_normal_' ~ column.name, column.name, 'raw_' ~ column.name]
        ) -%}
    {%- endfor %}
    select
        {{ star_except(inner_columns, dropped, bounded) }},
        {{ collect_violations(checks) }} as _column_violations
    from (
        select
            _source_file,
            _source_row,
            _parse_error,
            _raw_line,
            _wrong_type_ids,
            {%- for column in spec.columns %}
                _normal_{{ column.name }},
                {{ parse_input_value(column, '_normal_' ~ column.name) }} as {{ column.name }},
                raw_{{ column.name }}{{ ',' if not loop.last }}
            {%- endfor %}
        from (
            select
                _source_file,
                _source_row,
                _parse_error,
                _raw_line,
                _wrong_type_ids,
                {%- for column in spec.columns %}
                    {{ normalize_input_text(column) }} as _normal_{{ column.name }},
                    {{ column.name }} as raw_{{ column.name }}{{ ',' if not loop.last }}
                {%- endfor %}
            from {{ relation }}
        )
    )
{%- endmacro %}

{#
    A raw column's text, NFC-normalised and trimmed, with an empty result made null
    (docs/rules.md#null-rules, rule v2): a writer that quotes every field writes a missing value as `""`, and in every
    format an empty optional text, list or roles value means the same as a missing one. Only
    an empty_ok column (reply_text) keeps its empty string. A key (an `id` column) also loses
    its format characters (normalize_key).
#}
{% macro normalize_input_text(column) -%}
    {%- if column.get('id') -%}
        nullif({{ normalize_key(column.name) }}, '')
    {%- elif column.get('empty_ok') -%}
        {{ normalize_text(column.name) }}
    {%- else -%}
        nullif({{ normalize_text(column.name) }}, '')
    {%- endif -%}
{%- endmacro %}

{#
    The typed value of a column from its normalised text, by the contract's kind. A timestamp
    is parsed whatever its year: parse_input nulls one outside timestamp_in_range().
#}
{% macro parse_input_value(column, normalized) -%}
    {%- if column.kind == 'timestamp' -%}
        {{ parse_timestamp(normalized) }}
    {%- elif column.kind == 'boolean' -%}
        {{ parse_boolean(normalized) }}
    {%- elif column.kind == 'integer' -%}
        {{ parse_integer(normalized) }}
    {%- elif column.kind == 'list' -%}
        {{ parse_text_list(normalized) }}
    {%- elif column.kind == 'roles' -%}
        {{ parse_entity_roles(normalized) }}
    {%- else -%}
        {{ normalized }}
    {%- endif -%}
{%- endmacro %}

{#
    The columns parse_input() returns, in order: the row's file and line, each contract
    column (and its raw_<column> where kept: the key's and the raw_kept names), then
    _column_violations. For the models that list them where DuckDB would write `* exclude`.
#}
{% macro parsed_input_columns(table_name, raw_kept=[]) -%}
    {%- if not execute -%}
        {{ return([]) }}
    {%- endif -%}
    {%- set spec = input_contract()[table_name] -%}
    {%- set columns = ['_source_file', '_source_row'] -%}
    {%- for column in spec.columns -%}
        {%- do columns.append(column.name) -%}
        {%- if column.name == spec.key or column.name in raw_kept -%}
            {%- do columns.append('raw_' ~ column.name) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do columns.append('_column_violations') -%}
    {{ return(columns) }}
{%- endmacro %}
