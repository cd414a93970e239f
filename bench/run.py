"""The card_keeper benchmark: the full `dbt build` against the bare load and the per-row baseline.

    python bench/run.py [--mixes typical,deviant] [--sizes 1000000] [--terms 5000] [--repeats 2]

For each mix of bench/generate.py (`typical`: 10-18 % register breaks; `deviant`: about 60 %, a
name a turn, many off-canon) and each size: generate JSON Lines inputs (cached in
bench/out/inputs/ by parameters), then, side by side in the same round,
- the bare load: a fresh DuckDB database that only reads the three files into tables
  (`create table … as select * from read_json(…)`), the floor any build over them stands on;
- the production `dbt build` (seeds, models, data tests, export; unit tests, which read fixed
  fixtures, are left to `make test`) into a fresh database under /usr/bin/time -v (wall, peak
  RSS), with per-node timings from run_results.json;
- at --baseline-turns turns, the per-row Python baseline (bench/baseline.py), and its verdicts
  against marts.fct_turn_verdicts row for row (exit 2, with a diff sample, when they differ).
Then the lexicon step head to head on the typical mix at --baseline-turns turns: the project's
model SQL (Aho-Corasick UDF) against the join an analyst writes first
(`join topic_terms on contains(reply_text, term)`), over the same staged tables (exit 3 when
they disagree). With --repeats N every round runs every job once, in reverse order on even
rounds (A B, B A, ...), and the median time of each job is kept: its wall for a build, its load
time for the bare load, its load+judge time for the baseline (for an even count the lower middle
one, i.e. the faster: for two runs, the faster run of each job, so a ratio compares like with
like).
Writes results.json and RESULTS.md to --results-dir (default bench/; bench/out/quick with --quick,
so a smoke run never overwrites the recorded figures).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")
DBT = os.path.join(ROOT, ".venv", "bin", "dbt")
OUT = os.path.join(BENCH, "out")
GNU_TIME = "/usr/bin/time"
TABLES = ("chat_turn", "character_card", "topic_lexicon")
OK_STATUSES = {"success", "pass", "warn", "no-op"}
LEXICON_MODEL = "models/intermediate/int_turns_matched_to_lexicon.sql"

MIXES = ("typical", "deviant")
# Judged for each mix at 1,000,000 turns (and the lexicon step on the typical mix).
TARGETS = {
    "build_over_bare_load": ("1M build wall / bare DuckDB load of the same files", "<=", 30.0, "x"),
    "throughput_vs_baseline": ("dbt turns/s at 1M / baseline turns/s", ">=", 8.0, "x"),
    "verdicts_match_baseline": (
        "verdicts identical to the baseline, row for row",
        "==",
        0,
        "diffs",
    ),
    "lexicon_vs_naive_sql": ("lexicon step: naive join time / model time", ">=", 20.0, "x"),
}
TARGET_SIZE = 1_000_000
# bench/incremental.py writes its own section of RESULTS.md between these markers.
INCREMENTAL_START, INCREMENTAL_END = "<!-- incremental:start -->", "<!-- incremental:end -->"


def log(msg: str = "") -> None:
    print(msg, flush=True)


def loud(msg: str) -> None:
    bar = "!" * 78
    print(f"\n{bar}\n{msg}\n{bar}\n", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- measuring
def _proc_tree_rss_kb(root_pid: int) -> int:
    """Sum of VmRSS over root_pid and its descendants (psutil-free, from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as f:
                status = f.read()
        except OSError:
            continue
        m_pp = re.search(r"^PPid:\s+(\d+)", status, re.M)
        m_rss = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
        pid = int(name)
        if m_pp:
            children.setdefault(int(m_pp.group(1)), []).append(pid)
        rss[pid] = int(m_rss.group(1)) if m_rss else 0
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def measure(cmd: list[str], env: dict, log_path: str, cwd: str = ROOT) -> dict:
    """Run cmd, stdout+stderr to log_path. Returns rc, wall_s, peak_mb (peak RSS of the tree)."""
    use_time = os.access(GNU_TIME, os.X_OK)
    with tempfile.NamedTemporaryFile("r", suffix=".time", delete=False) as tf:
        time_file = tf.name
    full = [GNU_TIME, "-v", "-o", time_file, *cmd] if use_time else cmd
    peak = [0]
    with open(log_path, "wb") as logf:
        t0 = time.perf_counter()
        proc = subprocess.Popen(full, cwd=cwd, env=env, stdout=logf, stderr=subprocess.STDOUT)
        stop = threading.Event()

        def poll():
            while not stop.is_set():
                try:
                    peak[0] = max(peak[0], _proc_tree_rss_kb(proc.pid))
                except Exception:
                    pass
                stop.wait(0.2)

        poller = None
        if not use_time:
            poller = threading.Thread(target=poll, daemon=True)
            poller.start()
        rc = proc.wait()
        wall = time.perf_counter() - t0
        stop.set()
        if poller:
            poller.join()
    peak_kb, method = peak[0], "/proc polling (0.2 s)"
    if use_time:
        method = "/usr/bin/time -v"
        text = open(time_file).read()
        os.unlink(time_file)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
        peak_kb = int(m.group(1)) if m else 0
        m = re.search(r"Exit status: (\d+)", text)
        if m:
            rc = int(m.group(1))
    return {"rc": rc, "wall_s": wall, "peak_mb": peak_kb / 1024.0, "mem_method": method}


def tail(path: str, n: int = 40) -> str:
    with open(path, "rb") as f:
        lines = f.read().decode("utf-8", "replace").splitlines()
    return "\n".join(lines[-n:])


# --------------------------------------------------------------------------- inputs
def _generator_hash() -> str:
    h = hashlib.sha256()
    for name in ("generate.py", "fragments.py"):
        with open(os.path.join(BENCH, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:10]


def inputs(turns: int, terms: int, characters: int, seed: int, mix: str) -> dict:
    """Generated JSON Lines inputs, cached by parameters (and the generator's source)."""
    key = f"{mix}_t{turns}_m{terms}_k{characters}_s{seed}_{_generator_hash()}"
    d = os.path.join(OUT, "inputs", key)
    paths = {t: os.path.join(d, f"{t}.jsonl") for t in TABLES}
    if os.path.exists(os.path.join(d, "complete")):
        log(f"  inputs: cached {os.path.relpath(d, ROOT)}")
        return paths
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [
        sys.executable,
        os.path.join(BENCH, "generate.py"),
        "--turns",
        str(turns),
        "--terms",
        str(terms),
        "--characters",
        str(characters),
        "--seed",
        str(seed),
        "--format",
        "jsonl",
        "--mix",
        mix,
        "--out",
        tmp,
    ]
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        loud(f"generate.py failed ({res.returncode}):\n{res.stderr[-3000:]}")
        sys.exit(1)
    open(os.path.join(tmp, "complete"), "w").close()
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    log(
        f"  inputs: generated {turns:,} turns x {terms:,} terms ({mix}) in "
        f"{time.perf_counter() - t0:.1f}s"
    )
    return paths


# --------------------------------------------------------------------------- dbt build
def dbt_build(paths: dict, work: str, label: str) -> dict:
    """The full `dbt build` into a fresh database; timings, peak memory and per-node times."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "card_keeper.duckdb")
    target = os.path.join(work, "target")
    dbt_vars = {
        "input_chat_turn": paths["chat_turn"],
        "input_character_card": paths["character_card"],
        "input_topic_lexicon": paths["topic_lexicon"],
        "export_path": os.path.join(work, "turn_verdicts.json"),
    }
    # The build a scheduler runs on new logs: every seed, model, data test and the export. Unit
    # tests check the rules on fixed fixtures, whatever the logs; dbt's docs advise running them
    # in development and CI, not in production builds (`make test` runs them).
    cmd = [
        DBT,
        "build",
        "--exclude-resource-type",
        "unit_test",
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
        json.dumps(dbt_vars, ensure_ascii=False),
    ]
    env = dict(os.environ, CARD_KEEPER_DB=db, DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    load = os.getloadavg()[0]
    log(f"  dbt build [{label}] (load avg {load:.2f}) ...")
    m = measure(cmd, env, os.path.join(work, "dbt.log"))
    rr_path = os.path.join(target, "run_results.json")
    rr = None
    if os.path.exists(rr_path):
        with open(rr_path) as f:
            rr = json.load(f)
    bad = [r for r in (rr or {}).get("results", []) if r["status"] not in OK_STATUSES]
    # A failing data test still builds everything (nothing is downstream of a test that fails
    # here unless a model is skipped), so the timing stands: record it and fail at the end.
    only_test_failures = bool(bad) and all(
        r["status"] == "fail" and r["unique_id"].startswith("test.") for r in bad
    )
    if m["rc"] != 0 and not only_test_failures:
        loud(
            f"dbt build [{label}] FAILED (rc {m['rc']}); last lines of {work}/dbt.log:\n"
            + tail(os.path.join(work, "dbt.log"))
        )
        sys.exit(1)
    failed_tests = [
        {"node": r["unique_id"], "failures": r.get("failures"), "message": r.get("message")}
        for r in bad
    ]
    if failed_tests:
        loud(
            f"dbt build [{label}]: {len(failed_tests)} data test(s) FAILED (timing kept; the run "
            "will exit 4):\n" + "\n".join(f"  {t['node']}: {t['message']}" for t in failed_tests)
        )
    nodes = sorted(
        (
            {
                "node": r["unique_id"].replace("card_keeper.", ""),
                "s": round(r["execution_time"], 3),
                "status": r["status"],
            }
            for r in rr["results"]
        ),
        key=lambda x: -x["s"],
    )
    export = os.path.join(work, "turn_verdicts.json")
    m.update(
        db=db,
        target=target,
        dbt_elapsed_s=rr["elapsed_time"],
        nodes=nodes,
        load_avg_before=load,
        export_mb=os.path.getsize(export) / 2**20 if os.path.exists(export) else None,
        db_mb=os.path.getsize(db) / 2**20,
        failed_tests=failed_tests,
    )
    log(
        f"    wall {m['wall_s']:.1f}s (dbt elapsed {rr['elapsed_time']:.1f}s, "
        f"start-up, parse and exit {m['wall_s'] - rr['elapsed_time']:.1f}s), "
        f"peak {m['peak_mb']:,.0f} MB"
    )
    log("    slowest nodes (2 threads: node times overlap):")
    for n in nodes[:8]:
        log(f"      {n['s']:8.2f}s  {n['node']}")
    return m


# --------------------------------------------------------------------------- bare load
def warm_page_cache(paths: dict) -> None:
    """Read the input files once, so that neither the bare load nor the build that follows it
    pays for reading them from disk."""
    for path in paths.values():
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass


def bare_load_worker(input_dir: str, db: str) -> None:
    """Run in a child process: read the three input files into tables of a fresh database."""
    import duckdb

    t0 = time.perf_counter()
    con = duckdb.connect(db)
    for table in TABLES:
        path = os.path.join(input_dir, f"{table}.jsonl").replace("'", "''")
        con.execute(f"create table {table} as select * from read_json('{path}')")
    con.close()
    print(json.dumps({"load_s": time.perf_counter() - t0}))


def run_worker(flag: str, args: list[str], log_path: str, what: str) -> tuple[dict, dict]:
    """Run this script's hidden worker `flag` in a child process under measure(); returns the
    measurement and the JSON line the worker printed last."""
    cmd = [sys.executable, os.path.abspath(__file__), flag, *args]
    m = measure(cmd, dict(os.environ), log_path)
    if m["rc"] != 0:
        loud(f"{what} FAILED (rc {m['rc']}):\n{tail(log_path)}")
        sys.exit(1)
    with open(log_path) as f:
        stats = json.loads([x for x in f.read().splitlines() if x.startswith("{")][-1])
    return m, stats


def run_bare_load(paths: dict, work: str) -> dict:
    """The bare load of the inputs, timed inside the process (start-up not counted)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    args = [os.path.dirname(paths["chat_turn"]), os.path.join(work, "bare.duckdb")]
    m, stats = run_worker(
        "--_bare-load-worker", args, os.path.join(work, "bare_load.log"), "bare load"
    )
    m.update(stats)
    log(f"  bare load: {stats['load_s']:.2f}s (process wall {m['wall_s']:.2f}s)")
    shutil.rmtree(work, ignore_errors=True)
    return m


# --------------------------------------------------------------------------- baseline
def baseline_worker(input_dir: str, out_parquet: str) -> None:
    """Run in a child process: load + judge timed in-process; results to Parquet."""
    sys.path.insert(0, BENCH)
    import baseline

    p = {t: os.path.join(input_dir, f"{t}.jsonl") for t in TABLES}
    t0 = time.perf_counter()
    turns = baseline.load_chat_turns(p["chat_turn"])
    cards = baseline.load_cards(p["character_card"])
    lexicon = baseline.load_lexicon(p["topic_lexicon"])
    endings = baseline.load_endings(baseline.DEFAULT_ENDINGS)
    t1 = time.perf_counter()
    results = baseline.judge(turns, cards, lexicon, endings)
    t2 = time.perf_counter()
    baseline.write_parquet(results, out_parquet)
    print(json.dumps({"turns": len(results), "load_s": t1 - t0, "judge_s": t2 - t1}))


def run_baseline(paths: dict, work: str) -> dict:
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "baseline.parquet")
    log(f"  baseline (load avg {os.getloadavg()[0]:.2f}) ...")
    args = [os.path.dirname(paths["chat_turn"]), out]
    m, stats = run_worker(
        "--_baseline-worker", args, os.path.join(work, "baseline.log"), "baseline"
    )
    m.update(stats, parquet=out)
    m["load_judge_s"] = stats["load_s"] + stats["judge_s"]
    m["turns_per_s"] = stats["turns"] / m["load_judge_s"]
    log(
        f"    {stats['turns']:,} turns: load {stats['load_s']:.1f}s + judge {stats['judge_s']:.1f}s"
        f" -> {m['turns_per_s']:,.0f} turns/s (process wall {m['wall_s']:.1f}s), "
        f"peak {m['peak_mb']:,.0f} MB"
    )
    return m


# --------------------------------------------------------------------------- verdicts
def compare_verdicts(db: str, baseline_parquet: str, chat_turn: str, sample: int = 12) -> dict:
    import duckdb

    sys.path.insert(0, BENCH)
    import baseline

    # The verdict fields the baseline writes (the key and its working tone column aside).
    verdict_fields = [f for f in baseline.RESULT_FIELDS if f not in ("turn_id", "tone")]
    con = duckdb.connect(db, read_only=True)
    bp = baseline_parquet.replace("'", "''")
    cols = ", ".join(["turn_id", *verdict_fields])
    con.execute(f"create temp table d as select {cols} from marts.fct_turn_verdicts")
    con.execute(f"create temp table b as select {cols} from read_parquet('{bp}')")
    counts = con.execute("select (select count(*) from d), (select count(*) from b)").fetchone()
    parts = [
        "select coalesce(d.turn_id, b.turn_id) as turn_id, '<row missing in '"
        " || case when d.turn_id is null then 'dbt' else 'baseline' end || '>' as field,"
        " null as dbt_value, null as baseline_value"
        " from d full join b using (turn_id) where d.turn_id is null or b.turn_id is null"
    ]
    for f in verdict_fields:
        parts.append(
            f"select turn_id, '{f}', cast(d.{f} as varchar), cast(b.{f} as varchar)"
            f" from d join b using (turn_id) where d.{f} is distinct from b.{f}"
        )
    con.execute("create temp table diffs as " + " union all ".join(parts))
    by_field = dict(
        con.execute("select field, count(*) from diffs group by 1 order by 1").fetchall()
    )
    n_turns = con.execute("select count(distinct turn_id) from diffs").fetchone()[0]
    rows = []
    if by_field:
        ct = chat_turn.replace("'", "''")
        rows = con.execute(
            f"""
            with s as (
                select *, row_number() over (partition by field order by turn_id) as k from diffs
            )
            select s.turn_id, s.field, s.dbt_value, s.baseline_value, r.reply_text
            from s
            left join read_json('{ct}', format='newline_delimited',
                                columns={{'turn_id': 'VARCHAR', 'reply_text': 'VARCHAR'}}) r
                using (turn_id)
            where s.k <= greatest(2, {sample} // {len(by_field)})
            order by s.field, s.turn_id
            limit {sample}
            """
        ).fetchall()
    con.close()
    sample_rows = [
        dict(zip(["turn_id", "field", "dbt", "baseline", "reply_text"], r, strict=True))
        for r in rows
    ]
    return {
        "dbt_rows": counts[0],
        "baseline_rows": counts[1],
        "turns_differing": n_turns,
        "diffs_by_field": by_field,
        "sample": sample_rows,
    }


# --------------------------------------------------------------------------- lexicon step
NAIVE_LEXICON_SQL = """
with hits as (
    select
        t.turn_id,
        l.term,
        l.topic,
        l.term_order,
        coalesce(list_contains(c.forbidden_topics, l.topic), false) as is_forbidden
    from bench_stg_chat_logs__turns t
    join bench_stg_chat_logs__topic_terms l on contains(t.reply_text, l.term)
    join bench_stg_chat_logs__character_cards c on c.character_id = t.character_id
)
select turn_id, term as touched_term, case when is_forbidden then topic end as touched_topic
from hits
qualify row_number() over (partition by turn_id order by is_forbidden desc, term_order) = 1
"""


def lexicon_head_to_head(db: str, target: str) -> dict:
    """The model's compiled SQL (Aho-Corasick UDF) vs the naive join, over the same staged data."""
    import duckdb

    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from python_udfs.plugin import Plugin

    compiled = os.path.join(target, "compiled", "card_keeper", LEXICON_MODEL)
    with open(compiled, encoding="utf-8") as f:
        model_sql = f.read()
    # Every relation the model reads is copied into an in-memory database (bench_<name>), so both
    # sides run on the same connection over the same tables.
    relations = sorted(set(re.findall(r'"[^"]+"\."(\w+)"\."(\w+)"', model_sql)))
    model_sql = re.sub(r'"[^"]+"\."\w+"\."(\w+)"', r"bench_\1", model_sql)
    staged = {f"stg_chat_logs__{name}" for name in ("turns", "topic_terms", "character_cards")}
    if not staged <= {name for _, name in relations}:
        loud(f"lexicon model SQL no longer reads {sorted(staged)}: it reads {relations}")
        sys.exit(1)
    con = duckdb.connect()
    Plugin("card_keeper", {}).configure_connection(con)
    con.execute(f"attach '{db}' as src (read_only)")
    for schema, name in relations:
        con.execute(f"create table bench_{name} as select * from src.{schema}.{name}")
    con.execute("detach src")
    n_turns, n_terms = con.execute(
        "select (select count(*) from bench_stg_chat_logs__turns),"
        " (select count(*) from bench_stg_chat_logs__topic_terms)"
    ).fetchone()
    log(
        f"  lexicon step head to head: {n_turns:,} turns x {n_terms:,} terms "
        f"(load avg {os.getloadavg()[0]:.2f})"
    )
    t0 = time.perf_counter()
    con.execute(f"create table model_result as {model_sql}")
    t_model = time.perf_counter() - t0
    log(f"    model SQL ({LEXICON_MODEL}, Aho-Corasick UDF): {t_model:.2f}s")
    t0 = time.perf_counter()
    con.execute(f"create table naive_result as {NAIVE_LEXICON_SQL}")
    t_naive = time.perf_counter() - t0
    log(f"    naive join on contains(reply_text, term): {t_naive:.2f}s")
    diff = con.execute(
        """
        select coalesce(m.turn_id, n.turn_id), m.touched_term, n.touched_term,
               m.touched_topic, n.touched_topic
        from model_result m full join naive_result n using (turn_id)
        where m.touched_term is distinct from n.touched_term
           or m.touched_topic is distinct from n.touched_topic
        order by 1
        """
    ).fetchall()
    hits = con.execute("select count(*) from naive_result").fetchone()[0]
    con.close()
    ratio = t_naive / t_model if t_model > 0 else float("inf")
    log(
        f"    ratio naive/model: {ratio:.1f}x; turns with a hit: {hits:,}; "
        f"disagreements: {len(diff)}"
    )
    return {
        "turns": n_turns,
        "terms": n_terms,
        "model_s": t_model,
        "naive_s": t_naive,
        "ratio": ratio,
        "turns_with_hit": hits,
        "disagreements": len(diff),
        "disagreement_sample": [list(r) for r in diff[:10]],
    }


# --------------------------------------------------------------------------- report
def versions() -> dict:
    import duckdb

    dbt_v = subprocess.run([DBT, "--version"], capture_output=True, text=True).stdout
    core = re.search(r"installed:\s+(\S+)", dbt_v)
    duck = re.search(r"duckdb:\s+(\S+)", dbt_v)
    mem_kb = 0
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    return {
        "nproc": os.cpu_count(),
        "nproc_cmd": subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip(),
        "mem_gb": round(mem_kb / 2**20, 1),
        "python": platform.python_version(),
        "duckdb": duckdb.__version__,
        "dbt_core": core.group(1) if core else None,
        "dbt_duckdb": duck.group(1) if duck else None,
        "platform": platform.platform(),
    }


def judge_targets(res: dict) -> dict:
    """Each target for each mix (the lexicon step on the typical mix only)."""
    out = {}
    builds = {(b["mix"], b["turns"]): b for b in res["builds"]}
    for mix in res["mixes"]:
        got: dict[str, float | None] = dict.fromkeys(TARGETS)
        build = builds.get((mix, TARGET_SIZE))
        if build:
            got["build_over_bare_load"] = build["over_bare_load"]
            baseline = res["baselines"].get(mix)
            if baseline:
                got["throughput_vs_baseline"] = build["turns_per_s"] / baseline["turns_per_s"]
        if res["verdicts"].get(mix):
            got["verdicts_match_baseline"] = res["verdicts"][mix]["turns_differing"]
        lexicon = res.get("lexicon")
        if (
            mix == "typical"
            and lexicon
            and lexicon["terms"] >= 5000
            and lexicon["turns"] >= 200_000
        ):
            got["lexicon_vs_naive_sql"] = lexicon["ratio"]
        for key, (desc, op, target, unit) in TARGETS.items():
            if key == "lexicon_vs_naive_sql" and mix != "typical":
                continue
            value = got[key]
            if value is None:
                status = "n/a"
            elif op == "<=":
                status = "PASS" if value <= target else "MISS"
            elif op == ">=":
                status = "PASS" if value >= target else "MISS"
            else:
                status = "PASS" if value == target else "FAIL"
            out[f"{key}[{mix}]"] = {
                "what": f"{desc} ({mix})",
                "target": f"{op} {target:g} {unit}",
                "value": value,
                "status": status,
            }
    return out


def _fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.2f}"
    return f"{v:,}"


def table_rows(res: dict) -> list[list[str]]:
    rows = []
    for b in res["builds"]:
        rows.append(
            [
                "bare load (read_json into tables)",
                b["mix"],
                f"{b['turns']:,}",
                f"{b['terms']:,}",
                f"{b['bare_load_s']:.2f}",
                "-",
                f"{b['turns'] / b['bare_load_s']:,.0f}",
                "-",
            ]
        )
        rows.append(
            [
                "dbt build",
                b["mix"],
                f"{b['turns']:,}",
                f"{b['terms']:,}",
                f"{b['wall_s']:.1f}",
                f"{b['dbt_elapsed_s']:.1f}",
                f"{b['turns_per_s']:,.0f}",
                f"{b['peak_mb']:,.0f}",
            ]
        )
    for mix, b in res["baselines"].items():
        rows.append(
            [
                "baseline (per-row Python)",
                mix,
                f"{b['turns']:,}",
                f"{res['terms']:,}",
                f"{b['wall_s']:.1f}",
                f"{b['load_s'] + b['judge_s']:.1f}",
                f"{b['turns_per_s']:,.0f}",
                f"{b['peak_mb']:,.0f}",
            ]
        )
    if res.get("lexicon"):
        lx = res["lexicon"]
        for label, seconds in (
            ("lexicon step: model SQL (AC UDF)", lx["model_s"]),
            ("lexicon step: naive contains() join", lx["naive_s"]),
        ):
            rows.append(
                [
                    label,
                    "typical",
                    f"{lx['turns']:,}",
                    f"{lx['terms']:,}",
                    f"{seconds:.2f}",
                    "-",
                    f"{lx['turns'] / seconds:,.0f}",
                    "-",
                ]
            )
    return rows


HEADER = ["run", "mix", "turns", "terms", "wall s", "engine s", "turns/s", "peak MB"]


def print_report(res: dict) -> None:
    rows = table_rows(res)
    widths = [max(len(str(r[i])) for r in [HEADER, *rows]) for i in range(len(HEADER))]
    line = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    log("\n" + "=" * 78 + "\nRESULTS")
    log(line.format(*HEADER))
    for r in rows:
        log(line.format(*r))
    log(
        "  (engine s: dbt run_results elapsed for builds; load+judge for the baseline; the bare"
        " load's wall is timed inside its process)"
    )
    log("\nTARGETS")
    for t in res["targets"].values():
        log(f"  {t['status']:<5} {t['what']}: {_fmt(t['value'])} (target {t['target']})")
    failed = sorted({t["node"] for b in res["builds"] for t in b["failed_tests"]})
    if failed:
        log("\nFAILED dbt data tests (on the generated inputs): " + ", ".join(failed))
    log("=" * 78)


def write_results(res: dict, results_dir: str) -> None:
    os.makedirs(results_dir, exist_ok=True)
    with open(os.path.join(results_dir, "results.json"), "w", encoding="utf-8") as f:
        json.dump(res, f, ensure_ascii=False, indent=2, default=str)
    m = res["machine"]
    md = [
        "# card_keeper benchmark results",
        "",
        "Written by `bench/run.py`; rerun with the command below (from the project root).",
        "",
        f"- command: `{res['command']}`",
        f"- date: {res['date']}",
        f"- machine: nproc {m['nproc_cmd']}, {m['mem_gb']} GB RAM, {m['platform']}; "
        f"python {m['python']}, duckdb {m['duckdb']}, dbt-core {m['dbt_core']}, "
        f"dbt-duckdb {m['dbt_duckdb']}",
        f"- peak memory: {res['mem_method']} (peak RSS of the process tree)",
        "- inputs: `bench/generate.py` JSON Lines, "
        f"{res['characters']} characters, seed {res['seed']}",
        f"- mixes: {', '.join(res['mixes'])} (bench/generate.py --mix)",
        f"- repeats: {res['repeats']} per job, interleaved (each round runs every job once, in "
        "reverse order on even rounds; the bare load just before its build, the baseline "
        "after it); each job's median time is shown, the lower middle one for an even count "
        "(the faster of two runs), for the builds, the bare loads and the baseline alike "
        "(every run's figure is in results.json under `repeats`); peak memory is the highest",
        "",
        "| " + " | ".join(HEADER) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(HEADER) - 1)) + "|",
    ]
    md += ["| " + " | ".join(r) + " |" for r in table_rows(res)]
    md += [
        "",
        "wall s = the whole process (for dbt: start-up, full parse, seeds, models, data tests, "
        "export, exit; for the bare load: the load alone, timed inside its process); engine s = "
        "dbt's own elapsed time (run_results.json) / the baseline's load+judge (its turns/s uses "
        "load+judge).",
        "",
        "## Targets",
        "",
        "| target | value | required | status |",
        "|---|---:|---:|---|",
    ]
    md += [
        f"| {t['what']} | {_fmt(t['value'])} | {t['target']} | {t['status']} |"
        for t in res["targets"].values()
    ]
    failed = sorted({t["node"] for b in res["builds"] for t in b["failed_tests"]})
    if failed:
        md += [
            "",
            "**dbt data tests that FAILED on the generated inputs:** "
            + ", ".join(f"`{x}`" for x in failed),
        ]
    for mix, v in res["verdicts"].items():
        md += ["", f"## Verdicts vs baseline at {res['baseline_turns']:,} turns ({mix})", ""]
        if v["turns_differing"] == 0:
            md.append(f"Identical, row for row ({v['dbt_rows']:,} rows).")
        else:
            md.append(
                f"**{v['turns_differing']:,} turns differ** — by field: {v['diffs_by_field']}"
            )
            md += ["", "| turn_id | field | dbt | baseline | reply_text |", "|---|---|---|---|---|"]
            md += [
                f"| {s['turn_id']} | {s['field']} | {s['dbt']} | {s['baseline']} | "
                f"{(s['reply_text'] or '').replace('|', '/')} |"
                for s in v["sample"]
            ]
    for b in res["builds"]:
        md += [
            "",
            f"## Slowest dbt nodes at {b['turns']:,} turns x {b['terms']:,} terms ({b['mix']})",
            "",
        ]
        md += ["| s | node |", "|---:|---|"]
        md += [f"| {n['s']:.2f} | `{n['node']}` |" for n in b["nodes"][:8]]
    path = os.path.join(results_dir, "RESULTS.md")
    md += kept_incremental_section(path)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    log(f"wrote {os.path.relpath(results_dir, ROOT) or '.'}/results.json and RESULTS.md")


def kept_incremental_section(path: str) -> list[str]:
    """The lines of the incremental section an earlier bench/incremental.py run left in
    `path` (its 10M history takes far longer to rebuild than this run), or none."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return []
    start, end = text.find(INCREMENTAL_START), text.find(INCREMENTAL_END)
    if start < 0 or end < start:
        return []
    return ["", *text[start : end + len(INCREMENTAL_END)].splitlines()]


# --------------------------------------------------------------------------- main
# The baseline's runs are ranked by time, as the builds' walls are (never by turns/s, whose
# lower middle is the slower run): a ratio then compares the same middle of both.
BASELINE_TIME = "load_judge_s"


def median_run(runs: list[dict], key: str = "wall_s") -> dict:
    """The run with the median `key` (the lower middle one for an even count), noting every
    run's value and the highest peak memory of them all; the paths of its database, target and
    parquet are the last run's (every run's results are equal: the inputs are the same)."""
    ordered = sorted(runs, key=lambda run: run[key])
    chosen = dict(ordered[(len(ordered) - 1) // 2])
    chosen["repeats"] = [round(run[key], 2) for run in runs]
    chosen["peak_mb"] = max(run["peak_mb"] for run in runs)
    chosen.update({k: runs[-1][k] for k in ("db", "target", "parquet") if k in runs[-1]})
    return chosen


def check_against_baseline(
    res: dict, mix: str, run: dict, baseline_parquet: str, paths: dict
) -> list:
    """The build's verdicts against the baseline's, row for row, and on the typical mix the
    lexicon step against the naive join, on that build's database; their results go into
    `res`. Returns the names of the checks that failed."""
    failures = []
    log("  verdicts: dbt marts.fct_turn_verdicts vs baseline ...")
    v = compare_verdicts(run["db"], baseline_parquet, paths["chat_turn"])
    res["verdicts"][mix] = v
    if v["turns_differing"] or v["dbt_rows"] != v["baseline_rows"]:
        failures.append("verdicts")
        loud(
            f"VERDICTS DIFFER ({mix}): {v['turns_differing']:,} turns "
            f"(dbt rows {v['dbt_rows']:,}, baseline rows {v['baseline_rows']:,})\n"
            f"by field: {v['diffs_by_field']}\nsample (turn_id | field | dbt | baseline"
            " | reply_text):\n"
            + "\n".join(
                f"  {s['turn_id']} | {s['field']} | {s['dbt']} | {s['baseline']}"
                f" | {s['reply_text']}"
                for s in v["sample"]
            )
        )
    else:
        log(f"    identical, row for row ({v['dbt_rows']:,} rows)")
    if mix != "typical":
        return failures
    res["lexicon"] = lexicon_head_to_head(run["db"], run["target"])
    if res["lexicon"]["disagreements"]:
        failures.append("lexicon")
        loud(
            f"LEXICON STEP: model and naive join disagree on "
            f"{res['lexicon']['disagreements']} turns (turn_id, model term, naive term,"
            f" model topic, naive topic): {res['lexicon']['disagreement_sample']}"
        )
    return failures


def _ints(s: str) -> list[int]:
    return [int(x.replace("_", "")) for x in s.split(",") if x.strip()]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--mixes",
        type=lambda text: [m.strip() for m in text.split(",") if m.strip()],
        help=f"bench/generate.py mixes (default {','.join(MIXES)}; typical with --quick)",
    )
    ap.add_argument("--sizes", type=_ints, help="turns per dbt build (default 1000000)")
    ap.add_argument("--terms", type=int, help="lexicon terms (default 5000; 1000 with --quick)")
    ap.add_argument("--characters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baseline-turns", type=int, help="default 200000; 20000 with --quick")
    ap.add_argument("--quick", action="store_true", help="20k turns, 1k terms: a smoke run")
    ap.add_argument(
        "--repeats",
        type=int,
        default=1,
        help="run every job this many times, interleaved, and keep the median wall"
        " (this machine's wall times vary by a few seconds from run to run)",
    )
    ap.add_argument("--results-dir", help="default bench/ (bench/out/quick with --quick)")
    ap.add_argument("--keep", action="store_true", help="keep the databases and dbt targets")
    ap.add_argument(
        "--clean-inputs", action="store_true", help="delete the generated inputs at the end"
    )
    ap.add_argument("--_baseline-worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--_bare-load-worker", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a._baseline_worker:
        baseline_worker(*a._baseline_worker)
        return 0
    if a._bare_load_worker:
        bare_load_worker(*a._bare_load_worker)
        return 0
    mixes = a.mixes or (["typical"] if a.quick else list(MIXES))
    unknown = sorted(set(mixes) - set(MIXES))
    if unknown:
        ap.error(f"unknown mix {', '.join(unknown)} (choose from {', '.join(MIXES)})")
    terms = a.terms or (1000 if a.quick else 5000)
    sizes = a.sizes or ([20_000] if a.quick else [TARGET_SIZE])
    base_n = a.baseline_turns or (20_000 if a.quick else 200_000)
    results_dir = a.results_dir or (os.path.join(OUT, "quick") if a.quick else BENCH)
    plan = sorted(set(sizes) | {base_n})
    cmd_line = "python bench/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    res = {
        "command": cmd_line.strip(),
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": versions(),
        "mem_method": "/usr/bin/time -v" if os.access(GNU_TIME, os.X_OK) else "/proc polling",
        "mixes": mixes,
        "terms": terms,
        "characters": a.characters,
        "seed": a.seed,
        "repeats": a.repeats,
        "baseline_turns": base_n,
        "builds": [],
        "baselines": {},
        "verdicts": {},
        "lexicon": None,
    }
    os.makedirs(OUT, exist_ok=True)
    work_root = tempfile.mkdtemp(prefix="run-", dir=OUT)
    failures = []
    t_start = time.perf_counter()
    try:
        jobs = [(mix, n) for mix in mixes for n in plan]
        paths = {(mix, n): inputs(n, terms, a.characters, a.seed, mix) for mix, n in jobs}
        # Repeats are interleaved, in reverse order on even rounds: a drift in the machine's
        # speed during the invocation reaches every figure alike.
        runs: dict[tuple[str, int], list[dict]] = {job: [] for job in jobs}
        loads: dict[tuple[str, int], list[dict]] = {job: [] for job in jobs}
        baseline_runs: dict[str, list[dict]] = {mix: [] for mix in mixes}
        for round_number in range(1, a.repeats + 1):
            for mix, n in jobs if round_number % 2 else jobs[::-1]:
                round_note = f" (round {round_number} of {a.repeats})" if a.repeats > 1 else ""
                log(f"\n== {mix}: {n:,} turns x {terms:,} terms{round_note}")
                job_paths = paths[(mix, n)]
                work = os.path.join(work_root, f"{mix}_t{n}")
                warm_page_cache(job_paths)
                loads[(mix, n)].append(run_bare_load(job_paths, work + "_bare"))
                run = dbt_build(job_paths, work, f"{mix}, {n:,} x {terms:,}")
                runs[(mix, n)].append(run)
                if n == base_n:
                    baseline_work = os.path.join(work_root, f"baseline_{mix}")
                    baseline_runs[mix].append(run_baseline(job_paths, baseline_work))
                    if round_number == 1:
                        failures += check_against_baseline(
                            res, mix, run, baseline_runs[mix][0]["parquet"], job_paths
                        )
                if not a.keep:
                    shutil.rmtree(work, ignore_errors=True)
        for mix, n in jobs:
            b = median_run(runs[(mix, n)])
            load = median_run(loads[(mix, n)], key="load_s")
            b.update(
                mix=mix,
                turns=n,
                terms=terms,
                turns_per_s=n / b["wall_s"],
                bare_load_s=load["load_s"],
                bare_load_repeats=load["repeats"],
                over_bare_load=b["wall_s"] / load["load_s"],
            )
            log(
                f"{mix}, {n:,} turns x {terms:,} terms: build median {b['wall_s']:.1f} s "
                f"({b['turns_per_s']:,.0f} turns/s), bare load {load['load_s']:.2f} s: "
                f"{b['over_bare_load']:.1f}x"
            )
            for k in ("db", "target"):
                b.pop(k)
            res["builds"].append(b)
        for mix, mix_runs in baseline_runs.items():
            if mix_runs:
                res["baselines"][mix] = median_run(mix_runs, key=BASELINE_TIME)
                res["baselines"][mix].pop("parquet", None)
    finally:
        if not a.keep:
            shutil.rmtree(work_root, ignore_errors=True)
        if a.clean_inputs:
            shutil.rmtree(os.path.join(OUT, "inputs"), ignore_errors=True)
    for b in res["builds"]:
        baseline = res["baselines"].get(b["mix"])
        if baseline:
            b["speedup_vs_baseline"] = b["turns_per_s"] / baseline["turns_per_s"]
    res["targets"] = judge_targets(res)
    res["total_s"] = time.perf_counter() - t_start
    print_report(res)
    write_results(res, results_dir)
    if "verdicts" in failures:
        loud("FAILED: dbt verdicts differ from the baseline (see the diff sample above)")
        return 2
    if "lexicon" in failures:
        loud("FAILED: the lexicon model and the naive join disagree")
        return 3
    failed = sorted({t["node"] for b in res["builds"] for t in b["failed_tests"]})
    if failed:
        loud("FAILED: dbt data tests failed on the generated inputs: " + ", ".join(failed))
        return 4
    return 0


if __name__ == "__main__":
    if os.path.exists(VENV_PY) and os.path.realpath(sys.prefix) != os.path.realpath(
        os.path.join(ROOT, ".venv")
    ):
        os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__), *sys.argv[1:]])
    sys.exit(main())
