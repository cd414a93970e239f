"""card_keeper's Python UDFs: pure functions, importable without dbt, plus the dbt-duckdb plugin."""
