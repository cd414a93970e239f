"""The dashboard's speed at 1M turns (issue 20), timed in a real browser.

    python bench/dashboard_timing.py [--turns 1000000] [--repeats 5] [--work DIR] [--reuse]
    python bench/dashboard_timing.py --database PATH [--repeats 5] [--floor 4]

Targets of the issue: on this machine, the first view under 3 s and a filter change under 1 s.

Method:
1. Inputs: bench/generate.py, typical mix, --turns turns over --characters cards and --terms
   lexicon terms (bench/run.py's 1M case: 50 characters, 5,000 terms, seed 0), JSON Lines in
   WORK/inputs_<parameters>/; then the production build of bench/run.py (`dbt build
   --exclude-resource-type unit_test`, CARD_KEEPER_DB and the input_* vars, the export inside
   the work folder) into WORK/build_<parameters>/card_keeper.duckdb. With --reuse, inputs and
   a database already made with the same parameters (a `complete` marker) are kept; without
   it both are made anew. --database PATH skips all of this and times that database.
2. Streamlit (`streamlit run dashboard/app.py` by dashboard/serve.py, as the browser tests
   start it) on 127.0.0.1 and a free port over that database, CARD_KEEPER_UPLOADS and
   CARD_KEEPER_REVIEWS empty folders of WORK/server/; ready when /_stcore/health answers `ok`.
3. Playwright (sync API) drives Debian's chromium (/usr/bin/chromium, headless). Every run is a
   fresh browser context (no session state, no browser cache) and measures:
   - first view: from `page.goto(url)` until the summary strip shows >= 4 metric values, the
     verdict list shows >= 1 row (expander) and Streamlit's running indicator
     (`stStatusWidget`) is gone; polled on every animation frame by page.wait_for_function,
     so the time is the frame the last of these became true (no fixed sleep is counted);
   - filter changes: with the model filter's list open, from the click on an option until the
     running indicator is gone and the group labels (radiogroup 판정별 묶음) read the counts of
     that filter. The expected counts are read from the database beforehand (`select verdict,
     count(*) from marts.fct_turn_verdicts where ... group by verdict`), so the time is the
     time to a correct screen. Three changes a run: model 전체 -> one model (the models take
     turns across runs), that model -> 전체, then the character filter 전체 -> one character.
   A run that shows a Streamlit exception, or whose labels never match, is reported as failed.
   The first run after the server starts pays for Python's imports and Streamlit's start-up
   (cold) and is reported apart from the --repeats warm runs; medians are over the warm runs.
4. Where the first view's time goes: the dashboard.db queries the first view runs
   (app.py header / summary_strip / schema_checks, verdict_list.verdict_list with no filter)
   and those of a model filter change, called directly through dashboard.db.Batch on a
   read-only connection, each timed --query-repeats times (median); the connection's opening
   too. No browser, no Streamlit: what DuckDB costs.
5. With --floor N, the floor: a second server runs bench/floor_app.py (one metric, one line),
   and N first views of each are timed in A B B A order (after one untimed view of each), the
   floor's until its metric shows and the running indicator is gone. The difference is what
   the dashboard adds to what any Streamlit page costs here.

The machine has 2 cores, and other work may share it: the load average is printed before each
part; the browser, the Streamlit server and DuckDB share those cores during a run. Exit 0
whatever the figures (a benchmark, not a test); 1 when the inputs, the build or the server fail.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")
DBT = os.path.join(ROOT, ".venv", "bin", "dbt")
APP = os.path.join(ROOT, "dashboard", "app.py")
FLOOR_APP = os.path.join(BENCH, "floor_app.py")
TABLES = ("chat_turn", "character_card", "topic_lexicon")
DEFAULT_WORK = "/tmp/card_keeper_dashboard_bench"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1100}
TARGETS = {"first_view": 3.0, "filter": 1.0}
WAIT_MS = 180_000

sys.path.insert(0, ROOT)

# The first view is done: the strip's metrics, a verdict row, the group labels reading
# `expected` (a list of strings), and no script run going on.
FIRST_VIEW_JS = """([name, expected]) => {
  const strip = document.querySelectorAll(
    '.st-key-summary_strip [data-testid="stMetricValue"]').length;
  const rows = [...document.querySelectorAll(
    '.st-key-verdict_rows [data-testid="stExpander"]')].filter(e => e.offsetParent !== null);
  if (strip < 4 || rows.length < 1) return false;
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  const group = [...document.querySelectorAll('[role="radiogroup"]')].find(
    g => g.getAttribute('aria-label') === name);
  if (!group) return false;
  const labels = [...group.querySelectorAll('[role="radio"]')].map(r => r.innerText.trim());
  return labels.length === expected.length && labels.every((l, i) => l === expected[i]);
}"""
# The script run is over and the group labels read `expected` (a list of strings).
GROUPS_JS = """([name, expected]) => {
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  const group = [...document.querySelectorAll('[role="radiogroup"]')].find(
    g => g.getAttribute('aria-label') === name);
  if (!group) return false;
  const labels = [...group.querySelectorAll('[role="radio"]')].map(r => r.innerText.trim());
  return labels.length === expected.length && labels.every((l, i) => l === expected[i]);
}"""
READ_GROUPS_JS = """(name) => {
  const group = [...document.querySelectorAll('[role="radiogroup"]')].find(
    g => g.getAttribute('aria-label') === name);
  return group ? [...group.querySelectorAll('[role="radio"]')].map(r => r.innerText.trim()) : null;
}"""


def log(msg: str = "") -> None:
    print(msg, flush=True)


def loud(msg: str) -> None:
    bar = "!" * 78
    print(f"\n{bar}\n{msg}\n{bar}\n", file=sys.stderr, flush=True)


def load_avg() -> str:
    return "load avg " + " ".join(f"{x:.2f}" for x in os.getloadavg())


# --------------------------------------------------------------------------- inputs and build
def key_of(a) -> str:
    return f"{a.mix}_t{a.turns}_m{a.terms}_k{a.characters}_s{a.seed}"


def inputs(a) -> dict:
    """bench/generate.py's JSON Lines files in WORK/inputs_<key>/ (kept with --reuse)."""
    d = os.path.join(a.work, f"inputs_{key_of(a)}")
    paths = {t: os.path.join(d, f"{t}.jsonl") for t in TABLES}
    if a.reuse and os.path.exists(os.path.join(d, "complete")):
        log(f"inputs: reused {d}")
        return paths
    tmp = d + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [
        sys.executable,
        os.path.join(BENCH, "generate.py"),
        *("--turns", str(a.turns), "--terms", str(a.terms)),
        *("--characters", str(a.characters), "--seed", str(a.seed)),
        *("--format", "jsonl", "--mix", a.mix, "--out", tmp),
    ]
    log(f"inputs: generating {a.turns:,} turns ({a.mix}) -> {d} ({load_avg()})")
    t0 = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        loud(f"generate.py failed ({res.returncode}):\n{res.stderr[-3000:]}")
        sys.exit(1)
    open(os.path.join(tmp, "complete"), "w").close()
    shutil.rmtree(d, ignore_errors=True)
    os.rename(tmp, d)
    log(f"  generated in {time.perf_counter() - t0:.1f} s")
    return paths


def build(a, paths: dict) -> str:
    """bench/run.py's production build into WORK/build_<key>/card_keeper.duckdb."""
    work = os.path.join(a.work, f"build_{key_of(a)}")
    db = os.path.join(work, "card_keeper.duckdb")
    if a.reuse and os.path.exists(os.path.join(work, "complete")):
        log(f"database: reused {db}")
        return db
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    dbt_vars = {
        "input_chat_turn": paths["chat_turn"],
        "input_character_card": paths["character_card"],
        "input_topic_lexicon": paths["topic_lexicon"],
        "export_path": os.path.join(work, "turn_verdicts.json"),
    }
    cmd = [
        DBT,
        "build",
        *("--exclude-resource-type", "unit_test"),
        *("--project-dir", ROOT, "--profiles-dir", ROOT),
        *("--target-path", os.path.join(work, "target")),
        *("--log-path", os.path.join(work, "logs")),
        "--no-use-colors",
        *("--vars", json.dumps(dbt_vars, ensure_ascii=False)),
    ]
    env = dict(os.environ, CARD_KEEPER_DB=db, DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    log(f"dbt build -> {db} ({load_avg()}) ...")
    t0 = time.perf_counter()
    with open(os.path.join(work, "dbt.log"), "wb") as out:
        rc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - t0
    rr_path = os.path.join(work, "target", "run_results.json")
    results = json.load(open(rr_path))["results"] if os.path.exists(rr_path) else []
    bad = [r for r in results if r["status"] not in {"success", "pass", "warn", "no-op"}]
    # A failing data test leaves every table built: the screen can still be timed.
    if rc != 0 and not (bad and all(r["unique_id"].startswith("test.") for r in bad)):
        with open(os.path.join(work, "dbt.log"), encoding="utf-8", errors="replace") as f:
            loud(f"dbt build FAILED (rc {rc}); last lines of {work}/dbt.log:\n{f.read()[-3000:]}")
        sys.exit(1)
    if bad:
        loud("dbt data tests failed (timing the screen anyway): " + ", ".join(
            r["unique_id"] for r in bad
        ))  # fmt: skip
    open(os.path.join(work, "complete"), "w").close()
    log(f"  built in {wall:.1f} s ({os.path.getsize(db) / 2**20:,.0f} MB)")
    return db


# --------------------------------------------------------------------------- the database's answers
def expected_state(database: str) -> dict:
    """The models, characters and verdict counts the screen must show, read from the marts."""
    import duckdb

    from dashboard import texts
    from dashboard.safe import plain_ident

    con = duckdb.connect(database, read_only=True)
    try:

        def counts(where: str = "", params: tuple = ()) -> list[str]:
            found = dict(
                con.execute(
                    f"select verdict, count(*) from marts.fct_turn_verdicts {where}"
                    " group by verdict",
                    list(params),
                ).fetchall()
            )
            return [
                texts.GROUP_OPTION.format(verdict=v, count=found.get(v, 0)) for v in texts.VERDICTS
            ]

        turns = con.execute("select count(*) from marts.fct_turn_verdicts").fetchone()[0]
        models = [
            m for (m,) in con.execute(
                "select distinct model_id from marts.fct_turn_verdicts order by model_id"
            ).fetchall()
        ]  # fmt: skip
        cards = con.execute(
            "select character_id, name from marts.dim_character_cards order by character_id"
        ).fetchall()
        return {
            "turns": turns,
            "all": counts(),
            "models": [(m, plain_ident(m), counts("where model_id = ?", (m,))) for m in models],
            # A few characters are enough: the runs take turns over them.
            "characters": [
                (
                    c,
                    f"{plain_ident(c)} · {plain_ident(n)}",
                    counts("where character_id = ?", (c,)),
                )
                for c, n in cards[:8]
            ],
        }
    finally:
        con.close()


# --------------------------------------------------------------------------- server
@contextlib.contextmanager
def streamlit_server(
    database: str, work: str, app: str = APP, name: str = "server"
) -> Iterator[tuple[str, float]]:
    """Streamlit running `app` over `database`, uploads and reviews in empty folders of
    WORK/`name`; yields (url, seconds to healthy)."""
    from dashboard import serve

    server = os.path.join(work, name)
    shutil.rmtree(server, ignore_errors=True)
    for folder in ("uploads", "reviews"):
        os.makedirs(os.path.join(server, folder))
    env = {
        "CARD_KEEPER_DB": database,
        "CARD_KEEPER_UPLOADS": os.path.join(server, "uploads"),
        "CARD_KEEPER_REVIEWS": os.path.join(server, "reviews"),
    }
    t0 = time.perf_counter()
    try:
        with serve.streamlit(env, Path(server, "streamlit.log"), Path(app)) as url:
            yield url, time.perf_counter() - t0
    except serve.ServerDidNotStart as error:
        loud(str(error))
        sys.exit(1)


# --------------------------------------------------------------------------- browser
def exception_text(page) -> str | None:
    found = page.locator('[data-testid="stException"]')
    return found.first.inner_text()[:500] if found.count() else None


def idle(page) -> None:
    """Untimed: wait until no script run is going on."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=WAIT_MS
    )


def first_view(page, url: str, expected: list[str]) -> float:
    from dashboard import texts

    t0 = time.perf_counter()
    page.goto(url)
    try:
        page.wait_for_function(
            FIRST_VIEW_JS, arg=[texts.GROUPS, expected], polling="raf", timeout=WAIT_MS
        )
    except Exception as error:
        shown = page.evaluate(READ_GROUPS_JS, texts.GROUPS)
        raise RuntimeError(f"first view: labels {shown}, expected {expected}") from error
    return time.perf_counter() - t0


def filter_change(page, key_prefix: str, option: str, expected: list[str]) -> float:
    """Open the selectbox (untimed), then time the click on `option` until the labels match."""
    from dashboard import texts

    idle(page)
    page.locator(f'[class*="st-key-{key_prefix}"]').first.click()
    choice = page.get_by_role("option", name=option, exact=True)
    choice.wait_for(timeout=WAIT_MS)
    t0 = time.perf_counter()
    choice.click()
    try:
        page.wait_for_function(
            GROUPS_JS, arg=[texts.GROUPS, expected], polling="raf", timeout=60_000
        )
    except Exception as error:
        shown = page.evaluate(READ_GROUPS_JS, texts.GROUPS)
        raise RuntimeError(f"labels {shown} never became {expected}") from error
    return time.perf_counter() - t0


def one_run(browser, url: str, state: dict, index: int) -> dict:
    """One fresh browser context: the first view and three filter changes."""

    model, model_option, model_counts = state["models"][index % len(state["models"])]
    character, character_option, character_counts = state["characters"][
        index % len(state["characters"])
    ]
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.dismiss())
    out = {"model": model, "character": character}
    try:
        out["first_view"] = first_view(page, url, state["all"])
        out["filter_model"] = filter_change(page, "filter_model_", model_option, model_counts)
        out["filter_all"] = filter_change(page, "filter_model_", "전체", state["all"])
        out["filter_character"] = filter_change(
            page, "filter_character_", character_option, character_counts
        )
        idle(page)
        error = exception_text(page)
        if error:
            raise RuntimeError(f"the screen shows an exception: {error}")
    except Exception as error:
        out["error"] = f"{type(error).__name__}: {error}"[:800]
    finally:
        context.close()
    return out


FLOOR_JS = """() => document.querySelectorAll('[data-testid="stMetricValue"]').length >= 1
    && !document.querySelector('[data-testid="stStatusWidget"]')"""


def floor_runs(url: str, floor_url: str, state: dict, pairs: int) -> dict[str, list[float]]:
    """The dashboard's first view beside bench/floor_app.py's, in A B B A order (`pairs` of each
    after one untimed run of both), each in a fresh browser context: what Streamlit's page,
    script run and messages cost with nothing of the dashboard in them."""
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {"dashboard": [], "floor": []}
    order = ["dashboard", "floor"] + [
        "dashboard" if i % 4 in (0, 3) else "floor" for i in range(2 * pairs)
    ]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for index, kind in enumerate(order):
                context = browser.new_context(viewport=VIEWPORT)
                page = context.new_page()
                try:
                    if kind == "dashboard":
                        seconds = first_view(page, url, state["all"])
                    else:
                        t0 = time.perf_counter()
                        page.goto(floor_url)
                        page.wait_for_function(FLOOR_JS, polling="raf", timeout=WAIT_MS)
                        seconds = time.perf_counter() - t0
                finally:
                    context.close()
                if index >= 2:
                    times[kind].append(seconds)
                log(f"  {kind}: {seconds:.2f}s ({load_avg()})")
        finally:
            browser.close()
    return times


def browser_runs(url: str, state: dict, repeats: int) -> list[dict]:
    from playwright.sync_api import sync_playwright

    runs = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for index in range(repeats + 1):
                label = "cold" if index == 0 else f"warm {index}"
                run = one_run(browser, url, state, index)
                run["label"] = label
                runs.append(run)
                figures = ", ".join(
                    f"{k} {run[k]:.2f}s"
                    for k in ("first_view", "filter_model", "filter_all", "filter_character")
                    if k in run
                )
                failed = f"  FAILED: {run['error']}" if "error" in run else ""
                log(f"  {label}: {figures} ({load_avg()}){failed}")
        finally:
            browser.close()
    return runs


# --------------------------------------------------------------------------- the queries
def med_max(times: list[float]) -> tuple[float, float]:
    return statistics.median(times), max(times)


def time_queries(database: str, state: dict, repeats: int) -> list[tuple[str, str, float, float]]:
    """The first view's dashboard.db calls (and a model filter's), each timed `repeats` times
    on one read-only connection: (part, call, median s, max s). A Batch remembers overview()
    and verdict_counts() for its connection's life (one script run): their first asking is
    timed on a fresh Batch each time, and "(again)" marks the remembered answer."""
    import duckdb

    from dashboard import db, reviews, verdict_list

    model = state["models"][0][0]
    no_filter: dict = {"model_id": None, "character_id": None}
    filters: dict = {**no_filter, "session_id": None, "skipped_check": None, "search": None}
    by_model = {**filters, "model_id": model}

    def connect() -> None:
        duckdb.connect(database, read_only=True).close()

    # Timed while no other connection is open: a second connection to a database the process
    # already holds open reuses its instance, which the screen's short-lived connections don't.
    opened = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        connect()
        opened.append(time.perf_counter() - t0)
    con = duckdb.connect(database, read_only=True)
    batch = db.Batch(con)
    batch.has("marts.fct_turn_verdicts")  # the table list is read once a connection
    batch.overview()  # asked by the header first: the strip's asking is the remembered one
    counts = batch.verdict_counts(filters)
    group = verdict_list.largest_deviation_group(counts)
    folder = reviews.folder_for(database)
    calls: list[tuple[str, str, Callable[[], object]]] = [
        ("connection", "has(): information_schema.tables", lambda: db.Batch(con).has("x.y")),
        ("sidebar", "latest_test_results()", batch.latest_test_results),
        ("header", "verdict_words()", batch.verdict_words),
        ("header", "overview()", lambda: db.Batch(con).overview()),
        ("header", "input_files()", batch.input_files),
        ("strip", "overview() (again)", batch.overview),
        ("strip", "verdict_counts({})", lambda: db.Batch(con).verdict_counts({})),
        ("strip", "model_rates()", batch.model_rates),
        ("strip", "latest_test_results() (again)", batch.latest_test_results),
        ("strip", "quarantine_count()", batch.quarantine_count),
        ("list", "models()", batch.models),
        ("list", "characters()", batch.characters),
        ("list", "sessions(no filter, 500)", lambda: batch.sessions(no_filter, 500)),
        ("list", "skipped_codes()", batch.skipped_codes),
        ("list", "verdict_counts(no filter) (again)", lambda: batch.verdict_counts(filters)),
        ("list", f"verdict_page({group}, p1)", lambda: batch.verdict_page(group, filters, 1, 20)),
        ("list", "reviews.latest_marks()", lambda: reviews.latest_marks(folder)),
        ("list", "batch_path()", lambda: verdict_list.batch_path(batch)),
        ("model filter", "sessions(model, 500)", lambda: batch.sessions(by_model, 500)),
        ("model filter", "verdict_counts(model)", lambda: db.Batch(con).verdict_counts(by_model)),
        (
            "model filter",
            f"verdict_page({group}, model, p1)",
            lambda: batch.verdict_page(group, by_model, 1, 20),
        ),
    ]
    out = [("connection", "duckdb.connect(read_only=True) + close", *med_max(opened))]
    try:
        for part, name, call in calls:
            times = []
            for _ in range(repeats):
                t0 = time.perf_counter()
                call()
                times.append(time.perf_counter() - t0)
            out.append((part, name, *med_max(times)))
    finally:
        con.close()
    return out


# --------------------------------------------------------------------------- the script alone
def script_runs(database: str, work: str, repeats: int) -> dict:
    """The app's script run without a browser or a server (streamlit.testing AppTest, in this
    process): one cold run, `repeats` warm ones, the last under cProfile (the profiler is
    started inside Streamlit's script thread). Returns the walls and the profile's dashboard/
    functions by cumulative time."""
    import cProfile
    import pstats

    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.testing.v1 import AppTest

    folder = os.path.join(work, "apptest")
    shutil.rmtree(folder, ignore_errors=True)
    for name in ("uploads", "reviews"):
        os.makedirs(os.path.join(folder, name))
    os.environ.update(
        CARD_KEEPER_DB=database,
        CARD_KEEPER_UPLOADS=os.path.join(folder, "uploads"),
        CARD_KEEPER_REVIEWS=os.path.join(folder, "reviews"),
    )
    original = script_runner.exec_func_with_error_handling
    profile: list = []

    def profiled(func, ctx):
        if not profile:
            return original(func, ctx)
        profile[0].enable()
        try:
            return original(func, ctx)
        finally:
            profile[0].disable()

    script_runner.exec_func_with_error_handling = profiled
    walls, errors = [], []
    try:
        for index in range(repeats + 1):
            if index == repeats:
                profile.append(cProfile.Profile())
            app = AppTest.from_file(APP, default_timeout=WAIT_MS / 1000)
            t0 = time.perf_counter()
            app.run()
            walls.append(time.perf_counter() - t0)
            errors += [e.value for e in app.exception]
    finally:
        script_runner.exec_func_with_error_handling = original
    stats = pstats.Stats(profile[0])
    rows = []
    for (path, line, name), (_, _, _, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        if os.sep + "dashboard" + os.sep in path and path.startswith(ROOT):
            rows.append((cumulative, f"{os.path.relpath(path, ROOT)}:{line} {name}"))
    rows.sort(reverse=True)
    return {"cold": walls[0], "warm": walls[1:], "top": rows[:18], "errors": errors[:3]}


# --------------------------------------------------------------------------- report
MEASURES = (
    ("first_view", "first view (goto -> strip, rows, idle)", "first_view"),
    ("filter_model", "filter: model 전체 -> one model", "filter"),
    ("filter_all", "filter: model -> 전체", "filter"),
    ("filter_character", "filter: character 전체 -> one", "filter"),
)


def report(runs: list[dict], queries: list, script: dict | None, meta: dict) -> None:
    cold, warm = runs[0], runs[1:]
    ok = [r for r in warm if "error" not in r]
    print("\n" + "=" * 100)
    print(f"DASHBOARD TIMING  {meta['database']}  ({meta['turns']:,} turns)")
    print(
        f"{meta['date']}  git {meta['git']}  {meta['cpus']} cores  server healthy after "
        f"{meta['server_s']:.1f} s  {meta['load']}"
    )
    head = ["measurement", "cold", *[f"warm {i}" for i in range(1, len(warm) + 1)]]
    head += ["median warm", "target", "result"]
    rows = []
    for key, label, target_key in MEASURES:
        target = TARGETS[target_key]
        values = [r.get(key) for r in warm]
        good = [v for v in values if v is not None]
        median = statistics.median(good) if good else None
        result = "n/a" if median is None else ("met" if median < target else "MISSED")
        rows.append(
            [
                label,
                *(f"{v:.2f}" if v is not None else "fail" for v in (cold.get(key), *values)),
                f"{median:.2f}" if median is not None else "-",
                f"< {target:.0f} s",
                result,
            ]
        )
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]
    line = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    print(line.format(*head))
    for row in rows:
        print(line.format(*row))
    chosen = ", ".join(f"{r['label']}: {r['model']} / {r['character']}" for r in runs)
    print(f"(seconds; the model / character of each run: {chosen})")
    for r in runs:
        if "error" in r:
            print(f"  {r['label']} FAILED: {r['error']}")
    if len(ok) < len(warm):
        print(f"  {len(warm) - len(ok)} of {len(warm)} warm runs failed: medians over the rest")
    if queries:
        print("\nWHERE THE TIME GOES: dashboard.db calls of the first view and a model filter,"
              " direct on DuckDB (median / max s)")  # fmt: skip
        total: dict[str, float] = {}
        for part, name, med, top in queries:
            print(f"  {part:<13} {name:<48} {med:8.3f} {top:8.3f}")
            total[part] = total.get(part, 0.0) + med
        print("  sums: " + ", ".join(f"{p} {s:.3f}" for p, s in total.items()))
    if script:
        warm_walls = ", ".join(f"{w:.2f}" for w in script["warm"])
        print(
            "\nTHE SCRIPT RUN ALONE (AppTest, no browser, no server): cold "
            f"{script['cold']:.2f} s, warm {warm_walls} (median "
            f"{statistics.median(script['warm']):.2f} s)"
        )
        for error in script["errors"]:
            print(f"  exception in the script: {str(error)[:300]}")
        print("  the last warm run under cProfile, dashboard/ functions by cumulative s:")
        for cumulative, where in script["top"]:
            print(f"  {cumulative:8.3f}  {where}")
    if meta.get("floor"):
        print("\nTHE FLOOR: first views of the dashboard and of bench/floor_app.py, A B B A")
        for kind, times in meta["floor"].items():
            runs = ", ".join(f"{t:.2f}" for t in times)
            print(f"  {kind:<9} {runs}  (median {statistics.median(times):.2f} s)")
    print("=" * 100)


def git_commit() -> str:
    res = subprocess.run(
        ["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    dirty = subprocess.run(
        ["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return res.stdout.strip() + ("+dirty" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--turns", type=int, default=1_000_000)
    ap.add_argument("--terms", type=int, default=5000)
    ap.add_argument("--characters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--mix", default="typical", choices=["typical", "deviant"])
    ap.add_argument("--work", default=DEFAULT_WORK, help=f"cache folder (default {DEFAULT_WORK})")
    ap.add_argument(
        "--reuse", action="store_true", help="keep inputs and a database made with these parameters"
    )
    ap.add_argument("--database", help="time this database (no inputs, no build)")
    ap.add_argument("--repeats", type=int, default=5, help="warm runs after the cold one")
    ap.add_argument(
        "--query-repeats", type=int, default=5, help="times each query is run (0: no breakdown)"
    )
    ap.add_argument(
        "--script-repeats",
        type=int,
        default=3,
        help="warm AppTest runs of the script alone, the last profiled (0: none)",
    )
    ap.add_argument(
        "--floor",
        type=int,
        default=0,
        help="first views of the dashboard and of bench/floor_app.py, this many of each, A B B A",
    )
    a = ap.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        loud(f"{CHROMIUM} is missing: run `make system-packages`")
        return 1
    a.work = os.path.abspath(a.work)
    os.makedirs(a.work, exist_ok=True)
    log(f"dashboard timing ({load_avg()}, {os.cpu_count()} cores)")
    if a.database:
        database = os.path.abspath(a.database)
        if not os.path.exists(database):
            loud(f"no database at {database}")
            return 1
    else:
        database = build(a, inputs(a))
    state = expected_state(database)
    log(f"database: {state['turns']:,} turns, models {[m for m, _, _ in state['models']]}")
    with streamlit_server(database, a.work) as (url, server_s):
        log(f"streamlit on {url}, healthy after {server_s:.1f} s; browser runs ({load_avg()})")
        runs = browser_runs(url, state, a.repeats)
        floor = None
        if a.floor > 0:
            with streamlit_server(database, a.work, FLOOR_APP, "floor") as (floor_url, _):
                log(f"the floor on {floor_url}: first views A B B A ({load_avg()})")
                floor = floor_runs(url, floor_url, state, a.floor)
    queries = []
    if a.query_repeats > 0:
        log(f"timing the first view's queries ({load_avg()}) ...")
        queries = time_queries(database, state, a.query_repeats)
    script = None
    if a.script_repeats > 0:
        log(f"the script run alone, AppTest ({load_avg()}) ...")
        script = script_runs(database, a.work, a.script_repeats)
    meta = {
        "database": database,
        "turns": state["turns"],
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "git": git_commit(),
        "cpus": os.cpu_count(),
        "server_s": server_s,
        "load": load_avg(),
        "floor": floor,
    }
    report(runs, queries, script, meta)
    return 0


if __name__ == "__main__":
    if os.path.exists(VENV_PY) and os.path.realpath(sys.prefix) != os.path.realpath(
        os.path.join(ROOT, ".venv")
    ):
        os.execv(VENV_PY, [VENV_PY, os.path.abspath(__file__), *sys.argv[1:]])
    sys.exit(main())
