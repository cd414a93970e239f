{#
    What a Spark build leaves out, and why: the nodes that need Python inside the SQL engine
    (DuckDB's Python UDFs, the Kiwi morphological analyser, a Python model on DuckDB's
    connection), which a Spark SQL session has no way to run. Each is disabled on Spark by its
    own `enabled` config (dbt_project.yml, or the test's config); this list is what
    the on-run-start hook log_spark_skips prints, so that a check left out is never mistaken
    for one that passed. tests/python/test_spark_skips.py holds the two to each other.
#}
{% macro spark_skipped_nodes() -%}
    {{- return({
        'fct_review_sentence_endings':
            'the Kiwi morphological analyser runs as a DuckDB Python UDF',
        'fct_review_ending_candidates':
            'reads fct_review_sentence_endings (the analyser)',
        'fct_review_mixed_register':
            "its candidate_endings come from fct_review_sentence_endings (the analyser)",
        'assert_check_03_tone_rederived':
            'the independent tone is the Python UDF ck_tone',
        'assert_check_10_summary_ends_honorific':
            'the summary ending is checked by the Python UDF ck_last_sentence_is_honorific',
    }) -}}
{%- endmacro %}

{# on-run-start: on Spark, one log line per node left out, with the reason; nothing on DuckDB. #}
{% macro log_spark_skips() -%}
    {%- if execute and target.type == 'spark' -%}
        {%- set skipped = spark_skipped_nodes() -%}
        {%- do log('Left out on Spark (' ~ skipped | length ~ ' nodes; they run on DuckDB):', info=true) -%}
        {%- for name, reason in skipped.items() -%}
            {%- do log('  skipped on Spark: ' ~ name ~ ': ' ~ reason, info=true) -%}
        {%- endfor -%}
    {%- endif -%}
{%- endmacro %}
