"""Setup: a copied checkout (cp -r, then make build) gets its own virtualenv, so it never reads
or writes the original checkout's database and export through the old venv's paths."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import PROJECT_ROOT, copy_project


def fake_venv(project: Path, venv_owner: Path) -> Path:
    """A .venv whose scripts name `venv_owner`'s venv, as `cp -r` leaves them."""
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "pip").write_text(f"#!{venv_owner}/.venv/bin/python3\nimport pip\n", "utf-8")
    return project / ".venv"


def make(project: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(project), *arguments],
        capture_output=True,
        text=True,
        check=False,
    )


def test_copied_checkout_makes_its_own_venv(tmp_path):
    copy = copy_project(tmp_path / "copy")
    venv = fake_venv(copy, PROJECT_ROOT)
    (venv / ".installed-0123456789ab").touch()

    checked = make(copy, "venv-location")
    assert checked.returncode == 0, checked.stderr
    assert "belongs to another folder" in checked.stdout
    assert not venv.exists()

    # The copy's stamp names its own folder, so `make build` installs anew there.
    planned = make(copy, "-n", "build")
    assert "python3 -m venv .venv" in planned.stdout
    assert "pip install" in planned.stdout


def test_venv_made_here_is_kept(tmp_path):
    copy = copy_project(tmp_path / "copy")
    venv = fake_venv(copy, copy)
    checked = make(copy, "venv-location")
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout == ""
    assert venv.exists()


def test_dbt_runner_leaves_its_host_interpreter_alone(tmp_path):
    """dbt run in-process (an orchestrator, pytest) loads the plugin and UDFs without
    changing its host: the collector, frozen objects, sys.exit and exit handlers as they were."""
    import json
    import os
    import sys

    probe = f"""
import atexit, gc, json, sys
before = [gc.get_threshold(), gc.get_freeze_count(), sys.exit is sys.__dict__['exit']]
exit_function = sys.exit
from dbt.cli.main import dbtRunner
result = dbtRunner().invoke([
    "show", "--inline", "select ck_tone('알겠어요.', '.', ['요'], [true]) as tone",
    "--project-dir", {str(PROJECT_ROOT)!r}, "--profiles-dir", {str(PROJECT_ROOT)!r},
    "--target-path", {str(tmp_path / "target")!r}, "--log-path", {str(tmp_path / "logs")!r},
])
after = [gc.get_threshold(), gc.get_freeze_count(), sys.exit is sys.__dict__['exit']]
print(json.dumps({{"ok": result.success, "before": before, "after": after,
                  "same_exit": sys.exit is exit_function}}))
"""
    process = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "CARD_KEEPER_DB": str(tmp_path / "host.duckdb")},
        cwd=tmp_path,
    )
    report = json.loads(process.stdout.strip().splitlines()[-1])
    assert report["ok"], process.stdout[-3000:]
    assert report["before"] == report["after"]
    assert report["same_exit"]
