"""Incremental builds (docs/rules.md#incremental-builds): the demo's turns built in five daily
batches, with every change the rules must follow between batches, end with the same turn-level
marts, row for row, as one full build of the same files."""

from __future__ import annotations

import json
import os
import shutil
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from conftest import BUILD, PROJECT_ROOT, copy_project, run_dbt

DEMO = PROJECT_ROOT / "data" / "demo"
# Compared row for row; the columns that name the build which wrote a row are left out.
COMPARED = {
    "marts.fct_turn_verdicts": ["judged_by"],
    "marts.fct_turn_evidence": ["judged_by"],
    "marts.fct_turn_checks": ["judged_by"],
    "marts.fct_contract_violations": [],
    # The compared rows an incremental build rewrites by prompt, and the marts read from them.
    "intermediate.int_turns_compared": ["compared_by"],
    "marts.fct_prompt_model_matrix": ["compared_by"],
    "marts.fct_model_deviation_rates": [],
    "marts.fct_model_pairwise_deviations": [],
}


# The rows of int_turns_compared the last build wrote, of all, and of them the rows of turns an
# earlier build judged (rewritten because their prompt was).
REWRITTEN_COMPARED = """
    with written as (select max(judged_by) as build from intermediate.int_turns_to_judge)
    select
        (select count(*) from intermediate.int_turns_compared) as total,
        count(*) as rows,
        count(*) filter (where judged.judged_by <> written.build) as of_earlier_turns
    from intermediate.int_turns_compared as compared
    inner join intermediate.int_turns_judged as judged on compared.turn_id = judged.turn_id
    cross join written
    where compared.compared_by = written.build
"""
STORED_COMPARED = """
    select turn_id, model_id, character_id, prompt_id, created_at, verdict, is_deviation,
        is_shared_prompt
    from intermediate.int_turns_compared
"""
STORED_MATRIX = """
    select prompt_id, model_id, turn_id, verdict, answers from marts.fct_prompt_model_matrix
"""


def recomputed_compared(models: list[str] | None = None) -> tuple[str, str]:
    """The compared rows as a full build writes them, recomputed from the judged turns of the
    same database: int_turns_compared, then fct_prompt_model_matrix. Every model is compared,
    or with models (var compared_models) those only."""
    only = (
        " where model_id in ({})".format(", ".join(f"'{model}'" for model in models))
        if models
        else ""
    )
    compared = f"""
        with judged as (select * from intermediate.int_turns_judged{only}),
        shared as (
            select prompt_id from judged
            where prompt_id is not null
            group by prompt_id
            having count(distinct model_id) = (select count(distinct model_id) from judged)
        )
        select
            judged.turn_id, judged.model_id, judged.character_id, judged.prompt_id,
            judged.created_at, judged.verdict, words.is_deviation,
            coalesce(judged.prompt_id in (select prompt_id from shared), false)
                as is_shared_prompt
        from judged
        inner join seeds.verdict_words as words on judged.verdict = words.verdict
    """
    matrix = f"""
        with compared as ({compared}),
        ranked as (
            select
                prompt_id, model_id, turn_id, verdict,
                count(*) over (partition by prompt_id, model_id) as answers,
                row_number() over (
                    partition by prompt_id, model_id order by created_at, turn_id
                ) as answer_rank
            from compared
            where is_shared_prompt
        )
        select prompt_id, model_id, turn_id, verdict, answers from ranked where answer_rank = 1
    """
    return compared, matrix


def rows_differing(stored: str, recomputed: str) -> str:
    """A query counting (as n) the rows of either query that the other lacks, duplicates
    counted: 0 when the two return the same rows."""
    return (
        f"select count(*) as n from ((({stored}) except all ({recomputed}))"
        f" union all (({recomputed}) except all ({stored})))"
    )


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
    )


def session_order(turn: dict) -> tuple[str, str]:
    return (turn["created_at"], turn["turn_id"])


def recall_source(session: list[dict], number: int, roles: list[dict]) -> dict | None:
    """The turn a recall turn's target is first mentioned in (docs/rules.md#recall), when its
    reply lacks the target: the earliest earlier turn of the session naming the entity of the
    first card role its user_message contains."""
    turn = session[number]
    message = turn.get("user_message") or ""
    asked = next((role["entity"] for role in roles if role["role"] in message), None)
    if asked is None or asked in turn["reply_text"]:
        return None
    return next(
        (earlier for earlier in session[:number] if asked in (earlier.get("named_entities") or [])),
        None,
    )


def plan_batches(turns: list[dict], cards: list[dict]) -> tuple[list[list[dict]], dict]:
    """The demo's turns in five daily files: each session's turns spread over the first three
    by their place in the session, so sessions span batches; then a late turn (the first
    mention a recall turn of an earlier batch looks back at) held back to the fourth batch
    with a duplicate of a first-batch turn and a fourth model's answer to a prompt the other
    three answered (every prompt then needs four answers to be shared), and a few turns for
    the fifth with the fourth model's answer to another such prompt (shared again)."""
    roles = {card["character_id"]: card.get("entity_roles") or [] for card in cards}
    sessions: dict[str, list[dict]] = {}
    for turn in turns:
        sessions.setdefault(turn["session_id"], []).append(turn)
    batch_of: dict[str, int] = {}
    for session in sessions.values():
        session.sort(key=session_order)
        for position, turn in enumerate(session):
            batch_of[turn["turn_id"]] = min(2, position * 3 // len(session))
    late, recalling = next(
        (source, turn)
        for session in sessions.values()
        for number, turn in enumerate(session)
        if turn.get("user_asked_recall")
        and (source := recall_source(session, number, roles[turn["character_id"]]))
    )
    batch_of[late["turn_id"]] = 3
    batch_of[recalling["turn_id"]] = min(batch_of[recalling["turn_id"]], 2)
    # Five turns judged as new in the last batch (none of CHR-0003, quarantined by then).
    fifth = [
        turn
        for turn in turns
        if batch_of[turn["turn_id"]] == 2
        and turn["character_id"] != "CHR-0003"
        and turn is not recalling
    ][-5:]
    for turn in fifth:
        batch_of[turn["turn_id"]] = 4
    batches: list[list[dict]] = [[] for _ in range(5)]
    for turn in turns:
        batches[batch_of[turn["turn_id"]]].append(turn)
    duplicate = dict(batches[0][0], reply_text="같은 turn_id 로 다시 들어온 답장이야.")
    batches[3].append(duplicate)
    models_of: dict[str, set[str]] = {}
    for turn in turns:
        if turn.get("prompt_id") and batch_of[turn["turn_id"]] < 3:
            models_of.setdefault(turn["prompt_id"], set()).add(turn["model_id"])
    every_model = {turn["model_id"] for turn in turns}
    answered = [
        turn
        for turn in batches[0]
        if turn["character_id"] != "CHR-0003"
        and models_of.get(turn.get("prompt_id")) == every_model
        and turn is not late
    ]
    new_model = [
        dict(
            turn,
            turn_id=f"T-NEW-MODEL-{number}",
            session_id="S-NEW-MODEL",
            model_id="hangul-lm-preview",
            reply_text=reply,
        )
        for number, (turn, reply) in enumerate(
            zip(
                (
                    answered[0],
                    next(t for t in answered if t["prompt_id"] != answered[0]["prompt_id"]),
                ),
                (
                    "네, 기억하고 있어요. 그날 이야기를 다시 해 볼까요?",
                    "좋아요, 오늘은 천천히 걸어가요.",
                ),
                strict=True,
            ),
            start=1,
        )
    ]
    batches[3].append(new_model[0])
    batches[4].append(new_model[1])
    picked = {"late": late, "recalling": recalling, "duplicate": duplicate}
    return batches, picked


def card_versions(cards: list[dict]) -> tuple[list[dict], list[dict]]:
    """Cards before the third batch and from it on (the full build reads the later ones):
    CHR-0001's canon loses a name, CHR-0002 is quarantined (honorific_rule 반존대) and comes
    back clean, CHR-0003 is clean and then quarantined."""
    before, after = [], []
    for card in cards:
        early, late = dict(card), dict(card)
        if card["character_id"] == "CHR-0001":
            early["canon_entities"] = card["canon_entities"][1:]
        if card["character_id"] == "CHR-0002":
            early["honorific_rule"] = "반존대"
        if card["character_id"] == "CHR-0003":
            late["honorific_rule"] = "반존대"
        before.append(early)
        after.append(late)
    return before, after


def judge_reasons(result) -> Counter:
    return Counter(
        {
            row["judge_reason"]: row["turns"]
            for row in result.rows(
                "select judge_reason, count(*) as turns from intermediate.int_turns_to_judge"
                " group by judge_reason"
            )
        }
    )


class DailyBatches:
    """The demo's turns as daily files in `root` (plan_batches), on a copy of the project,
    with the cards and the ending each batch is built with; `merged_tail` puts the last two
    batches in one file. Iterating writes each batch's inputs, then yields its number."""

    def __init__(self, root: Path, merged_tail: bool = False):
        self.root = root
        self.project = copy_project(root / "project")
        demo_cards = read_jsonl(DEMO / "character_card.jsonl")
        self.batches, self.picked = plan_batches(read_jsonl(DEMO / "chat_turn.jsonl"), demo_cards)
        if merged_tail:
            self.batches = [*self.batches[:-2], self.batches[-2] + self.batches[-1]]
        self.early_cards, self.late_cards = card_versions(demo_cards)
        self.days = [f"chat_turn_2026-11-0{day + 1}.jsonl" for day in range(len(self.batches))]
        self.incoming = root / "turns"
        self.incoming.mkdir()
        self.cards = root / "character_card.jsonl"
        self.inputs = {
            "chat_turn": self.incoming / "chat_turn_*.jsonl",
            "character_card": self.cards,
            "topic_lexicon": DEMO / "topic_lexicon.csv",
        }

    def __iter__(self):
        for number, (day, rows) in enumerate(zip(self.days, self.batches, strict=True)):
            write_jsonl(self.cards, self.early_cards if number < 2 else self.late_cards)
            if number == 1:
                # An ending added before the second batch: every stored turn is judged again.
                seed = self.project / "seeds" / "honorific_endings.csv"
                with seed.open("a", encoding="utf-8") as f:
                    f.write("구나,true,시험용: 규칙이 바뀐 날\n")
            write_jsonl(self.incoming / day, rows)
            yield number


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("incremental")
    daily = DailyBatches(root)
    project, inputs, picked = daily.project, daily.inputs, daily.picked
    batch_db = root / "batches.duckdb"
    reasons, sources, verdict_counts, compared_drift, rewritten = [], [], [], [], []
    for number in daily:
        result = run_dbt(
            BUILD, root / f"batch-{number + 1}", inputs, database=batch_db, project_dir=project
        )
        reasons.append(judge_reasons(result))
        compared_drift.append(
            {
                name: result.rows(rows_differing(stored, recomputed))[0]["n"]
                for name, stored, recomputed in zip(
                    ("int_turns_compared", "fct_prompt_model_matrix"),
                    (STORED_COMPARED, STORED_MATRIX),
                    recomputed_compared(),
                    strict=True,
                )
            }
        )
        rewritten.append(result.rows(REWRITTEN_COMPARED)[0])
        verdict_counts.append(
            result.rows("select count(*) as n from marts.fct_turn_verdicts")[0]["n"]
        )
        sources.append(
            result.rows(
                "select recall_source_turn from marts.fct_turn_verdicts"
                f" where turn_id = '{picked['recalling']['turn_id']}'"
            )
        )
    everything = root / "all"
    everything.mkdir()
    for day in daily.days:
        shutil.copy(daily.incoming / day, everything / day)
    full = run_dbt(
        BUILD,
        root / "full",
        {**inputs, "chat_turn": everything / "chat_turn_*.jsonl"},
        project_dir=project,
    )
    return {
        "batched": result,
        "full": full,
        "reasons": reasons,
        "sources": sources,
        "verdict_counts": verdict_counts,
        "compared_drift": compared_drift,
        "rewritten": rewritten,
        "picked": picked,
        "inputs": inputs,
        "project": project,
    }


def differences(builds, table: str, ignored: list[str]) -> int:
    batched, full = builds["batched"], builds["full"]
    columns = [
        row["column_name"]
        for row in full.rows(
            "select column_name from information_schema.columns"
            f" where table_schema || '.' || table_name = '{table}' order by ordinal_position"
        )
        if row["column_name"] not in ignored
    ]
    # The full build read the same files from another folder: compare file names.
    selected = ", ".join(
        f"regexp_replace({c}, '^.*/', '')" if c == "source_file" else c for c in columns
    )
    with full.connect() as con:
        con.execute(f"attach '{batched.database}' as batched (read_only)")
        return con.execute(
            f"""select count(*) from (
                (select {selected} from {table} except all
                 select {selected} from batched.{table})
                union all
                (select {selected} from batched.{table} except all
                 select {selected} from {table})
            )"""
        ).fetchone()[0]


@pytest.mark.parametrize("table", sorted(COMPARED))
def test_daily_batches_end_with_the_full_build_row_for_row(builds, table):
    full_rows = builds["full"].rows(f"select count(*) as n from {table}")[0]["n"]
    assert full_rows > 0 or table == "marts.fct_contract_violations"
    assert differences(builds, table, COMPARED[table]) == 0


def test_each_batch_judged_what_changed(builds):
    """Each change comes early enough that a later batch's build would show it was missed:
    the rules, then the cards, then a late turn and a duplicate, then plain new turns."""
    first, second, third, fourth, fifth = builds["reasons"]
    assert set(first) == {"full_build"}
    # An ending added: every stored turn, the new ones included, is judged again.
    assert set(second) == {"rules_changed"}
    assert sum(second.values()) == builds["verdict_counts"][1]
    # New cards: CHR-0001's canon changed, CHR-0002 is clean again, CHR-0003 is quarantined.
    assert {"card_changed", "turn_removed"} <= set(third)
    assert set(fourth) == {"new_turn", "late_turn"}
    assert set(fifth) == {"new_turn"}
    assert sum(fifth.values()) == 6  # five turns and the fourth model's second answer


def test_compared_rows_equal_their_recomputation_after_every_batch(builds):
    """int_turns_compared and fct_prompt_model_matrix keep the rows of the prompts a build did
    not touch: after each batch they hold what a full build of the same judged turns writes."""
    assert builds["compared_drift"] == [
        {"int_turns_compared": 0, "fct_prompt_model_matrix": 0}
    ] * len(builds["reasons"])


def test_an_incremental_build_rewrites_the_compared_rows_it_must(builds):
    """Every row when every turn is judged (the first two batches) or the compared models
    change (a fourth model arrives in the fourth); otherwise only the rows of the prompts of
    the turns a build judged, earlier turns' among them."""
    first, second, _, fourth, fifth = builds["rewritten"]
    for batch in (first, second, fourth):
        assert batch["rows"] == batch["total"]
    assert sum(builds["reasons"][3].values()) < fourth["total"]
    assert 0 < fifth["rows"] < fifth["total"]
    assert fifth["of_earlier_turns"] > 0
    assert first["of_earlier_turns"] == 0


def test_a_change_of_compared_models_writes_the_compared_rows_whole(builds, tmp_path):
    """var compared_models narrowed between builds, with no new file: no turn is judged, and
    the compared rows are written whole for the two models left, as a full build would."""
    database = tmp_path / "narrowed.duckdb"
    shutil.copy(builds["batched"].database, database)
    models = sorted({turn["model_id"] for turn in read_jsonl(DEMO / "chat_turn.jsonl")})[:2]
    result = run_dbt(
        BUILD,
        tmp_path / "build",
        builds["inputs"],
        extra_vars={"compared_models": models},
        database=database,
        project_dir=builds["project"],
    )
    assert sum(judge_reasons(result).values()) == 0
    for stored, recomputed in zip(
        (STORED_COMPARED, STORED_MATRIX), recomputed_compared(models), strict=True
    ):
        assert result.rows(rows_differing(stored, recomputed)) == [{"n": 0}]
    assert result.rows(
        "select distinct model_id from intermediate.int_turns_compared order by model_id"
    ) == [{"model_id": model} for model in models]
    written = result.rows(
        "select count(distinct compared_by) as builds from intermediate.int_turns_compared"
    )
    assert written == [{"builds": 1}]


def test_each_build_records_what_its_checks_read(builds):
    """audit.check_coverage: a row per build, counting the checks of the checked turns (the
    ten seed checks and assert_skipped_checks_match_check_table) and the verdict rows they
    read: every row after the full build, the batch's rows and a sample after the others."""
    seed_checks = len(list((PROJECT_ROOT / "tests" / "marts").glob("assert_check_*.sql")))
    coverage = builds["batched"].rows(
        "select check_count, rows_written, rows_sampled, rows_total"
        " from audit.check_coverage order by checked_at"
    )
    assert [row["rows_total"] for row in coverage] == builds["verdict_counts"]
    assert {row["check_count"] for row in coverage} == {seed_checks + 1}
    first, *_, last = coverage
    assert (first["rows_written"], first["rows_sampled"]) == (first["rows_total"], 0)
    assert last["rows_written"] == sum(builds["reasons"][-1].values())
    assert 0 < last["rows_written"] + last["rows_sampled"] < last["rows_total"]


def test_verdict_history_flags_the_turns_recorded_again(builds):
    """verdict_history's is_recorded_again is true exactly on the rows of a key (turn, rule
    version, fingerprint) recorded after an earlier row of it: the third batch's card edit
    records turns again under the same rules. fct_deviation_rates_by_rule finds the keys to
    rank by that flag, so it must equal a recount from every row."""
    batched = builds["batched"]
    flags = batched.rows(
        """
        select
            count(*) filter (where is_recorded_again) as flagged,
            count(*) filter (where is_recorded_again is distinct from earlier_rows > 0) as wrong,
            count(distinct recorded_by) as builds
        from (
            select
                is_recorded_again,
                recorded_by,
                count(*) over (
                    partition by turn_id, rule_version, rule_fingerprint
                    order by recorded_at
                    rows between unbounded preceding and 1 preceding
                ) as earlier_rows
            from marts.verdict_history
        )
        """
    )[0]
    assert flags["flagged"] > 0 and flags["wrong"] == 0, flags
    assert flags["builds"] == len(builds["reasons"])
    recount = """
        select rule_fingerprint, rule_version, model_id, count(*) as turns,
            count(*) filter (where words.is_deviation) as deviations
        from (
            select * from marts.verdict_history
            qualify row_number() over (
                partition by turn_id, rule_version, rule_fingerprint
                order by recorded_at desc, judged_inputs_hash desc
            ) = 1
        ) as latest
        inner join seeds.verdict_words as words using (verdict)
        group by all
    """
    stored = """
        select rule_fingerprint, rule_version, model_id, turns, deviations
        from marts.fct_deviation_rates_by_rule
    """
    assert batched.rows(rows_differing(stored, recount)) == [{"n": 0}]


def test_a_turn_id_seen_in_an_earlier_batch_is_quarantined(builds):
    duplicate = builds["picked"]["duplicate"]
    rows = builds["batched"].rows(
        "select source_file, reason_code from marts.fct_contract_violations"
        f" where row_key = '{duplicate['turn_id']}'"
    )
    assert rows == [{"source_file": rows[0]["source_file"], "reason_code": "duplicate_turn_id"}]
    assert os.path.basename(rows[0]["source_file"]) == "chat_turn_2026-11-04.jsonl"
    kept = builds["batched"].rows(
        f"select reply_text from marts.fct_turn_texts where turn_id = '{duplicate['turn_id']}'"
    )
    assert kept and kept[0]["reply_text"] != duplicate["reply_text"]


def test_a_late_turn_becomes_the_recall_source_of_an_earlier_batch(builds):
    late, recalling = builds["picked"]["late"], builds["picked"]["recalling"]
    before, after = builds["sources"][2], builds["sources"][3]
    # Before the late turn arrives the recall turn has another source or none; then it is it.
    assert recalling["character_id"] != "CHR-0003"  # whose turns leave the marts
    assert before != [{"recall_source_turn": late["turn_id"]}]
    assert after == [{"recall_source_turn": late["turn_id"]}]


def test_a_changed_or_missing_file_is_reported_and_never_read_twice(builds, tmp_path):
    """Last in this module: it edits the batches' files and builds on their database."""
    batched = builds["batched"]
    incoming = Path(builds["inputs"]["chat_turn"]).parent
    first, second = sorted(incoming.glob("chat_turn_*.jsonl"))[:2]
    verdicts_before = batched.rows("select count(*) as n from marts.fct_turn_verdicts")[0]["n"]
    first.unlink()
    extra = dict(read_jsonl(second)[0], turn_id="T-LATER-EDIT")
    with second.open("a", encoding="utf-8") as f:
        f.write(json.dumps(extra, ensure_ascii=False) + "\n")
    new_turns = [
        dict(turn, turn_id=f"T-DAY6-{number}", created_at="2026-11-06T09:00:0" + str(number))
        for number, turn in enumerate(read_jsonl(DEMO / "chat_turn.jsonl")[:2])
    ]
    write_jsonl(incoming / "chat_turn_2026-11-06.jsonl", new_turns)
    result = run_dbt(
        BUILD,
        tmp_path,
        builds["inputs"],
        extra_vars={"export_scope": "changed"},
        database=batched.database,
        project_dir=builds["project"],
    )
    assert f"{second} changed since it was ingested" in result.output
    assert f"{first} was ingested earlier but the input no longer names it" in result.output
    statuses = {
        Path(row["file_path"]).name: (row["file_status"], row["warning"] is not None)
        for row in result.rows(
            "select file_path, file_status, warning from marts.fct_ingested_files"
        )
    }
    assert statuses == {
        "chat_turn_2026-11-01.jsonl": ("missing", True),
        "chat_turn_2026-11-02.jsonl": ("changed", True),
        "chat_turn_2026-11-03.jsonl": ("ingested", False),
        "chat_turn_2026-11-04.jsonl": ("ingested", False),
        "chat_turn_2026-11-05.jsonl": ("ingested", False),
        "chat_turn_2026-11-06.jsonl": ("new", False),
    }
    # The missing file's turns stay, the changed file's new line is not read, day 6 is added.
    assert result.rows("select count(*) as n from marts.fct_turn_verdicts")[0]["n"] == (
        verdicts_before + 2
    )
    assert result.rows(
        "select count(*) as n from marts.fct_turn_verdicts where turn_id = 'T-LATER-EDIT'"
    ) == [{"n": 0}]
    assert judge_reasons(result) == Counter({"new_turn": 2})
    # export_scope changed: the export holds the verdicts this build wrote, and says so.
    exported = json.loads(result.export.read_text(encoding="utf-8"))
    assert sorted(verdict["turn_id"] for verdict in exported) == ["T-DAY6-0", "T-DAY6-1"]
    assert result.rows("select export_scope, turn_count from marts.export_turn_verdicts") == [
        {"export_scope": "changed", "turn_count": 2}
    ]


def test_a_batch_whose_build_stopped_early_is_judged_by_the_next(builds, tmp_path):
    """After the test above: the judging state advances over a new file, but no verdict model
    runs (a build that stopped); a turn-store model run alone then refuses the last build's
    batch, and the next build judges that batch's turns."""
    batched = builds["batched"]
    incoming = Path(builds["inputs"]["chat_turn"]).parent
    new_turns = [
        dict(turn, turn_id=f"T-DAY7-{number}", created_at="2026-11-07T09:00:0" + str(number))
        for number, turn in enumerate(read_jsonl(DEMO / "chat_turn.jsonl")[:2])
    ]
    # And a row without its reply_text: its own violation is quarantined by the next build.
    broken = dict(new_turns[0], turn_id="T-DAY7-BROKEN", reply_text=None)
    write_jsonl(incoming / "chat_turn_2026-11-07.jsonl", [*new_turns, broken])
    verdicts = "select count(*) as n from marts.fct_turn_verdicts"
    before = batched.rows(verdicts)[0]["n"]
    stopped = run_dbt(
        # `run`: the models only, as in a build stopped before the tests and the rest.
        ["run", "--select", "base_chat_logs__turns", "int_turn_judging_state"],
        tmp_path / "stopped",
        builds["inputs"],
        database=batched.database,
        project_dir=builds["project"],
    )
    assert judge_reasons(stopped) == Counter({"new_turn": 2})
    assert stopped.rows(verdicts)[0]["n"] == before
    # A turn-store model selected without int_turns_to_judge (a table: it still holds the batch
    # of the build before) stops, naming the selection to use, and writes nothing.
    alone = run_dbt(
        ["run", "--select", "fct_turn_verdicts"],
        tmp_path / "alone",
        builds["inputs"],
        database=batched.database,
        project_dir=builds["project"],
        check=False,
    )
    assert alone.returncode != 0, alone.output[-3000:]
    assert "not this build's" in alone.output, alone.output[-3000:]
    assert "dbt build --select +fct_turn_verdicts" in alone.output, alone.output[-3000:]
    assert alone.rows(verdicts)[0]["n"] == before
    resumed = run_dbt(
        BUILD,
        tmp_path / "resumed",
        builds["inputs"],
        database=batched.database,
        project_dir=builds["project"],
    )
    assert judge_reasons(resumed) == Counter({"unfinished_build": 2})
    assert resumed.rows(verdicts)[0]["n"] == before + 2
    assert resumed.rows(
        "select column_name, reason_code from marts.fct_contract_violations"
        " where row_key = 'T-DAY7-BROKEN'"
    ) == [{"column_name": "reply_text", "reason_code": "missing_required_value"}]


def test_the_grain_test_of_a_batch_catches_rows_left_behind(builds, tmp_path):
    """The turn store's grain tests check the keys a build wrote, against every stored row
    (unique_combination with written_by): a turn store that failed to delete the rows of
    the turns it judges again is caught. The deleting pre-hook is taken out of a copy of the
    project, then an ending added re-judges every turn."""
    project = copy_project(tmp_path / "project")
    model = project / "models" / "marts" / "fct_turn_verdicts.sql"
    hook = """    pre_hook="{{ delete_judged_turns(ref('int_turns_to_judge')) }}",\n"""
    assert hook in model.read_text(encoding="utf-8")
    model.write_text(model.read_text(encoding="utf-8").replace(hook, ""), encoding="utf-8")
    shutil.copy(builds["project"] / "seeds" / "honorific_endings.csv", project / "seeds")
    with (project / "seeds" / "honorific_endings.csv").open("a", encoding="utf-8") as f:
        f.write("더군,true,시험용: 지우지 않는 저장소\n")
    database = tmp_path / "copy.duckdb"
    shutil.copy(builds["batched"].database, database)
    result = run_dbt(
        BUILD,
        tmp_path / "build",
        builds["inputs"],
        database=database,
        project_dir=project,
        check=False,
    )
    assert result.returncode != 0
    failed = [
        line for line in result.output.splitlines() if "Failure in test unique_combination" in line
    ]
    assert any("fct_turn_verdicts_turn_id" in line for line in failed), result.output[-3000:]
    compiled = next((tmp_path / "build" / "target").rglob("unique_combination_fct_turn_verdicts*"))
    assert "with written as" in compiled.read_text(encoding="utf-8")  # the batch's keys only


def compiled_invariant(target: Path) -> str:
    """assert_one_verdict_per_clean_turn as a build compiled it into `target`."""
    (path,) = (target / "compiled").rglob("assert_one_verdict_per_clean_turn.sql")
    return path.read_text(encoding="utf-8")


def test_a_build_with_no_new_file_checks_no_stored_key_and_dbt_test_does(builds, tmp_path):
    """A `dbt build` that wrote no row of a kept table checks none of its keys (the rows were
    checked by the builds that wrote them), and compares no turn with its verdict; `dbt test`
    on its own checks every key and every turn, and finds a duplicate and a missing verdict
    planted afterwards. A build with a batch compares the batch's turns, a full build all."""
    batches = builds["batched"].database.parent
    first, last = (batches / f"batch-{n}" / "target" for n in (1, len(builds["reasons"])))
    assert "where turn_id in" not in compiled_invariant(first)
    assert "judged_by = '" in compiled_invariant(last)
    database = tmp_path / "copy.duckdb"
    shutil.copy(builds["batched"].database, database)
    idle = run_dbt(
        BUILD, tmp_path / "idle", builds["inputs"], database=database, project_dir=builds["project"]
    )
    assert sum(judge_reasons(idle).values()) == 0
    assert "where 1 = 0" in compiled_invariant(tmp_path / "idle" / "target")
    compiled = {
        path.name: path.read_text(encoding="utf-8")
        for path in (tmp_path / "idle" / "target" / "compiled").rglob("unique_combination_*")
    }
    verdicts = [sql for name, sql in compiled.items() if "fct_turn_verdicts_turn_id" in name]
    assert len(verdicts) == 1 and "where 1 = 0" in verdicts[0]
    # The turn store, staging's ingested rows and verdict_history.
    assert sum("where 1 = 0" in sql for sql in compiled.values()) >= 8
    with duckdb.connect(str(database)) as con:
        con.execute(
            "insert into marts.fct_turn_verdicts"
            " select * from marts.fct_turn_verdicts order by turn_id limit 1"
        )
        (missing,) = con.execute(
            "delete from marts.fct_turn_verdicts"
            " where turn_id = (select max(turn_id) from marts.fct_turn_verdicts)"
            " returning turn_id"
        ).fetchone()
    alone = run_dbt(
        ["test", "--select", "fct_turn_verdicts"],
        tmp_path / "test",
        builds["inputs"],
        database=database,
        project_dir=builds["project"],
        check=False,
    )
    assert alone.returncode != 0
    failed = [
        line for line in alone.output.splitlines() if "Failure in test unique_combination" in line
    ]
    assert any("fct_turn_verdicts_turn_id" in line for line in failed), alone.output[-3000:]
    assert "Failure in test assert_one_verdict_per_clean_turn" in alone.output
    with duckdb.connect(str(database), read_only=True) as con:
        assert con.execute(
            "select count(*) from marts.fct_turn_verdicts where turn_id = ?", [missing]
        ).fetchone() == (0,)


def test_a_canon_add_in_the_reviews_folder_rejudges_its_card_turns(builds, tmp_path):
    """docs/rules.md#reviewer-decisions: a reviewer's `add` written to the reviews folder
    between two builds changes the card's canon (card_rules_hash), so the next incremental
    build, without --full-refresh, judges that card's turns again and a turn that was
    세계관 밖 고유명사 for that name only is no longer. On a copy of the batches' database."""
    database = tmp_path / "copy.duckdb"
    shutil.copy(builds["batched"].database, database)
    with duckdb.connect(str(database), read_only=True) as con:
        candidates = con.execute(
            "select turn_id, character_id, off_canon_entities[1] from marts.fct_turn_verdicts"
            " where verdict = '세계관 밖 고유명사' and len(off_canon_entities) = 1"
            " order by turn_id limit 1"
        ).fetchall()
    assert candidates, "the batches hold an off-canon turn of one name"
    turn = dict(zip(["turn_id", "character_id", "name"], candidates[0], strict=True))
    reviews = tmp_path / "reviews"
    reviews.mkdir()
    (reviews / "canon_decisions.csv").write_text(
        "name,character_id,decision,note,reviewer,decided_at\n"
        f"{turn['name']},{turn['character_id']},add,화면에서 설정에 넣었습니다,김검토,"
        "2026-12-02T09:00:00Z\n",
        encoding="utf-8",
    )
    after = run_dbt(
        BUILD,
        tmp_path / "after",
        builds["inputs"],
        extra_vars={"reviews_dir": str(reviews)},
        database=database,
        project_dir=builds["project"],
    )
    reasons = judge_reasons(after)
    assert set(reasons) == {"card_changed"}
    judged = after.rows(
        "select count(*) as n from intermediate.int_turns_to_judge as judged"
        " join marts.fct_turn_verdicts as verdicts using (turn_id)"
        f" where verdicts.character_id <> '{turn['character_id']}'"
    )
    assert judged == [{"n": 0}]  # only that card's turns
    (verdict,) = after.rows(
        "select verdict, off_canon_entities from marts.fct_turn_verdicts"
        f" where turn_id = '{turn['turn_id']}'"
    )
    assert verdict["verdict"] != "세계관 밖 고유명사"
    assert turn["name"] not in verdict["off_canon_entities"]
