"""``[app] sound = true``: announcements go to espeak-ng, and a sound problem reaches the log.

espeak-ng exits 0 even when it finds no sound device (a service user outside the ``audio`` group,
no card at all); it only says so on stderr. The stand-ins below are small scripts named espeak-ng
on $PATH, so these tests behave the same with or without a real espeak-ng or sound card.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from app.speech import Announcer

ALSA_COMPLAINT = """#!/bin/sh
echo "ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" >&2
echo "error: No such file or directory" >&2
printf '%s\\n' "$*" >> "$(dirname "$0")/said.log"
"""
QUIET = """#!/bin/sh
printf '%s\\n' "$*" >> "$(dirname "$0")/said.log"
"""
STILL_SPEAKING = """#!/bin/sh
echo "interrupted: never reported" >&2
exec sleep 30
"""


def espeak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "espeak-ng"
    program.write_text(script)
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")  # ours first, before any real espeak-ng
    return folder


def finish(announcer: Announcer) -> None:
    assert announcer._current is not None
    announcer._current.wait(timeout=30)


def test_a_missing_sound_device_is_logged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folder = espeak(tmp_path, monkeypatch, ALSA_COMPLAINT)
    announcer = Announcer(enabled=True, language="de")
    with caplog.at_level(logging.WARNING, logger="app.speech"):
        for text in ("Ann ist dran.", "Ben ist dran.", "Ann ist dran."):
            announcer.say(text)
            finish(announcer)
        announcer.close()
    warnings = [r.getMessage() for r in caplog.records if r.name == "app.speech"]
    assert len(warnings) == 1, warnings
    assert "cannot find card '0' ... error: No such file or directory" in warnings[0]
    assert "audio group" in warnings[0]
    said = (folder / "said.log").read_text().splitlines()
    assert said == [f"-v de -s 160 -- {t}" for t in ("Ann ist dran.", "Ben ist dran.", "Ann ist dran.")]


def test_a_working_espeak_logs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    espeak(tmp_path, monkeypatch, QUIET)
    announcer = Announcer(enabled=True)
    with caplog.at_level(logging.WARNING, logger="app.speech"):
        announcer.say("Ann's turn.")
        finish(announcer)
        announcer.say("Ben's turn.")
        finish(announcer)
        announcer.close()
    assert [r for r in caplog.records if r.name == "app.speech"] == []


def test_an_announcement_cut_short_by_the_next_is_not_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    espeak(tmp_path, monkeypatch, STILL_SPEAKING)
    announcer = Announcer(enabled=True)
    with caplog.at_level(logging.WARNING, logger="app.speech"):
        announcer.say("Ann's turn.")
        first = announcer._current
        announcer.say("Ben's turn.")  # interrupts the first
        assert first is not None and first.wait(timeout=30) < 0
        announcer.close()
        finish(announcer)
        announcer.say("Cat's turn.")  # sees the second one, terminated by close(): not a failure
        announcer.close()
    assert [r for r in caplog.records if r.name == "app.speech"] == []


def test_sound_off_in_the_config_runs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = espeak(tmp_path, monkeypatch, QUIET)
    announcer = Announcer(enabled=False)
    announcer.say("Ann's turn.")
    assert announcer._current is None and not (folder / "said.log").exists()
