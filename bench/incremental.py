"""The incremental build against the full one: a day's new turns onto a long history.

    python bench/incremental.py [--history-files 10] [--turns-per-file 1000000]
        [--batch-turns 1000000] [--small-batch-turns 10000] [--repeats 2] [--scratch DIR]

Inputs (bench/generate.py, typical mix, cached in bench/out/incremental/inputs/ and reused):
the character cards and topic lexicon of --seed (50 characters, 5,000 terms by default), and
daily JSON Lines files of turns, chat_turn_2026-11-01.jsonl, chat_turn_2026-11-02.jsonl, ...
(names sort in arrival order): --history-files files of --turns-per-file turns (the history),
then one file of --batch-turns turns (the new batch) and one of --small-batch-turns turns (a
small new batch). Every file's turns are drawn over the same cards and lexicon (the first
file's are exactly `generate.py --seed S`'s, the others' from a seed of their own), then
turn_id, session_id and prompt_id get the file's date as a prefix (T-20261101-0000001, so ids
are unique across files) and created_at is mapped into the file's day (the generator's
121-day span divided by 121, order and ties kept), so a later file's turns are later.

Then, with CARD_KEEPER_CHAT_TURN a glob over a folder of daily files:
1. history: the --history-files files built into an empty database (`dbt build`), timed; that
   database is kept as the starting point of every incremental run;
2. side by side, interleaved (A B, B A, ...; A B B A with --repeats 2):
   (A) incremental: a copy of the history database, the batch file added to the glob's folder,
       `dbt build` (the build reads and judges only the file it has not ingested);
   (B) full: the batch file alone (a folder of its own) built into an empty database;
   the median walls, A/B (target <= 1.3) and A's peak RSS (target <= 4 GB);
3. small batch: the small file added to the folder, `dbt build` onto a copy of the database A
   left (history + batch), --repeats times; its median wall against A's (target < 10 %).
Every build is `dbt build --exclude-resource-type unit_test` (run.py's production build: unit
tests read fixed fixtures, whatever the logs) under /usr/bin/time -v, in a target folder of its
own that an untimed `dbt parse` with the same vars, inputs and database filled first, so the
build parses partially, as a scheduler's repeated build does (--parse full: a full parse in
every build, as a fresh checkout's; it costs about 6 s more a build here), the export to the
run's scratch folder; database copies are not timed. After each build
marts.fct_turn_verdicts must hold every turn read so far, once; after the A/B rounds the
batch's verdicts in A's database must equal B's row for row, and the history's in A's the
history database's (exit 5 when a check fails, 4 when a data test fails, 1 when a build
fails).

Writes the section between `<!-- incremental:start -->` and `<!-- incremental:end -->` of
bench/RESULTS.md (appended when absent; the rest of the file is kept) at the default sizes;
with smaller sizes, of bench/out/incremental/RESULTS.md, so a test run never overwrites the
recorded figures (--results FILE chooses). Every figure also goes to
bench/out/incremental/results.json (results.partial.json after each build while it runs).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime as dt
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
VENV = os.path.join(ROOT, ".venv")
OUT = os.path.join(BENCH, "out", "incremental")
RESULTS_MD = os.path.join(BENCH, "RESULTS.md")
FIRST_DAY = dt.date(2026, 11, 1)
# generate.py spreads a batch's sessions over 120 days (plus the last session's length): this
# divisor maps that span into one day.
SPAN_DAYS = 121
GEN_VERSION = 1  # bump when the batch rewrite below changes (part of the cache key)
TARGET_AB = 1.3
TARGET_PEAK_MB = 4 * 1024
TARGET_SMALL = 0.10

if (
    __name__ == "__main__"
    and os.path.isdir(VENV)
    and os.path.realpath(sys.prefix) != os.path.realpath(VENV)
):
    # The generator and the checks import numpy, pyarrow and duckdb: run on the project's venv.
    py = os.path.join(VENV, "bin", "python")
    os.execv(py, [py, os.path.abspath(__file__), *sys.argv[1:]])

sys.path.insert(0, BENCH)
import run as R  # noqa: E402  (bench/run.py: measure, tail, versions, the generator's hash)

# The markers of this script's section of RESULTS.md, which bench/run.py keeps.
START, END = R.INCREMENTAL_START, R.INCREMENTAL_END


def log(msg: str) -> None:
    now = dt.datetime.now(dt.UTC).strftime("%H:%M:%S")
    print(f"[{now}] {msg}", flush=True)


# --------------------------------------------------------------------------- inputs
def day_of(index: int) -> dt.date:
    return FIRST_DAY + dt.timedelta(days=index)


def make_batch(path: str, index: int, turns: int, terms: int, characters: int, seed: int):
    """Run in a worker process: file `index` (0 = the first day) of `turns` turns to path."""
    import generate as G
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    rng = np.random.default_rng(seed)
    _, cards = G.build_cards(rng, characters)
    _, lex = G.build_lexicon(rng, terms)
    if index > 0:  # the first file continues generate.py's own stream; the others have theirs
        rng = np.random.default_rng([seed, index])
    table = G.build_turns(rng, turns, cards, lex, G.MIXES["typical"])
    day = day_of(index)
    tag = day.strftime("%Y%m%d")
    for col, prefix in (("turn_id", "T-"), ("session_id", "S-"), ("prompt_id", "P-")):
        new = pc.replace_substring_regex(table[col], f"^{prefix}", f"{prefix}{tag}-")
        table = table.set_column(table.schema.get_field_index(col), col, new)
    us = table["created_at"].combine_chunks().cast(pa.int64()).to_numpy()
    base = int(G.BASE_TIME.astype("datetime64[us]").astype(np.int64))
    span = SPAN_DAYS * 86_400_000_000
    if us.min() < base or us.max() >= base + span:
        raise ValueError(f"created_at outside the {SPAN_DAYS}-day span generate.py draws")
    start = int(np.datetime64(day.isoformat(), "us").astype(np.int64))
    created = pa.array(start + (us - base) // SPAN_DAYS, type=pa.int64()).cast(pa.timestamp("us"))
    table = table.set_column(table.schema.get_field_index("created_at"), "created_at", created)
    tmp = path + ".tmp"
    G.write_table(table, tmp, "jsonl")
    os.replace(tmp, path)
    return path


def make_inputs(a) -> dict:
    """The cached input files: cards, lexicon, and the daily turn files in arrival order."""
    key = f"typical_m{a.terms}_k{a.characters}_s{a.seed}_{R._generator_hash()}_v{GEN_VERSION}"
    d = os.path.join(OUT, "inputs", key)
    os.makedirs(d, exist_ok=True)
    cards = os.path.join(d, "character_card.jsonl")
    lexicon = os.path.join(d, "topic_lexicon.jsonl")
    if not (os.path.exists(cards) and os.path.exists(lexicon)):
        import generate as G
        import numpy as np

        rng = np.random.default_rng(a.seed)
        cards_t, _ = G.build_cards(rng, a.characters)
        lex_t, _ = G.build_lexicon(rng, a.terms)
        for table, path in ((cards_t, cards), (lex_t, lexicon)):
            G.write_table(table, path + ".tmp", "jsonl")
            os.replace(path + ".tmp", path)
    sizes = [a.turns_per_file] * a.history_files + [a.batch_turns, a.small_batch_turns]
    files = []  # (index, day, turns, cached path)
    for i, n in enumerate(sizes):
        files.append((i, day_of(i), n, os.path.join(d, f"chat_turn_{day_of(i)}.n{n}.jsonl")))
    todo = [f for f in files if not os.path.exists(f[3])]
    log(
        f"inputs: {os.path.relpath(d, ROOT)}: {len(files) - len(todo)} of {len(files)} turn "
        f"files cached, generating {len(todo)} ({sum(f[2] for f in todo):,} turns)"
    )
    if todo:
        workers = max(1, min(len(todo), os.cpu_count() or 1, 4))
        with concurrent.futures.ProcessPoolExecutor(workers) as pool:
            jobs = {
                pool.submit(make_batch, p, i, n, a.terms, a.characters, a.seed): (day, n)
                for i, day, n, p in todo
            }
            for job in concurrent.futures.as_completed(jobs):
                day, n = jobs[job]
                job.result()
                log(f"  generated {day}: {n:,} turns")
    history = files[: a.history_files]
    return {
        "dir": d,
        "character_card": cards,
        "topic_lexicon": lexicon,
        "history": [(f"chat_turn_{f[1]}.jsonl", f[3], f[2]) for f in history],
        "batch": (f"chat_turn_{files[-2][1]}.jsonl", files[-2][3], files[-2][2]),
        "small": (f"chat_turn_{files[-1][1]}.jsonl", files[-1][3], files[-1][2]),
    }


def place(folder: str, entry: tuple) -> None:
    """Put a cached turn file into a glob's folder under its daily name (a hard link)."""
    name, cached, _ = entry
    dst = os.path.join(folder, name)
    if os.path.exists(dst):
        os.unlink(dst)
    try:
        os.link(cached, dst)
    except OSError:
        shutil.copyfile(cached, dst)


def warm(*paths: str) -> None:
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass


# --------------------------------------------------------------------------- builds
def copy_db(src: str, dst: str) -> None:
    for suffix in ("", ".wal"):
        if os.path.exists(dst + suffix):
            os.unlink(dst + suffix)
        if os.path.exists(src + suffix):
            subprocess.run(["cp", src + suffix, dst + suffix], check=True)


def remove_db(path: str) -> None:
    for suffix in ("", ".wal"):
        if os.path.exists(path + suffix):
            os.unlink(path + suffix)


def dbt_build(a, inputs: dict, glob: str, db: str, work: str, label: str) -> dict:
    """`dbt build` of the turns `glob` names into db; wall, peak RSS, dbt's elapsed time."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    target = os.path.join(work, "target")
    export = os.path.join(work, "turn_verdicts.json")
    common = [
        "--project-dir",
        ROOT,
        "--profiles-dir",
        ROOT,
        "--target-path",
        target,
        "--log-path",
        os.path.join(work, "logs"),
        "--no-use-colors",
        "--vars",
        # The export of the verdicts each build wrote (docs/rules.md#incremental-builds): every
        # verdict on a full build, the batch's on an incremental one, instead of gigabytes.
        json.dumps({"export_path": export, "export_scope": "changed"}),
    ]
    dbt = os.path.join(VENV, "bin", "dbt")
    unit = [] if a.with_unit_tests else ["--exclude-resource-type", "unit_test"]
    cmd = [dbt, "build", *unit, *common]
    env = dict(
        os.environ,
        CARD_KEEPER_DB=db,
        CARD_KEEPER_CHAT_TURN=glob,
        CARD_KEEPER_CHARACTER_CARD=inputs["character_card"],
        CARD_KEEPER_TOPIC_LEXICON=inputs["topic_lexicon"],
        CARD_KEEPER_GOLDEN_LABELS="",
        CARD_KEEPER_LLM_SUMMARIES="",
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
    )
    log_path = os.path.join(work, "dbt.log")
    if a.parse == "warm":
        # A scheduler's steady state: the project parsed before, with the same vars, inputs and
        # database, so the build reads target/partial_parse.msgpack (not timed).
        with open(os.path.join(work, "parse.log"), "wb") as f:
            rc = subprocess.run(
                [dbt, "parse", *common], cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT
            ).returncode
        if rc != 0:
            R.loud(f"dbt parse [{label}] FAILED (rc {rc}):\n" + R.tail(f.name, 60))
            sys.exit(1)
    load = os.getloadavg()[0]
    log(f"dbt build [{label}] (load avg {load:.2f}) ...")
    m = R.measure(cmd, env, log_path, cwd=ROOT)
    rr = None
    rr_path = os.path.join(target, "run_results.json")
    if os.path.exists(rr_path):
        with open(rr_path) as f:
            rr = json.load(f)
    bad = [r for r in (rr or {}).get("results", []) if r["status"] not in R.OK_STATUSES]
    only_test_failures = bool(bad) and all(
        r["status"] == "fail" and r["unique_id"].startswith("test.") for r in bad
    )
    if (m["rc"] != 0 and not only_test_failures) or rr is None:
        R.loud(
            f"dbt build [{label}] FAILED (rc {m['rc']}); last lines of {log_path}:\n"
            + R.tail(log_path, 60)
        )
        sys.exit(1)
    failed = [f"{r['unique_id']}: {r.get('message')}" for r in bad]
    if failed:
        R.loud(f"dbt build [{label}]: data test(s) FAILED (timing kept):\n" + "\n".join(failed))
    nodes = sorted(rr["results"], key=lambda r: -r["execution_time"])
    debug_log = os.path.join(work, "logs", "dbt.log")
    debug = open(debug_log, encoding="utf-8", errors="replace").read()
    parsed = (
        "partial (no changes)"
        if "Partial parsing enabled, no changes found" in debug
        else "partial"
        if "Partial parsing enabled" in debug
        else "full"
    )
    m.update(
        label=label,
        invocation_id=rr["metadata"]["invocation_id"],
        parsed=parsed,
        dbt_elapsed_s=rr["elapsed_time"],
        load_avg_before=load,
        failed_tests=failed,
        db_mb=os.path.getsize(db) / 2**20,
        export_mb=os.path.getsize(export) / 2**20 if os.path.exists(export) else None,
        slowest=[
            (r["unique_id"].replace("card_keeper.", ""), round(r["execution_time"], 2))
            for r in nodes[:8]
        ],
        log=log_path,
    )
    log(
        f"  wall {m['wall_s']:.1f}s (dbt elapsed {m['dbt_elapsed_s']:.1f}s, {parsed} parse), peak "
        f"{m['peak_mb']:,.0f} MB, database {m['db_mb']:,.0f} MB; slowest: "
        + ", ".join(f"{n} {s:.1f}s" for n, s in m["slowest"][:4])
    )
    if os.path.exists(export):
        os.unlink(export)  # a 10M-turn export is gigabytes; its size is recorded
    shutil.rmtree(target, ignore_errors=True)
    return m


# --------------------------------------------------------------------------- checks
def check_counts(db: str, expected: int, label: str, checks: list) -> None:
    """marts.fct_turn_verdicts holds every turn read so far, each once."""
    import duckdb

    con = duckdb.connect(db, read_only=True)
    rows, ids = con.execute(
        "select count(*), count(distinct turn_id) from marts.fct_turn_verdicts"
    ).fetchone()
    con.close()
    ok = rows == ids == expected
    checks.append(
        {
            "check": f"{label}: fct_turn_verdicts rows / distinct turn_id / turns read",
            "value": f"{rows:,} / {ids:,} / {expected:,}",
            "ok": ok,
        }
    )
    (log if ok else R.loud)(
        f"  check {label}: {rows:,} verdict rows, {ids:,} ids, {expected:,} read"
    )


def check_judged(db: str, invocation_id: str, expected: int, label: str, checks: list) -> None:
    """The build judged (wrote the verdict rows of) exactly the turns it read anew."""
    import duckdb

    con = duckdb.connect(db, read_only=True)
    cols = [r[0] for r in con.execute("describe marts.fct_turn_verdicts").fetchall()]
    if "judged_by" not in cols:
        con.close()
        return
    n = con.execute(
        "select count(*) from marts.fct_turn_verdicts where judged_by = ?", [invocation_id]
    ).fetchone()[0]
    con.close()
    ok = n == expected
    checks.append(
        {
            "check": f"{label}: verdict rows this build wrote (judged_by) / new turns",
            "value": f"{n:,} / {expected:,}",
            "ok": ok,
        }
    )
    (log if ok else R.loud)(f"  check {label}: judged {n:,} turns, {expected:,} new")


# A build's stamp on the rows it writes: differs between two builds of the same turns.
BUILD_STAMPS = ("judged_by",)


def verdict_prints(con, db_alias: str, where: str, exclude: tuple = ()) -> tuple[int, int]:
    star = f"* exclude ({', '.join(exclude)})" if exclude else "*"
    return con.execute(
        f"select count(*), coalesce(bit_xor(hash(to_json(v)::varchar)), 0)"
        f" from (select {star} from {db_alias}.marts.fct_turn_verdicts where {where}) v"
    ).fetchone()


def check_same_verdicts(a_db: str, b_db: str, history_db: str, tag: str, checks: list) -> None:
    """The batch's verdicts in A's database against B's (build stamps aside), and the history's
    against the history build's (stamps included: an incremental build leaves them as they
    were): an order-free fingerprint (xor of row hashes) and the row count."""
    import duckdb

    con = duckdb.connect()
    for alias, path in (("a", a_db), ("b", b_db), ("h", history_db)):
        con.execute(f"attach '{path}' as {alias} (read_only)")
    cols = [r[0] for r in con.execute("describe a.marts.fct_turn_verdicts").fetchall()]
    stamps = tuple(c for c in BUILD_STAMPS if c in cols)
    batch = f"starts_with(turn_id, 'T-{tag}-')"
    pairs = (
        ("batch turns: A (incremental) vs B (full)", ("a", batch), ("b", batch), stamps),
        ("history turns: A vs the history build", ("a", f"not {batch}"), ("h", "true"), ()),
    )
    for what, left, right, exclude in pairs:
        x, y = verdict_prints(con, *left, exclude), verdict_prints(con, *right, exclude)
        ok = x == y
        aside = f" ({', '.join(exclude)} aside)" if exclude else ""
        checks.append(
            {
                "check": f"{what}{aside}: rows, fingerprint",
                "value": f"{x[0]:,} / {y[0]:,} rows; fingerprints {'equal' if ok else 'DIFFER'}",
                "ok": ok,
            }
        )
        (log if ok else R.loud)(f"  check {what}: {x[0]:,} vs {y[0]:,} rows, equal={ok}")
        if ok:
            continue
        # Which columns differ, turn for turn (and a sample of each).
        (la, lw), (ra, rw) = left, right
        diffs = []
        for col in cols:
            if col in exclude:
                continue
            n, sample = con.execute(
                f"""select count(*), any_value([x.turn_id, x.{col}::varchar, y.{col}::varchar])
                from (select * from {la}.marts.fct_turn_verdicts where {lw}) x
                join (select * from {ra}.marts.fct_turn_verdicts where {rw}) y using (turn_id)
                where x.{col}::varchar is distinct from y.{col}::varchar"""
            ).fetchone()
            if n:
                diffs.append(f"{col}: {n:,} turns (e.g. {sample})")
        checks[-1]["value"] += "; differing columns: " + ("; ".join(diffs) or "none (row sets)")
        R.loud("\n".join(diffs) or "no column differs on common turn_ids: the row sets differ")
    con.close()


# --------------------------------------------------------------------------- report
def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def summarise(res: dict) -> None:
    h, a_runs, b_runs, s_runs = (res[k] for k in ("history", "A", "B", "small"))
    ratio = median(a_runs, "wall_s") / median(b_runs, "wall_s")
    small = median(s_runs, "wall_s") / median(a_runs, "wall_s")
    peak = max(r["peak_mb"] for r in a_runs)
    res["ratios"] = {
        "A_over_B_wall": ratio,
        "A_over_B_engine": median(a_runs, "dbt_elapsed_s") / median(b_runs, "dbt_elapsed_s"),
        "small_over_A_wall": small,
        "small_over_A_engine": median(s_runs, "dbt_elapsed_s") / median(a_runs, "dbt_elapsed_s"),
        "A_peak_mb": peak,
    }
    res["targets"] = [
        (
            "incremental +batch (A) / full build of the batch (B), median wall",
            ratio,
            "<=",
            TARGET_AB,
        ),
        ("peak RSS of A, MB", peak, "<=", TARGET_PEAK_MB),
        ("small batch incremental / A, median wall", small, "<", TARGET_SMALL),
    ]
    res["rows"] = [
        (
            "history: full build, empty database",
            0,
            res["history_turns"],
            [h],
        ),
        ("A: incremental, +batch file", res["history_turns"], res["batch_turns"], a_runs),
        ("B: full build of the batch file alone, empty database", 0, res["batch_turns"], b_runs),
        (
            "small: incremental, +small batch file",
            res["history_turns"] + res["batch_turns"],
            res["small_batch_turns"],
            s_runs,
        ),
    ]


def status(value: float, op: str, target: float) -> str:
    ok = value <= target if op == "<=" else value < target
    return "PASS" if ok else "MISS"


TABLE_HEADER = [
    "run",
    "turns in db before",
    "new turns",
    "runs",
    "wall s (median)",
    "walls s",
    "dbt elapsed s",
    "peak MB",
]


def table(res: dict) -> list[list[str]]:
    out = []
    for label, before, new, runs in res["rows"]:
        out.append(
            [
                label,
                f"{before:,}",
                f"{new:,}",
                str(len(runs)),
                f"{median(runs, 'wall_s'):.1f}",
                ", ".join(f"{r['wall_s']:.1f}" for r in runs),
                f"{median(runs, 'dbt_elapsed_s'):.1f}",
                f"{max(r['peak_mb'] for r in runs):,.0f}",
            ]
        )
    return out


def target_rows(res: dict) -> list[list[str]]:
    fmt = {True: "{:,.0f}", False: "{:.3f}"}
    return [
        [what, fmt[target > 10].format(value), f"{op} {target:g}", status(value, op, target)]
        for what, value, op, target in res["targets"]
    ]


def print_report(res: dict) -> None:
    def show(header, rows):
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
        for r in [header, *rows]:
            print(fmt.format(*r))

    print("\n" + "=" * 100 + "\nINCREMENTAL BUILD")
    show(TABLE_HEADER, table(res))
    r = res["ratios"]
    print(
        f"\n(dbt elapsed ratios: A/B {r['A_over_B_engine']:.3f}, small/A "
        f"{r['small_over_A_engine']:.3f})\n\nTARGETS"
    )
    show(["target", "value", "required", "status"], target_rows(res))
    print("\nCHECKS")
    for c in res["checks"]:
        print(f"  {'ok  ' if c['ok'] else 'FAIL'} {c['check']}: {c['value']}")
    if res["failed_tests"]:
        print("\nFAILED data tests: " + "; ".join(res["failed_tests"]))
    print("=" * 100)


def markdown(res: dict) -> str:
    m = res["machine"]
    md = [
        START,
        "## Incremental build: a new batch onto the history (`bench/incremental.py`)",
        "",
        f"- command: `{res['command']}`",
        f"- date: {res['date']}; git {res['git']}",
        f"- machine: nproc {m['nproc_cmd']}, {m['mem_gb']} GB RAM; python {m['python']}, "
        f"duckdb {m['duckdb']}, dbt-core {m['dbt_core']}, dbt-duckdb {m['dbt_duckdb']}; "
        f"DuckDB memory_limit {res['memory_limit']}",
        f"- inputs: `bench/generate.py` turns (typical mix), {res['characters']} characters, "
        f"{res['terms']:,} terms, seed {res['seed']}; daily JSON Lines files "
        f"`chat_turn_2026-11-01.jsonl` ... (ids prefixed with the file's day, created_at in "
        f"it): history {res['history_files']} x {res['turns_per_file']:,} turns, batch "
        f"{res['batch_turns']:,}, small batch {res['small_batch_turns']:,}",
        "- builds: `dbt build"
        + ("" if res["with_unit_tests"] else " --exclude-resource-type unit_test")
        + "` with CARD_KEEPER_CHAT_TURN a glob over a folder of daily files, a target folder "
        "of its own each, "
        + (
            "after an untimed `dbt parse` with the same vars, inputs and database (the build "
            "parses partially: a scheduler's steady state)"
            if res["parse"] == "warm"
            else "fresh (a full parse each)"
        )
        + f"; parse seen in the builds' logs: {', '.join(res['parsed'])}"
        "; wall = the whole process, dbt elapsed = run_results.json; "
        "peak = /usr/bin/time -v max RSS. A and B interleaved "
        f"({' '.join(res['order'])}); the small batch {len(res['small'])} time(s), each onto "
        "a copy of the database A left. Database copies are not timed.",
        "",
        "| " + " | ".join(TABLE_HEADER) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(TABLE_HEADER) - 1)) + "|",
    ]
    md += ["| " + " | ".join(r) + " |" for r in table(res)]
    r = res["ratios"]
    md += [
        "",
        f"dbt elapsed ratios: A/B {r['A_over_B_engine']:.3f}, small/A "
        f"{r['small_over_A_engine']:.3f}.",
        "",
        "| target | value | required | status |",
        "|---|---:|---:|---|",
    ]
    md += ["| " + " | ".join(t) + " |" for t in target_rows(res)]
    md += ["", "Checks:", ""]
    md += [
        f"- {'ok' if c['ok'] else '**FAIL**'}: {c['check']}: {c['value']}" for c in res["checks"]
    ]
    if res["failed_tests"]:
        md += ["", "**dbt data tests that FAILED:** " + "; ".join(res["failed_tests"])]
    if res.get("note"):
        md += ["", res["note"]]
    md.append(END)
    return "\n".join(md) + "\n"


def write_section(path: str, section: str) -> None:
    """Replace the marked section of path (or append it), keeping the rest of the file."""
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
    i, j = text.find(START), text.find(END)
    if i >= 0 and j > i:
        rest = text[j + len(END) :]
        text = text[:i] + section + (rest[1:] if rest.startswith("\n") else rest)
    else:
        text = text + ("\n" if text and not text.endswith("\n\n") else "") + section
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# --------------------------------------------------------------------------- main
DEFAULTS = {
    "history_files": 10,
    "turns_per_file": 1_000_000,
    "batch_turns": 1_000_000,
    "small_batch_turns": 10_000,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--history-files", type=int, default=DEFAULTS["history_files"])
    ap.add_argument("--turns-per-file", type=int, default=DEFAULTS["turns_per_file"])
    ap.add_argument("--batch-turns", type=int, default=DEFAULTS["batch_turns"])
    ap.add_argument("--small-batch-turns", type=int, default=DEFAULTS["small_batch_turns"])
    ap.add_argument("--repeats", type=int, default=2, help="A and B runs each, and small runs")
    ap.add_argument("--terms", type=int, default=5000)
    ap.add_argument("--characters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scratch", default=os.path.join(OUT, "scratch"), help="databases, logs")
    ap.add_argument(
        "--results",
        help="the Markdown file whose incremental section is written (default bench/RESULTS.md "
        "at the default sizes, else bench/out/incremental/RESULTS.md)",
    )
    ap.add_argument("--note", help="a line added under the section's checks")
    ap.add_argument("--with-unit-tests", action="store_true", help="do not exclude unit tests")
    ap.add_argument(
        "--parse",
        choices=["warm", "full"],
        default="warm",
        help="warm (default): an untimed `dbt parse` with the build's own vars, inputs and "
        "database first, so the timed build parses partially, as a scheduler's repeated build "
        "does; full: every build parses the project from scratch (a fresh checkout)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the working database copies")
    a = ap.parse_args(argv)
    if min(a.history_files, a.turns_per_file, a.batch_turns, a.small_batch_turns) < 1:
        ap.error("sizes must be >= 1")
    if a.repeats < 1:
        ap.error("--repeats must be >= 1")
    full_scale = all(getattr(a, k) == v for k, v in DEFAULTS.items())
    results_md = a.results or (RESULTS_MD if full_scale else os.path.join(OUT, "RESULTS.md"))
    args = argv if argv is not None else sys.argv[1:]
    git = subprocess.run(
        ["git", "-C", ROOT, "log", "-1", "--format=%h %s"], capture_output=True, text=True
    ).stdout.strip()
    res = {
        "command": " ".join(["python bench/incremental.py", *map(shlex.quote, args)]),
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "git": git,
        "machine": R.versions(),
        "memory_limit": os.environ.get("CARD_KEEPER_MEMORY_LIMIT", "2GB (profiles.yml default)"),
        **{k: getattr(a, k) for k in (*DEFAULTS, "terms", "characters", "seed", "repeats")},
        "with_unit_tests": a.with_unit_tests,
        "parse": a.parse,
        "note": a.note,
        "checks": [],
        "failed_tests": [],
    }
    log(f"incremental benchmark: {res['command']} (git {git})")
    inputs = make_inputs(a)
    res["history_turns"] = a.history_files * a.turns_per_file

    scratch = os.path.abspath(a.scratch)
    hist_dir = os.path.join(scratch, "turns_history")  # the glob's folder: history, then more
    batch_dir = os.path.join(scratch, "turns_batch")  # B's folder: the batch file alone
    db_dir = os.path.join(scratch, "db")
    runs_dir = os.path.join(scratch, "runs")
    for d in (hist_dir, batch_dir, db_dir, runs_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    for entry in inputs["history"]:
        place(hist_dir, entry)
    place(batch_dir, inputs["batch"])
    hist_glob = os.path.join(hist_dir, "chat_turn_*.jsonl")
    batch_glob = os.path.join(batch_dir, "chat_turn_*.jsonl")
    history_db = os.path.join(db_dir, "history.duckdb")
    a_db, b_db = os.path.join(db_dir, "a.duckdb"), os.path.join(db_dir, "b.duckdb")
    after_a_db, small_db = (
        os.path.join(db_dir, "history_batch.duckdb"),
        os.path.join(db_dir, "small.duckdb"),
    )

    def build(glob, db, label, expected, new):
        m = dbt_build(a, inputs, glob, db, os.path.join(runs_dir, label), label)
        res["failed_tests"] += [f"[{label}] {t}" for t in m["failed_tests"]]
        check_counts(db, expected, label, res["checks"])
        check_judged(db, m["invocation_id"], new, label, res["checks"])
        # Every build's figures as soon as it ends: a run stopped midway keeps what it measured.
        res.setdefault("builds", []).append(m)
        with open(os.path.join(OUT, "results.partial.json"), "w", encoding="utf-8") as f:
            json.dump(res, f, ensure_ascii=False, indent=2, default=str)
        return m

    # 1. the history, once
    log(f"history: {a.history_files} files x {a.turns_per_file:,} turns -> {history_db}")
    warm(*(e[1] for e in inputs["history"]))
    res["history"] = build(
        hist_glob, history_db, "history", res["history_turns"], res["history_turns"]
    )

    # 2. A (incremental +batch) and B (full build of the batch alone), interleaved
    place(hist_dir, inputs["batch"])
    res["A"], res["B"], res["order"] = [], [], []
    n_after_a = res["history_turns"] + a.batch_turns
    for rnd in range(a.repeats):
        for job in ("A", "B") if rnd % 2 == 0 else ("B", "A"):
            warm(inputs["batch"][1])
            label = f"{job}{rnd + 1}"
            res["order"].append(job)
            if job == "A":
                log(f"{label}: copy of the history database, +{inputs['batch'][0]}")
                copy_db(history_db, a_db)
                res["A"].append(build(hist_glob, a_db, label, n_after_a, a.batch_turns))
            else:
                log(f"{label}: {inputs['batch'][0]} alone into an empty database")
                remove_db(b_db)
                res["B"].append(build(batch_glob, b_db, label, a.batch_turns, a.batch_turns))
    log("checks: A's verdicts against B's and the history build's")
    tag = day_of(a.history_files).strftime("%Y%m%d")
    check_same_verdicts(a_db, b_db, history_db, tag, res["checks"])

    # 3. the small batch onto the database A left, --repeats times
    os.replace(a_db, after_a_db)
    if os.path.exists(a_db + ".wal"):
        os.replace(a_db + ".wal", after_a_db + ".wal")
    remove_db(b_db)
    place(hist_dir, inputs["small"])
    res["small"] = []
    for rnd in range(a.repeats):
        label = f"small{rnd + 1}"
        log(f"{label}: copy of the history+batch database, +{inputs['small'][0]}")
        warm(inputs["small"][1])
        copy_db(after_a_db, small_db)
        n_small = n_after_a + a.small_batch_turns
        res["small"].append(build(hist_glob, small_db, label, n_small, a.small_batch_turns))
    if not a.keep:
        remove_db(small_db)
        remove_db(after_a_db)

    res["parsed"] = sorted(
        {m["parsed"] for m in [res["history"], *res["A"], *res["B"], *res["small"]]}
    )
    summarise(res)
    print_report(res)
    with open(os.path.join(OUT, "results.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=2, default=str)
    os.unlink(os.path.join(OUT, "results.partial.json"))
    write_section(results_md, markdown(res))
    log(f"wrote the incremental section of {os.path.relpath(results_md, ROOT)}")
    if not all(c["ok"] for c in res["checks"]):
        return 5
    if res["failed_tests"]:
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
