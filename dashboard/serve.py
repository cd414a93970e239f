"""The screen as a child process on 127.0.0.1, for the browser tests and the dashboard
benchmark: `streamlit run` on a free port, ready when /_stcore/health answers `ok`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dashboard.db import PROJECT_ROOT

APP = PROJECT_ROOT / "dashboard" / "app.py"


class ServerDidNotStart(RuntimeError):
    """Streamlit exited or was not healthy in time; the message ends with its log."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def streamlit(
    env: dict[str, str], log: Path, app: Path = APP, startup_timeout: float = 60
) -> Iterator[str]:
    """Run `app` with `env` added to this process's environment, its output in `log`; yields
    the URL once healthy and stops the server on exit."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", str(app),
                "--server.address", "127.0.0.1",
                "--server.port", str(port),
                "--server.headless", "true",
                "--browser.gatherUsageStats", "false",
            ],
            cwd=PROJECT_ROOT,
            env={**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "0", **env},
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + startup_timeout
        while not healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                raise ServerDidNotStart(f"streamlit did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.read().strip() == b"ok"
    except OSError:
        return False
