{#
    The input contract (docs/rules.md#input-contract) as data, read from the `meta` of the
    chat_logs source tables and their columns (models/staging/chat_logs/_chat_logs__sources.yml,
    the contract's only copy; python_udfs/contract.py reads the same file): for each input
    table, in the YAML's order, its var, key and, for an optional input, `optional` and
    demo_default, and its columns in order, each with the kind of parsing it needs, whether it
    is required and, where true, `id` or empty_ok. Staging, the readers and the quarantine all
    take their column lists from here. An `id` column (the keys turn_id, session_id,
    character_id, model_id, prompt_id and term_order) must be a string or an integer in every
    format (id_not_string_or_integer otherwise), and loses its format characters in staging
    (normalize_key). Columns named `_…` are the reader's bookkeeping, not the contract's; any
    other column without a kind fails the run.
    dbt fills `graph` only once it has parsed the project, so while it parses (execute is
    false) the contract is empty: the callers render nothing from it then. A unit test is
    compiled against a manifest of its own whose graph is empty too; there the contract is
    the one python_udfs/contract.py read from the same YAML, which the card_keeper plugin
    keeps in the session variable ck_input_contract (test_input_contract.py checks that the
    two agree).
#}
{% macro input_contract() -%}
    {%- if not execute -%}
        {{ return({}) }}
    {%- endif -%}
    {%- if not graph.get('sources') -%}
        {{ return(fromjson(
            run_query("select getvariable('ck_input_contract')").columns[0].values()[0]
        )) }}
    {%- endif -%}
    {%- set contract = {} -%}
    {%- for node in graph.sources.values()
        if node.package_name == project_name and node.source_name == 'chat_logs' -%}
        {%- set columns = [] -%}
        {%- for column in node.columns.values() if not column.name.startswith('_') -%}
            {%- if not column.meta.get('kind') -%}
                {{ exceptions.raise_compiler_error(
                    'Column ' ~ column.name ~ ' of source chat_logs.' ~ node.name
                    ~ ' has no kind in its meta (the input contract, ' ~ node.original_file_path
                    ~ ')'
                ) }}
            {%- endif -%}
            {%- set spec = {'name': column.name} -%}
            {%- do spec.update(column.meta) -%}
            {%- do columns.append(spec) -%}
        {%- endfor -%}
        {%- set table = {} -%}
        {%- do table.update(node.meta) -%}
        {%- do table.update({'columns': columns}) -%}
        {%- do contract.update({node.name: table}) -%}
    {%- endfor -%}
    {{ return(contract) }}
{%- endmacro %}

{#
    `dbt run-operation print_input_contract`: input_contract() as one line of JSON on stdout,
    for a test to compare with python_udfs/contract.py.
#}
{% macro print_input_contract() -%}
    {%- do print(tojson(input_contract())) -%}
{%- endmacro %}
