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
