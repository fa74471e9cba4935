"""A player's name is spoken, never taken as an espeak-ng option (issue 17, point 7)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from app.speech import Announcer


def test_a_name_that_looks_like_an_option_stays_text(tmp_path: Path) -> None:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed (scripts/setup dev installs it)")
    target = tmp_path / "written.wav"
    announcer = Announcer(True, "en")
    argv = announcer.command(f"-w{target} plays card 30")
    # (no sound device here: espeak-ng says so on stderr and exits 0; the point is what it wrote)
    # If the name were an option, espeak-ng would have no text argument left and read its text
    # from stdin: give it some, so the -w file would really be written.
    subprocess.run(argv, input=b"hello", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   timeout=30, check=False)
    assert not target.exists(), "espeak-ng took the player's name as -w and wrote a file"
    assert not list(tmp_path.iterdir())
