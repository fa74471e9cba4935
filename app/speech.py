"""Spoken announcements through espeak-ng, for players who cannot see the screen.

Speaking never blocks the caller and never fails loudly: where espeak-ng is missing the
announcer stays silent and says so once via :attr:`Announcer.available`. A new announcement
interrupts one still speaking, because the newest news (whose turn it is) matters most.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections.abc import Callable

VOICES = {"en": "en", "de": "de"}


class Announcer:
    def __init__(
        self,
        enabled: bool = True,
        language: str = "en",
        runner: Callable[[list[str]], subprocess.Popen[bytes]] | None = None,
    ) -> None:
        self.enabled = enabled
        self.language = language
        self._binary = shutil.which("espeak-ng") or shutil.which("espeak")
        self._runner = runner or (
            lambda argv: subprocess.Popen(
                argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        )
        self._current: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self.spoken: list[str] = []  # what was said, newest last (for tests and a history view)

    @property
    def available(self) -> bool:
        return self._binary is not None

    def command(self, text: str) -> list[str]:
        return [self._binary or "espeak-ng", "-v", VOICES.get(self.language, "en"), "-s", "160", text]

    def say(self, text: str) -> None:
        if not self.enabled or not text:
            return
        self.spoken.append(text)
        if self._binary is None:
            return
        with self._lock:
            if self._current is not None and self._current.poll() is None:
                self._current.terminate()
            try:
                self._current = self._runner(self.command(text))
            except OSError:
                self._current = None

    def close(self) -> None:
        with self._lock:
            if self._current is not None and self._current.poll() is None:
                self._current.terminate()
