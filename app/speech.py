"""Spoken announcements through espeak-ng, for players who cannot see the screen.

Speaking never blocks the caller and never fails loudly: where espeak-ng is missing the
announcer stays silent and says so once via :attr:`Announcer.available`. A new announcement
interrupts one still speaking, because the newest news (whose turn it is) matters most.

espeak-ng exits 0 even when it found no sound device (it only prints ALSA's complaint), so its
stderr is kept and, the first time a finished announcement left one, logged as a warning: on a Pi
that is the journal's only clue to a service user outside the ``audio`` group.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)
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
                argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        )
        self._current: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._complained = False
        self.spoken: list[str] = []  # what was said, newest last (for tests and a history view)

    @property
    def available(self) -> bool:
        return self._binary is not None

    def command(self, text: str) -> list[str]:
        # "--": the text holds player names, and a name such as "-w/home/pi/x" must be spoken, not
        # taken as an option (-w writes a WAV file wherever it says).
        return [self._binary or "espeak-ng", "-v", VOICES.get(self.language, "en"), "-s", "160", "--", text]

    def say(self, text: str) -> None:
        if not self.enabled or not text:
            return
        self.spoken.append(text)
        if self._binary is None:
            return
        with self._lock:
            self._report_a_failure()
            if self._current is not None and self._current.poll() is None:
                self._current.terminate()
            try:
                self._current = self._runner(self.command(text))
            except OSError:
                self._current = None

    def _report_a_failure(self) -> None:
        """Log (once) what a finished espeak-ng said on stderr: no sound device, no voice..."""
        process = self._current
        if self._complained or process is None or process.poll() is None or process.returncode < 0:
            return  # still speaking, or interrupted by the next announcement
        stream = getattr(process, "stderr", None)
        said = stream.read().decode("utf-8", "replace").strip() if stream is not None else ""
        if process.returncode != 0 or said:
            self._complained = True
            lines = said.splitlines()
            gist = " ... ".join(dict.fromkeys([lines[0], lines[-1]])) if lines else "nothing"
            log.warning("spoken announcements may be silent: %s (status %s) said: %s - is there a sound "
                        "device, and is this user in the audio group?",
                        self._binary, process.returncode, gist)

    def close(self) -> None:
        with self._lock:
            self._report_a_failure()
            if self._current is not None and self._current.poll() is None:
                self._current.terminate()
