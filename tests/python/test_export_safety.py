"""The export never replaces what it must not, never interleaves, lands beside its database,
and a database path that cannot work fails at once (python_udfs.export, python_udfs.plugin)."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import duckdb
import jsonschema
import pytest
from conftest import (
    BUILD,
    BUILD_WITHOUT_TESTS,
    DBT,
    PROJECT_ROOT,
    copy_build,
    fixture_inputs,
    run_dbt,
)

from python_udfs import export, plugin

SCHEMA = json.loads((PROJECT_ROOT / "schemas" / "verdict.schema.json").read_text())
SEED = fixture_inputs("seed_000")


@pytest.fixture(scope="module")
def built(seed_000_build, tmp_path_factory):
    """A copy of the seed_000 build; the refusal tests rerun only the export model on it."""
    return copy_build(seed_000_build, tmp_path_factory.mktemp("export_safety"))


def rerun_export(built, workdir: Path, export_path, inputs=None):
    """`dbt run -s export_turn_verdicts` on the built database with the given export_path."""
    return run_dbt(
        ["run", "-s", "export_turn_verdicts"],
        workdir,
        inputs or SEED,
        extra_vars={"export_path": export_path},
        database=built.database,
        check=False,
    )


def a_previous_export(tmp_path: Path) -> Path:
    path = tmp_path / "previous.json"
    row = {
        "turn_id": "T-1",
        "session_id": "S-1",
        "character_id": "C-1",
        "model_id": "m",
        "verdict": "설정대로 말함",
        "evidence": [],
        "summary": "답장 한 문장이 카드의 반말 규칙과 같습니다.",
    }
    path.write_text("[\n" + json.dumps(row, ensure_ascii=False) + "\n]\n", encoding="utf-8")
    return path


# -- 1. targets that must never be replaced -----------------------------------------------------
def test_export_path_equal_to_the_database_is_refused(built, tmp_path: Path) -> None:
    before = built.database.read_bytes()[:4096]
    result = rerun_export(built, tmp_path, str(built.database))
    assert result.returncode != 0
    assert "export_path" in result.output
    assert "it is the database this build writes to" in result.output
    assert built.database.read_bytes()[:4096] == before
    with duckdb.connect(str(built.database), read_only=True) as con:
        assert con.execute("select count(*) from marts.fct_turn_verdicts").fetchall()[0][0] > 0


def test_export_path_matching_an_input_glob_is_refused(built, tmp_path: Path) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    copied = {}
    for table, source in SEED.items():
        copied[table] = inputs / source.name
        copied[table].write_bytes(source.read_bytes())
    lexicon = copied["topic_lexicon"]
    original = lexicon.read_bytes()
    # Inputs other than the built database's are a new input set: a whole build into its own
    # database, since a partial one is refused before the export is reached.
    result = run_dbt(
        BUILD_WITHOUT_TESTS,
        tmp_path / "run",
        {**copied, "topic_lexicon": str(inputs / "topic_*.csv")},
        extra_vars={"export_path": str(lexicon)},
        check=False,
    )
    assert result.returncode != 0
    assert "it is an input file of this build (input_topic_lexicon" in result.output
    assert lexicon.read_bytes() == original


def project_siblings() -> set[Path]:
    """What an export aimed at the project folder itself would leave beside it (its
    `.<name>.*.partial` temp file, or a file in its place); other processes' files in the
    parent folder (a shared /tmp, other test workers) are not counted."""
    return {path for path in PROJECT_ROOT.parent.iterdir() if PROJECT_ROOT.name in path.name}


def test_empty_export_path_is_refused(built, tmp_path: Path) -> None:
    siblings = project_siblings()
    result = rerun_export(built, tmp_path, "")
    assert result.returncode != 0
    assert "export_path '': an empty export_path names no file" in result.output
    assert project_siblings() == siblings
    assert PROJECT_ROOT.is_dir()


def test_dev_null_export_path_is_refused(built, tmp_path: Path) -> None:
    result = rerun_export(built, tmp_path, "/dev/null")
    assert result.returncode != 0
    assert "export_path '/dev/null': it is not a regular file" in result.output


def test_check_target_refuses_a_directory(tmp_path: Path) -> None:
    with pytest.raises(export.ExportRefused, match="it is a directory"):
        export.check_target(tmp_path)


def test_check_target_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(export.ExportRefused, match="not a regular file"):
        export.check_target(fifo)


def test_check_target_refuses_a_file_that_is_not_a_previous_export(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('["캐릭터 메모", "지우면 안 되는 파일"]\n', encoding="utf-8")
    with pytest.raises(export.ExportRefused, match="not a previous export"):
        export.check_target(notes)
    other_objects = tmp_path / "other.json"
    other_objects.write_text('[{"이름": "리안", "turn_id": "T-1"}]', encoding="utf-8")
    with pytest.raises(export.ExportRefused, match="not a previous export"):
        export.check_target(other_objects)
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    with pytest.raises(export.ExportRefused, match="not a previous export"):
        export.check_target(empty)


def test_check_target_refuses_the_database_wal_and_a_symlink_to_the_database(
    tmp_path: Path,
) -> None:
    database = tmp_path / "logs.duckdb"
    duckdb.connect(str(database)).close()
    link = tmp_path / "link.json"
    link.symlink_to(database)
    for target in (database, tmp_path / "logs.duckdb.wal", link):
        with pytest.raises(export.ExportRefused, match="the database this build writes to"):
            export.check_target(target, database)


def test_check_target_accepts_a_previous_export_or_a_new_file(tmp_path: Path) -> None:
    export.check_target(a_previous_export(tmp_path))
    empty_array = tmp_path / "none.json"
    empty_array.write_text("[\n]\n", encoding="utf-8")
    export.check_target(empty_array)
    export.check_target(tmp_path / "new" / "turn_verdicts.json")


def test_input_files_resolves_globs_relative_paths_and_tilde(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "대화_1.csv").write_text("turn_id\n", encoding="utf-8")
    (tmp_path / "대화_2.csv").write_text("turn_id\n", encoding="utf-8")
    found = export.input_files(["~/대화_*.csv", "data/demo/topic_lexicon.csv", None, ""])
    assert os.path.realpath(tmp_path / "대화_1.csv") in found
    assert os.path.realpath(tmp_path / "대화_2.csv") in found
    assert os.path.realpath(PROJECT_ROOT / "data/demo/topic_lexicon.csv") in found


# -- 2. two builds sharing an export_path ------------------------------------------------------
def verdict_database(path: Path, turns: int, verdict: str) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(path))
    con.execute(
        """
        create table v as
        select printf('T-%06d', i) as turn_id, 'S-1' as session_id, 'C-1' as character_id,
               'm' as model_id, ? as verdict, null as rule_expected, null as rule_observed,
               []::varchar[] as off_canon_entities, null as touched_term, null as touched_topic,
               null as recall_target, null as recall_source_turn,
               [{'source': 'chat_turn', 'field': 'reply_text', 'agg': null,
                 'value': '그래, 하늘이는 잘 있어.'}] as evidence,
               '답장 한 문장이 카드의 반말 규칙과 같습니다.' as summary, null as hedge
        from range(?) as t(i)
        """,
        [verdict, turns],
    )
    return con


def test_concurrent_exports_to_one_path_leave_one_whole_export(tmp_path: Path) -> None:
    target = tmp_path / "shared" / "turn_verdicts.json"
    fields = export.schema_fields()
    connections = [
        verdict_database(tmp_path / "a.duckdb", 60_000, "설정대로 말함"),
        verdict_database(tmp_path / "b.duckdb", 45_000, "말투 어긋남"),
    ]
    alone = []
    for index, con in enumerate(connections):
        solo = tmp_path / f"solo_{index}.json"
        export.write_json_array(con.table("v"), fields, solo)
        alone.append(solo.read_bytes())
    assert alone[0] != alone[1]
    for _ in range(3):
        start = threading.Barrier(len(connections))
        errors: list[BaseException] = []

        def write(
            con: duckdb.DuckDBPyConnection,
            start: threading.Barrier = start,
            errors: list[BaseException] = errors,
        ) -> None:
            try:
                cursor = con.cursor()
                start.wait()
                export.write_json_array(cursor.table("v"), fields, target)
            except BaseException as error:  # reported by the assertion below
                errors.append(error)

        threads = [threading.Thread(target=write, args=(con,)) for con in connections]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        final = target.read_bytes()
        assert final in alone
        rows = json.loads(final)
        jsonschema.validate(rows[0], SCHEMA)
        assert sorted(path.name for path in target.parent.iterdir()) == ["turn_verdicts.json"]
    for con in connections:
        con.close()


def test_export_file_gets_ordinary_permissions(tmp_path: Path) -> None:
    con = verdict_database(tmp_path / "a.duckdb", 3, "설정대로 말함")
    target = tmp_path / "turn_verdicts.json"
    export.write_json_array(con.table("v"), export.schema_fields(), target)
    assert target.stat().st_mode & 0o777 == 0o644
    con.close()


# -- 3. a build into another database exports beside it -----------------------------------------
def test_build_into_another_database_exports_beside_it_when_export_path_is_omitted(
    tmp_path: Path,
) -> None:
    demo_export = PROJECT_ROOT / "exports" / "turn_verdicts.json"
    demo_before = demo_export.stat().st_mtime_ns if demo_export.exists() else None
    database = tmp_path / "analyst" / "my_logs.duckdb"
    database.parent.mkdir()
    dbt_vars = {f"input_{table}": str(path) for table, path in SEED.items()}
    common = ["--project-dir", str(PROJECT_ROOT), "--profiles-dir", str(PROJECT_ROOT)]
    process = subprocess.run(
        [
            DBT, "build", *common,
            "--target-path", str(tmp_path / "target"),
            "--log-path", str(tmp_path / "logs"),
            "--vars", json.dumps(dbt_vars, ensure_ascii=False),
        ],
        cwd=tmp_path,
        env={**os.environ, "CARD_KEEPER_DB": str(database), "DBT_SEND_ANONYMOUS_USAGE_STATS": "0"},
        capture_output=True,
        text=True,
        check=False,
    )  # fmt: skip
    assert process.returncode == 0, (process.stdout + process.stderr)[-4000:]
    beside = database.parent / "my_logs.turn_verdicts.json"
    rows = json.loads(beside.read_text(encoding="utf-8"))
    with duckdb.connect(str(database), read_only=True) as con:
        ((turns,),) = con.execute("select count(*) from marts.fct_turn_verdicts").fetchall()
        receipt = con.execute("select export_path from marts.export_turn_verdicts").fetchall()
    assert len(rows) == turns
    assert receipt == [(str(beside),)]
    after = demo_export.stat().st_mtime_ns if demo_export.exists() else None
    assert after == demo_before, "the demo's exports/turn_verdicts.json was rewritten"


def test_default_target_rules() -> None:
    assert export.default_target(PROJECT_ROOT / "card_keeper.duckdb") == (
        PROJECT_ROOT / "exports" / "turn_verdicts.json"
    )
    assert export.default_target("card_keeper.duckdb") == (
        PROJECT_ROOT / "exports" / "turn_verdicts.json"
    )
    assert export.default_target("/srv/로그/주간.duckdb") == Path(
        "/srv/로그/주간.turn_verdicts.json"
    )
    # An explicit export_path wins; null and the shipped default follow the database.
    assert export.resolve_target("/tmp/mine.json", "/srv/a.duckdb") == Path("/tmp/mine.json")
    assert export.resolve_target(None, "/srv/a.duckdb") == Path("/srv/a.turn_verdicts.json")
    assert export.resolve_target(export.DEFAULT_EXPORT, "/srv/a.duckdb") == Path(
        "/srv/a.turn_verdicts.json"
    )
    with pytest.raises(export.ExportRefused, match="empty export_path"):
        export.resolve_target("  ", "/srv/a.duckdb")


# -- 4. a database path that cannot work fails at once -----------------------------------------
@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("missing_folder/logs.duckdb", "does not exist"),
        ("logs.json", "is not a .duckdb or .db file"),
        ("a_folder", "it is a directory"),
    ],
    ids=["folder_missing", "json_suffix", "directory"],
)
def test_card_keeper_db_that_cannot_work_fails_at_once(tmp_path: Path, name, problem) -> None:
    database = tmp_path / name
    if name == "a_folder":
        database.mkdir()
    started = time.monotonic()
    result = run_dbt(BUILD, tmp_path / "run", SEED, database=database, check=False)
    elapsed = time.monotonic() - started
    assert result.returncode != 0
    lines = [line for line in result.output.splitlines() if "CARD_KEEPER_DB=" in line]
    assert lines, result.output[-3000:]
    assert problem in lines[0] and str(database) in lines[0]
    assert "Traceback" not in result.output
    assert elapsed < 60, f"took {elapsed:.0f} s"
    assert not (tmp_path / "missing_folder").exists()
    assert not (tmp_path / "logs.json").exists()


def test_database_path_problem_rules(tmp_path: Path) -> None:
    not_duckdb = tmp_path / "text.duckdb"
    not_duckdb.write_text("지난주 대화 로그 메모\n", encoding="utf-8")
    assert "not a DuckDB database" in plugin.database_path_problem(str(not_duckdb))
    real = tmp_path / "real.duckdb"
    duckdb.connect(str(real)).close()
    assert plugin.database_path_problem(str(real)) is None
    assert plugin.database_path_problem(str(tmp_path / "new.db")) is None
    assert plugin.database_path_problem(":memory:") is None
