{#
    The verdict export on Spark (docs/rules.md#output); on DuckDB export_turn_verdicts.py
    writes it. The same JSON array as DuckDB's, byte for byte: "[", one object per line holding
    exactly the output schema's fields in turn_id order, lines joined by ",", "]". Spark writes
    a directory, not a file, so the post-hook writes the whole array as the single line of a
    single text file in the folder `<export_path>.parts` (its part-00000-*.txt file beside
    Spark's _SUCCESS marker); `cat <export_path>.parts/part-*.txt > <export_path>` is the export
    file itself. A relative export_path is anchored at the project root. The model's own table
    is the export's receipt, like DuckDB's: where it was written, how many turns, how many bytes.
    The evidence values are JSON text on Spark; parse_json makes them JSON again, not strings.
#}
{{ config(
    enabled=target.type == 'spark',
    materialized='table',
    post_hook="{{ spark_export_write(ref('fct_turn_verdicts')) }}",
) }}

with exported as (
    {{ spark_export_json_array(ref('fct_turn_verdicts')) }}
)

select
    cast('{{ spark_export_dir() }}' as string) as export_path,
    -- Every verdict: a Spark build writes every one (export_scope changed holds them all too).
    cast({{ sql_text(var('export_scope')) }} as string) as export_scope,
    cast(turn_count as bigint) as turn_count,
    -- The file's size: the array and the line end the text writer adds.
    cast(octet_length(json_array) + 1 as bigint) as byte_count
from exported
