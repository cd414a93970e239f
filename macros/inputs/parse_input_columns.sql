{#
    The select list that turns one raw input row (all text) into typed, normalised columns by
    the contract's kinds, keeps every raw value as raw_<column> for the quarantine, and lists
    the row's column-level contract violations in _column_violations (a list of
    {column_name, reason_code, raw_value}). Table-level checks (duplicates, unknown keys,
    enums) are added by each base model.
#}
{% macro parse_input_columns(table_name) -%}
    {%- set spec = input_contract()[table_name] -%}
    _source_file,
    _source_row,
    {% for column in spec.columns -%}
        {{ parse_input_value(column) }} as {{ column.name }},
        {{ column.name }} as raw_{{ column.name }},
    {% endfor -%}
    {%- set checks = [{
        'condition': '_parse_error is not null',
        'column': '_line',
        'reason': '_parse_error',
        'raw': '_raw_line',
    }] -%}
    {%- for column in spec.columns -%}
        {%- set blank = normalize_text(column.name) ~ " = ''" if not column.get('empty_ok') else 'false' -%}
        {%- if column.required -%}
            {%- do checks.append({
                'condition': '_parse_error is null and (' ~ column.name ~ ' is null or ' ~ blank ~ ')',
                'column': column.name,
                'reason': "'missing_required_value'",
                'raw': column.name,
            }) -%}
        {%- endif -%}
        {%- set unparsable = {
            'timestamp': 'unparsable_timestamp',
            'boolean': 'unparsable_boolean',
            'integer': 'unparsable_integer',
            'list': 'unparsable_list',
            'roles': 'malformed_entity_roles',
        }.get(column.kind) -%}
        {%- if unparsable -%}
            {%- do checks.append({
                'condition': normalize_text(column.name) ~ " <> '' and "
                    ~ parse_input_value(column) ~ ' is null',
                'column': column.name,
                'reason': "'" ~ unparsable ~ "'",
                'raw': column.name,
            }) -%}
        {%- endif -%}
    {%- endfor %}
    {{ collect_violations(checks) }} as _column_violations
{%- endmacro %}

{% macro parse_input_value(column) -%}
    {%- if column.kind == 'timestamp' -%}
        {{ parse_timestamp(column.name) }}
    {%- elif column.kind == 'boolean' -%}
        {{ parse_boolean(column.name) }}
    {%- elif column.kind == 'integer' -%}
        {{ parse_integer(column.name) }}
    {%- elif column.kind == 'list' -%}
        {{ parse_text_list(column.name) }}
    {%- elif column.kind == 'roles' -%}
        {{ parse_entity_roles(column.name) }}
    {%- else -%}
        {{ normalize_text(column.name) }}
    {%- endif -%}
{%- endmacro %}
