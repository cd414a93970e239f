-- The ingest plan of this build, one row per chat_turn file (docs/rules.md#incremental-builds).

with source as (
    select * from {{ source('ingest', 'chat_turn_files') }}
),

renamed as (
    select
        file_path,
        file_status,
        file_size,
        modified_at,
        ingested_file_size,
        ingested_modified_at,
        ingested_at,
        build_mode,
        -- A file this build read was ingested by it.
        case when file_status = 'new' then planned_by else ingested_by end as ingested_by
    from source
)

select * from renamed
