# Two commands set everything up on a fresh machine: `make build`, then `make test`.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
DBT := $(VENV)/bin/dbt
# The stamp names the lock, this Makefile and the folder: a copied checkout installs anew.
STAMP := $(VENV)/.installed-$(shell { cat requirements.txt Makefile pyproject.toml; echo "$(CURDIR)"; } \
	| sha1sum | cut -c1-12)
SYSTEM_PACKAGES := chromium fonts-nanum

.PHONY: build test lint system-packages dashboard docs report bench bench-dashboard lock clean \
	venv-location spark-setup test-spark

# The virtualenv: the pinned lock, then the project's own package (pyproject.toml: the dbt-duckdb
# plugin in python_udfs/ and the dashboard) in editable mode, so dbt imports the plugin from
# any directory.
$(STAMP): requirements.txt Makefile pyproject.toml | venv-location
	test -x $(PY) || python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	rm -f $(VENV)/lib/python3*/site-packages/card_keeper.pth  # an older setup's start-up file
	rm -f $(VENV)/.installed-* && touch $@

# A virtualenv copied or moved from another folder still runs that folder's Python, packages
# and project (its scripts' first lines name it): remove it, so the stamp's recipe makes one here.
venv-location:
	@case "$$(head -n 1 $(VENV)/bin/pip 2>/dev/null || echo absent)" in \
		absent | "#!$(CURDIR)/$(VENV)/bin/"*) ;; \
		*) echo "$(VENV) belongs to another folder: making it anew here"; rm -rf $(VENV) ;; \
	esac

## build: the demo end to end: venv, pinned dependencies, dbt build (seeds, models, tests, export).
build: $(STAMP)
	$(DBT) build

## test: every test: dbt build with data and unit tests, sqlfluff, ruff, pytest (every kind, one
## worker a core; a file's tests share a worker, so its fixtures are built once).
test: $(STAMP) system-packages
	$(DBT) build
	$(MAKE) --no-print-directory lint
	$(PY) -m pytest -n auto --dist loadfile -m "unit or e2e or browser or bench" --durations=10

lint: $(STAMP)
	$(VENV)/bin/sqlfluff lint --processes 0 models tests analyses macros  # one process a core
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Debian's chromium drives the dashboard tests; fonts-nanum renders Hangul in screenshots.
system-packages:
	@dpkg -s $(SYSTEM_PACKAGES) >/dev/null 2>&1 || { \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES); }

## dashboard: the Streamlit screen on 127.0.0.1:8501 over the demo build.
dashboard: $(STAMP)
	test -f card_keeper.duckdb || $(DBT) build
	$(VENV)/bin/streamlit run dashboard/app.py --server.address 127.0.0.1 --server.port 8501 \
		--server.headless true --browser.gatherUsageStats false

docs: $(STAMP)
	$(DBT) docs generate

## report: the evaluation runner's figures (golden agreement, per-model rates) from the build.
report: $(STAMP)
	test -f card_keeper.duckdb || $(DBT) build
	$(PY) scripts/evaluation_report.py

## bench: tone/lexicon SQL vs UDF, then the full-build benchmark with its targets.
bench: $(STAMP)
	$(PY) bench/udf_vs_sql.py
	$(PY) bench/run.py

## bench-dashboard: the screen at 1M turns timed in chromium (first view < 3 s, filter < 1 s);
## inputs and database cached in /tmp/card_keeper_dashboard_bench (ARGS="--reuse" keeps them).
bench-dashboard: $(STAMP) system-packages
	$(PY) bench/dashboard_timing.py $(ARGS)

## lock: re-pin requirements.txt from requirements.in in a throwaway venv.
lock:
	rm -rf /tmp/card_keeper_lock && python3 -m venv /tmp/card_keeper_lock
	/tmp/card_keeper_lock/bin/pip install --quiet -r requirements.in
	{ echo "# Pinned lock of requirements.in, made by 'make lock' (pip freeze of a fresh venv)."; \
	  /tmp/card_keeper_lock/bin/pip freeze; } > requirements.txt

clean:
	rm -rf target logs card_keeper.duckdb exports/turn_verdicts.json

# The Spark target's extras (requirements-spark.txt) in the same venv, and Java from Debian when
# the machine has none. The local warehouse and metastore live in spark/ (gitignored).
SPARK_STAMP := $(VENV)/.spark-installed-$(shell cat requirements-spark.txt | sha1sum | cut -c1-12)
export CARD_KEEPER_SPARK_DIR ?= $(CURDIR)/spark

$(SPARK_STAMP): requirements-spark.txt $(STAMP)
	@command -v java >/dev/null 2>&1 || { apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless; }
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-spark.txt
	rm -f $(VENV)/.spark-installed-* && touch $@

## spark-setup: pyspark and dbt-spark in the venv, Java when missing.
spark-setup: $(SPARK_STAMP)

# The input sets `make test-spark` builds on both engines: name, then the folder of its
# chat_turn.*, character_card.* and topic_lexicon.* files.
SPARK_COMPARE_SETS := demo:data/demo seed_000:tests/python/fixtures/seed_000 \
	bad_rows:tests/python/fixtures/bad_rows
SPARK_COMPARE_DIR := $(CURDIR)/target/spark-compare
# Compared too, beyond the four turn-level marts: every other mart a Spark build makes. The
# ignored columns say when or where a build ran, never what it judged.
SPARK_COMPARE_ARGS := $(foreach table,dim_character_cards fct_golden_agreement \
	fct_golden_agreement_summary fct_golden_disagreements fct_model_deviation_rates \
	fct_model_deviation_trend fct_model_pairwise_deviations fct_review_forbidden_sample \
	fct_review_off_canon_names verdict_history fct_deviation_rates_by_rule export_turn_verdicts,\
	--table $(table)) --ignore recorded_at --ignore first_recorded_at --ignore export_path \
	--ignore judged_by --ignore recorded_by

## test-spark: each input set built by DuckDB and by Spark, each into its own folder under
## target/spark-compare/<set>/ (database, Spark warehouse and metastore, target, logs, export),
## then scripts/compare_engines.py on the two, and Spark's export (merged from its .parts folder)
## byte for byte against DuckDB's and against the schema (tests/python/test_spark_export.py);
## fails if any build fails or anything differs. A failed build's log is shown without
## PySpark's one-line JSON copies of the error.
## Unit tests are left out of both builds: their fixtures are DuckDB SQL literals and `make test`
## runs them; here the models' rows are compared on real inputs.
test-spark: spark-setup
	@failed=""; exports=""; \
	for set in $(SPARK_COMPARE_SETS); do \
		name=$${set%%:*}; inputs=$(CURDIR)/$${set#*:}; work=$(SPARK_COMPARE_DIR)/$$name; \
		rm -rf "$$work" && mkdir -p "$$work"; \
		export CARD_KEEPER_CHAT_TURN=$$(ls "$$inputs"/chat_turn.*) \
			CARD_KEEPER_CHARACTER_CARD=$$(ls "$$inputs"/character_card.*) \
			CARD_KEEPER_TOPIC_LEXICON=$$(ls "$$inputs"/topic_lexicon.*) \
			CARD_KEEPER_GOLDEN_LABELS= CARD_KEEPER_LLM_SUMMARIES= \
			CARD_KEEPER_DB="$$work/card_keeper.duckdb" CARD_KEEPER_SPARK_DIR="$$work/spark"; \
		ok=1; \
		for target in dev spark; do \
			echo "== $$name: dbt build --target $$target (log: $$work/$$target.log)"; \
			if $(DBT) build --target $$target --exclude-resource-type unit_test \
				--target-path "$$work/target-$$target" \
				--log-path "$$work/logs-$$target" \
				--vars "{\"export_path\": \"$$work/$$target.turn_verdicts.json\"}" \
				> "$$work/$$target.log" 2>&1; then \
				grep -a "Done\. PASS=" "$$work/$$target.log" | tail -n 1; \
			else \
				ok=0; echo "   dbt build --target $$target FAILED; its last lines:"; \
				grep -av '^{"ts": ' "$$work/$$target.log" | tail -n 25 | cut -c1-300 \
					| sed 's/^/   /'; \
			fi; \
		done; \
		echo "== $$name: DuckDB against Spark"; \
		$(PY) scripts/compare_engines.py "$$work/card_keeper.duckdb" "$$work/spark" \
			$(SPARK_COMPARE_ARGS) || ok=0; \
		if cat "$$work"/spark.turn_verdicts.json.parts/part-* > "$$work/spark.turn_verdicts.json" \
			&& cmp "$$work/dev.turn_verdicts.json" "$$work/spark.turn_verdicts.json"; then \
			echo "export: Spark's file is byte-identical to DuckDB's"; \
			exports="$$exports $$work/spark.turn_verdicts.json"; \
		else ok=0; echo "export: Spark's file differs from DuckDB's or is missing: DIFFERENT"; fi; \
		[ $$ok = 1 ] || failed="$$failed $$name"; \
	done; \
	if [ -n "$$exports" ]; then \
		CARD_KEEPER_SPARK_EXPORTS="$$exports" $(PY) -m pytest -q -p no:cacheprovider -m spark \
			tests/python || failed="$$failed spark-pytest"; \
	fi; \
	if [ -n "$$failed" ]; then echo "test-spark: FAILED for$$failed"; exit 1; fi; \
	echo "test-spark: every input set identical on DuckDB and Spark"
