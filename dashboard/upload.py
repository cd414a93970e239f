"""An analyst's own files: validate, save under a fresh uploads/<id>/ folder, build them there.

The build is the same dbt project run as a subprocess with CARD_KEEPER_DB pointing at
uploads/<id>/card_keeper.duckdb and its own target / log folders, so the demo database and
any other build are never touched. Nothing here imports Streamlit.

uploads/ does not grow without end: a failed build's folder is removed (`remove`), and after
each successful build only the newest CARD_KEEPER_UPLOADS_KEEP finished uploads (default 5) are
kept (`prune`). Only folders named like an upload id are ever removed, and `prune` skips a
folder whose build has not finished (no dbt_output.log yet).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from dashboard import texts

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DBT = Path(sys.executable).parent / "dbt"
REQUIRED = ("chat_turn", "character_card", "topic_lexicon")
OPTIONAL = ("golden_labels",)
EXTENSIONS = (".csv", ".jsonl", ".ndjson", ".json", ".parquet")
BUILD_TIMEOUT_SECONDS = 1800
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_VAR_LINE = re.compile(r"^\s*(input_\w+:.*\S)\s*$")
# new_upload_id(): UTC date and time, then six hex digits.
UPLOAD_ID = re.compile(r"^\d{8}-\d{6}-[0-9a-f]{6}$")
DEFAULT_KEEP = 5
BUILD_LOG = "dbt_output.log"
# What an upload was: its files' own names and when it was made (written by save, read by the
# sidebar's list, so uploads persist across reloads and browser sessions).
MANIFEST = "upload.json"
# dbt's progress lines: "  12 of 250 OK created sql table model marts.fct_turn_verdicts …".
_PROGRESS = re.compile(r"\b(\d+) of (\d+) (START|OK|PASS|WARN|ERROR|FAIL|SKIP|NO-OP)\b\s*(.*)")


def uploads_dir() -> Path:
    """uploads/ at the project root (gitignored), or CARD_KEEPER_UPLOADS."""
    path = Path(os.environ.get("CARD_KEEPER_UPLOADS", "uploads"))
    return path if path.is_absolute() else PROJECT_ROOT / path


def max_upload_mb() -> int:
    return int(os.environ.get("CARD_KEEPER_UPLOAD_MAX_MB", "200"))


def keep_uploads() -> int:
    """How many finished uploads to keep: CARD_KEEPER_UPLOADS_KEEP, default 5, at least 1."""
    try:
        return max(1, int(os.environ.get("CARD_KEEPER_UPLOADS_KEEP", DEFAULT_KEEP)))
    except ValueError:
        return DEFAULT_KEEP


def upload_folders(root: Path | None = None) -> list[Path]:
    """The upload folders under root (uploads_dir()), oldest first (ids start with the time)."""
    base = root or uploads_dir()
    if not base.is_dir():
        return []
    return sorted(
        (entry for entry in base.iterdir() if entry.is_dir() and UPLOAD_ID.match(entry.name)),
        key=lambda entry: entry.name,
    )


def remove(folder: Path, root: Path | None = None) -> bool:
    """Delete one upload folder; refuses (False) anything that is not uploads/<upload id>."""
    base = (root or uploads_dir()).resolve()
    folder = Path(folder)
    if not UPLOAD_ID.match(folder.name) or folder.resolve().parent != base:
        return False
    if folder.is_symlink() or not folder.is_dir():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return not folder.exists()


def prune(keep: int | None = None, root: Path | None = None) -> list[Path]:
    """Remove all but the newest `keep` finished uploads; returns the folders removed."""
    keep = keep_uploads() if keep is None else max(1, keep)
    finished = [folder for folder in upload_folders(root) if (folder / BUILD_LOG).exists()]
    removed = []
    for folder in finished[: max(len(finished) - keep, 0)]:
        if remove(folder, root):
            removed.append(folder)
    return removed


@dataclass
class Progress:
    """Where a running build is: nodes finished of all, seconds since it started, the last node."""

    done: int = 0
    total: int = 0
    elapsed: float = 0.0
    node: str = ""


@dataclass
class Upload:
    """A finished upload on disk, as the sidebar lists it."""

    upload_id: str
    folder: Path
    database: Path
    files: dict[str, str]
    created_at: str


@dataclass
class Incoming:
    """One uploaded file as the screen received it."""

    table: str
    name: str
    data: bytes


@dataclass
class BuildResult:
    ok: bool
    upload_id: str
    folder: Path
    database: Path
    export: Path
    key_line: str = ""
    log_tail: str = ""
    failed_tests: int = 0
    problems: list[str] = field(default_factory=list)


def extension_of(name: str) -> str:
    lowered = name.lower()
    return next((ext for ext in EXTENSIONS if lowered.endswith(ext)), "")


def validate(files: dict[str, Incoming | None]) -> list[str]:
    """Problems that stop the build before it starts: missing file, extension, size, empty."""
    problems = []
    limit_mb = max_upload_mb()
    for table in (*REQUIRED, *OPTIONAL):
        incoming = files.get(table)
        if incoming is None:
            if table in REQUIRED:
                problems.append(texts.UPLOAD_MISSING.format(field=table))
            continue
        if not extension_of(incoming.name):
            problems.append(
                texts.UPLOAD_BAD_EXTENSION.format(
                    field=table, name=incoming.name, allowed=", ".join(EXTENSIONS)
                )
            )
        size = len(incoming.data)
        if size == 0:
            problems.append(texts.UPLOAD_EMPTY_FILE.format(field=table, name=incoming.name))
        elif size > limit_mb * 1024 * 1024:
            problems.append(
                texts.UPLOAD_TOO_BIG.format(
                    field=table, name=incoming.name, size_mb=size / 1048576, limit_mb=limit_mb
                )
            )
    return problems


def new_upload_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def save(files: dict[str, Incoming | None], root: Path | None = None) -> tuple[str, Path]:
    """Write the files as <table><ext> into a fresh folder; the user's file name is not a path."""
    upload_id = new_upload_id()
    folder = (root or uploads_dir()) / upload_id
    folder.mkdir(parents=True, exist_ok=False)
    for table, incoming in files.items():
        if incoming is not None:
            (folder / f"{table}{extension_of(incoming.name)}").write_bytes(incoming.data)
    manifest = {
        "upload_id": upload_id,
        "created_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "files": {table: incoming.name for table, incoming in files.items() if incoming},
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    return upload_id, folder


def finished_uploads(root: Path | None = None) -> list[Upload]:
    """Uploads whose build finished with a database, newest first, with their files' names."""
    found = []
    for folder in reversed(upload_folders(root)):
        database = folder / "card_keeper.duckdb"
        if not (folder / BUILD_LOG).exists() or not database.exists():
            continue
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            manifest = {}
        found.append(
            Upload(
                folder.name,
                folder,
                database,
                dict(manifest.get("files") or {}),
                str(manifest.get("created_at") or folder.name[:15]),
            )
        )
    return found


def dbt_command(folder: Path) -> list[str]:
    dbt_vars = {
        "export_path": str(folder / "turn_verdicts.json"),
        "reviews_dir": str(folder / "reviews"),
    }
    for table in (*REQUIRED, *OPTIONAL):
        found = sorted(folder.glob(f"{table}.*"))
        if found:
            dbt_vars[f"input_{table}"] = str(found[0])
    return [
        str(DBT),
        "build",
        "--project-dir",
        str(PROJECT_ROOT),
        "--profiles-dir",
        str(PROJECT_ROOT),
        "--target-path",
        str(folder / "target"),
        "--log-path",
        str(folder / "logs"),
        "--vars",
        json.dumps(dbt_vars, ensure_ascii=False),
    ]


def key_line(output: str) -> str:
    """The line of dbt's output that names the problem (an `input_…: …` line when there is one)."""
    lines = [_ANSI.sub("", line).rstrip() for line in output.splitlines()]
    lines = [re.sub(r"^\S*\d\d:\d\d:\d\d\s+", "", line) for line in lines]
    for line in lines:
        match = _VAR_LINE.match(line)
        if match:
            return match.group(1)
    for index, line in enumerate(lines):
        if re.search(r"(Compilation|Runtime|Database|Parsing) Error", line):
            following = [rest.strip() for rest in lines[index + 1 : index + 4] if rest.strip()]
            return following[0] if following else line.strip()
    errors = [line.strip() for line in lines if "error" in line.lower()]
    if errors:
        return errors[0]
    tail = [line.strip() for line in lines if line.strip()]
    return tail[-1] if tail else "dbt 가 아무것도 출력하지 않았습니다."


def _failures(target: Path) -> tuple[int, int]:
    """(non-test nodes that errored, tests that failed) from the build's run_results.json."""
    results = target / "run_results.json"
    if not results.exists():
        return -1, 0
    node_errors = failed_tests = 0
    for result in json.loads(results.read_text(encoding="utf-8")).get("results", []):
        unique_id = result.get("unique_id", "")
        status = result.get("status")
        if unique_id.startswith(("test.", "unit_test.")):
            failed_tests += status in ("fail", "error")
        elif status == "error":
            node_errors += 1
    return node_errors, failed_tests


def run_streaming(
    command: list[str],
    cwd: Path,
    env: dict[str, str],
    on_progress: Callable[[Progress], None] | None = None,
    timeout: float = BUILD_TIMEOUT_SECONDS,
) -> tuple[int | None, str]:
    """Run dbt, reporting each progress line as it comes; (return code or None on timeout,
    the whole output)."""
    started = time.monotonic()
    progress = Progress()
    lines: list[str] = []
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        match = _PROGRESS.search(_ANSI.sub("", line))
        if match:
            number, total, status, rest = match.groups()
            progress.total = int(total)
            if status != "START":
                progress.done = max(progress.done, int(number))
            progress.node = rest.split(" [")[0].strip(" .")
        progress.elapsed = time.monotonic() - started
        if on_progress is not None and match:
            on_progress(progress)
        if progress.elapsed > timeout:
            process.kill()
            process.wait()
            return None, "".join(lines)
    return process.wait(), "".join(lines)


def build_env(database: Path) -> dict[str, str]:
    return {
        **os.environ,
        "CARD_KEEPER_DB": str(database),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "0",
        "DBT_USE_COLORS": "false",
    }


def build(
    folder: Path, upload_id: str, on_progress: Callable[[Progress], None] | None = None
) -> BuildResult:
    """Run dbt build on the saved files into folder/card_keeper.duckdb."""
    database = folder / "card_keeper.duckdb"
    result = BuildResult(False, upload_id, folder, database, folder / "turn_verdicts.json")
    returncode, output = run_streaming(
        dbt_command(folder), folder, build_env(database), on_progress
    )
    if returncode is None:
        result.key_line = f"dbt build 가 {BUILD_TIMEOUT_SECONDS}초 안에 끝나지 않았습니다."
        return result
    (folder / BUILD_LOG).write_text(output, encoding="utf-8")
    return _judge(result, returncode, output, folder / "target")


def rebuild(
    database: Path, reviews: Path, on_progress: Callable[[Progress], None] | None = None
) -> BuildResult:
    """Build the shown database again (an upload with its own files; any other database with
    the inputs the server was started with), reading the reviewers' decisions in `reviews`."""
    database = Path(database)
    folder = database.parent
    if folder.parent.resolve() == uploads_dir().resolve() and UPLOAD_ID.match(folder.name):
        command, workdir, target = dbt_command(folder), folder, folder / "target"
    else:
        workdir = folder
        target = PROJECT_ROOT / "target" if folder == PROJECT_ROOT else folder / "rebuild_target"
        command = [
            str(DBT),
            "build",
            "--project-dir",
            str(PROJECT_ROOT),
            "--profiles-dir",
            str(PROJECT_ROOT),
            "--target-path",
            str(target),
            "--vars",
            json.dumps({"reviews_dir": str(reviews)}, ensure_ascii=False),
        ]
    result = BuildResult(False, folder.name, folder, database, database)
    returncode, output = run_streaming(command, workdir, build_env(database), on_progress)
    if returncode is None:
        result.key_line = f"dbt build 가 {BUILD_TIMEOUT_SECONDS}초 안에 끝나지 않았습니다."
        return result
    return _judge(result, returncode, output, target)


def _judge(result: BuildResult, returncode: int, output: str, target: Path) -> BuildResult:
    result.log_tail = "\n".join(_ANSI.sub("", output).splitlines()[-40:])
    node_errors, failed_tests = _failures(target)
    result.failed_tests = failed_tests
    # A failing data test still leaves the marts built: show them, with the failed checks.
    result.ok = (
        result.database.exists() and node_errors == 0 and (returncode == 0 or failed_tests > 0)
    )
    if not result.ok:
        result.key_line = key_line(output)
    return result
