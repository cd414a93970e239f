"""The verbatim and field-name checks are proven able to fail on a damaged copy of the mart."""

from __future__ import annotations

import duckdb
import pytest
from conftest import copy_database, fixture_inputs, run_dbt


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return run_dbt(["build"], tmp_path_factory.mktemp("checks"), fixture_inputs("seed_000"))


def damage_and_test(built, tmp_path, statement, test_name):
    copy = copy_database(built, tmp_path / "damaged.duckdb")
    with duckdb.connect(str(copy)) as con:
        changed = con.execute(statement).fetchall()
        assert changed and changed[0][0] == 1, "the damage must touch exactly one row"
    return run_dbt(
        ["test", "--select", test_name],
        tmp_path / "run",
        fixture_inputs("seed_000"),
        database=copy,
        check=False,
    )


def test_undamaged_mart_passes_both_checks(built, tmp_path):
    copy = copy_database(built, tmp_path / "intact.duckdb")
    result = run_dbt(
        [
            "test",
            "--select",
            "assert_check_08_evidence_fields_exist",
            "assert_check_09_evidence_values_verbatim",
        ],
        tmp_path / "run",
        fixture_inputs("seed_000"),
        database=copy,
        check=False,
    )
    assert result.returncode == 0, result.output[-3000:]


def test_an_altered_value_fails_the_verbatim_check(built, tmp_path):
    result = damage_and_test(
        built,
        tmp_path,
        "update marts.fct_turn_evidence set value = '투표' "
        "where turn_id = 'T-004530' and field = 'term' returning 1",
        "assert_check_09_evidence_values_verbatim",
    )
    assert result.returncode != 0
    assert "assert_check_09_evidence_values_verbatim" in result.output
    assert "Got 1 result" in result.output


def test_an_invented_field_fails_the_field_name_check(built, tmp_path):
    result = damage_and_test(
        built,
        tmp_path,
        "update marts.fct_turn_evidence set field = 'mood' "
        "where turn_id = 'T-004468' and ordinal = 2 returning 1",
        "assert_check_08_evidence_fields_exist",
    )
    assert result.returncode != 0
    assert "Got 1 result" in result.output
