"""The off-canon, recall, null-handling, field-name and verbatim checks are proven able to fail on
a damaged copy of the marts.

Each check is the singular dbt test's own SQL, as the seed_000 build compiled and ran it (green),
run on a copy of that build's database with the project's UDFs registered: a dbt test fails
exactly when its query returns rows, and a dbt invocation per damage would only add its start-up
and parse."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from conftest import DbtResult, copy_build

from python_udfs.plugin import Plugin


def failing_rows(seed_000_build: DbtResult, database: Path, test_name: str) -> int:
    """How many rows the singular test `test_name` returns on `database` (0 = it passes)."""
    compiled = (
        seed_000_build.database.parent / "target" / "compiled" / "card_keeper" / "tests" / "marts"
    )
    sql = (compiled / f"{test_name}.sql").read_text("utf-8")
    with duckdb.connect(str(database)) as con:
        Plugin("card_keeper", {}).configure_connection(con)
        con.execute("set TimeZone = 'UTC'")
        return len(con.execute(sql).fetchall())


def damage_and_test(seed_000_build, tmp_path, statement, test_name) -> int:
    copy = copy_build(seed_000_build, tmp_path).database
    with duckdb.connect(str(copy)) as con:
        changed = con.execute(statement).fetchall()
        assert changed and changed[0][0] == 1, "the damage must touch exactly one row"
    return failing_rows(seed_000_build, copy, test_name)


@pytest.mark.parametrize(
    "test_name",
    [
        "assert_check_04_off_canon_recomputed",
        "assert_check_06_recall_recomputed",
        "assert_check_07_null_handling",
        "assert_check_08_evidence_fields_exist",
        "assert_check_09_evidence_values_verbatim",
    ],
)
def test_undamaged_marts_pass_the_checks(seed_000_build, tmp_path, test_name):
    copy = copy_build(seed_000_build, tmp_path).database
    assert failing_rows(seed_000_build, copy, test_name) == 0


def test_an_altered_value_fails_the_verbatim_check(seed_000_build, tmp_path):
    result = damage_and_test(
        seed_000_build,
        tmp_path,
        "update marts.fct_turn_evidence set value = '투표' "
        "where turn_id = 'T-004530' and field = 'term' returning 1",
        "assert_check_09_evidence_values_verbatim",
    )
    assert result == 1


def test_an_invented_field_fails_the_field_name_check(seed_000_build, tmp_path):
    result = damage_and_test(
        seed_000_build,
        tmp_path,
        "update marts.fct_turn_evidence set field = 'mood' "
        "where turn_id = 'T-004468' and ordinal = 2 returning 1",
        "assert_check_08_evidence_fields_exist",
    )
    assert result == 1


@pytest.mark.parametrize(
    ("check", "statement", "what"),
    [
        (
            "assert_check_07_null_handling",
            # T-004631 has no named_entities: its off_canon check must stay skipped.
            "update marts.fct_turn_checks set status = 'pass', reason_code = null "
            "where turn_id = 'T-004631' and check_name = 'off_canon' returning 1",
            "null names not skipped",
        ),
        (
            "assert_check_07_null_handling",
            # T-004450 has named_entities: its off_canon check must not be skipped.
            "update marts.fct_turn_checks set status = 'skipped', "
            "reason_code = 'named_entities_null' "
            "where turn_id = 'T-004450' and check_name = 'off_canon' returning 1",
            "skipped with names",
        ),
        (
            "assert_check_07_null_handling",
            # T-004450 has no first_person: the hedge must say the comparison was skipped.
            "update marts.fct_turn_verdicts set hedge = null "
            "where turn_id = 'T-004450' returning 1",
            "first_person null not hedged",
        ),
        (
            "assert_check_04_off_canon_recomputed",
            # T-004450 names entities: a name the recomputation does not find is caught.
            "update marts.fct_turn_verdicts "
            "set off_canon_entities = list_append(coalesce(off_canon_entities, []), '유리궁') "
            "where turn_id = 'T-004450' returning 1",
            "an invented off-canon name",
        ),
        (
            "assert_check_04_off_canon_recomputed",
            "update marts.fct_turn_verdicts set off_canon_entities = null "
            "where turn_id = 'T-004450' returning 1",
            "off_canon_entities null although named_entities is not",
        ),
    ],
)
def test_a_broken_rule_fails_its_check(seed_000_build, tmp_path, check, statement, what):
    """The null-handling rules of check 7 and the off-canon list of check 4."""
    result = damage_and_test(seed_000_build, tmp_path, statement, check)
    assert result == 1, what


def test_an_invented_recall_target_fails_the_recall_check(seed_000_build, tmp_path):
    # T-004450's user did not ask about an earlier turn: it has no recall target.
    result = damage_and_test(
        seed_000_build,
        tmp_path,
        "update marts.fct_turn_verdicts set recall_target = '하늘', "
        "recall_source_turn = 'T-004449' where turn_id = 'T-004450' returning 1",
        "assert_check_06_recall_recomputed",
    )
    assert result == 1


def test_card_own_name_is_canon_in_check_4(seed_000_build, tmp_path):
    """docs/rules.md#canon (rule v2): a character naming itself stays inside its world. The input
    turn now names 강무진, CHR-0001's own name, and the verdict row keeps off_canon_entities =
    []: check 4's recomputation must agree (it flagged the turn while the canon lacked the
    name)."""
    result = damage_and_test(
        seed_000_build,
        tmp_path,
        "update staging.base_chat_logs__turns set named_entities = ['강무진'] "
        "where turn_id = 'T-004468' returning 1",
        "assert_check_04_off_canon_recomputed",
    )
    assert result == 0
