-- One row per chat_turn file a build of this database read or was asked to read
-- (docs/rules.md#incremental-builds): its status, when it was ingested, how many rows it gave,
-- and a warning when it changed or disappeared after it was ingested.

with files as (
    select * from {{ ref('stg_ingest__chat_turn_files') }}
),

turn_rows as (
    select
        _source_file as file_path,
        count(*) as row_count,
        count(*) filter (where {{ list_size_function() }}(_violations) > 0) as violating_row_count
    from {{ ref('base_chat_logs__turns') }}
    group by _source_file
),

final as (
    select
        files.file_path,
        files.file_status,
        files.file_size,
        files.modified_at,
        files.ingested_file_size,
        files.ingested_modified_at,
        files.ingested_by,
        files.ingested_at,
        files.build_mode,
        coalesce(turn_rows.row_count, 0) as row_count,
        coalesce(turn_rows.violating_row_count, 0) as violating_row_count,
        case files.file_status
            when 'changed'
                then
                    '수집한 뒤 파일이 바뀌었습니다 (크기 '
                    || cast(files.ingested_file_size as {{ text_type() }}) || ' → '
                    || cast(files.file_size as {{ text_type() }}) || '). 수집한 행을 그대로 두고 다시 읽지 않습니다;'
                    || ' 새로 읽으려면 dbt build --full-refresh 를 실행하세요.'
            when 'missing'
                then
                    '수집한 파일이 입력에서 사라졌습니다. 그 행은 그대로 남습니다;'
                    || ' 지우려면 dbt build --full-refresh 를 실행하세요.'
        end as warning
    from files
    left join turn_rows
        on files.file_path = turn_rows.file_path
)

select * from final
