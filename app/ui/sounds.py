"""Two short sounds nobody confuses with speech: a low double buzz for a penalty, a rising chime for a win.

The tones are written once as small WAV files (stdlib ``wave``) into the data directory and played
through Kivy's audio; where there is no audio device nothing plays and nothing breaks. Every sound
asked for is kept in :attr:`Chimes.played` (tests read it). The sounds follow the spoken
announcements setting: off means silent.
"""

from __future__ import annotations

import logging
import math
import struct
import wave
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
RATE = 22050
# (frequency Hz, seconds) per note; 0 Hz is a rest.
TUNES: dict[str, tuple[tuple[float, float], ...]] = {
    "penalty": ((196.0, 0.18), (0.0, 0.06), (155.6, 0.30)),  # G3 then E-flat3: down, low, twice
    "win": ((523.3, 0.12), (659.3, 0.12), (784.0, 0.12), (1046.5, 0.35)),  # C E G C: up
}


def write_tune(path: Path, notes: tuple[tuple[float, float], ...]) -> None:
    frames = bytearray()
    for frequency, seconds in notes:
        count = int(RATE * seconds)
        for i in range(count):
            fade = min(1.0, i / 200, (count - i) / 400)  # no clicks at the edges
            sample = 0.0 if frequency == 0 else math.sin(2 * math.pi * frequency * i / RATE) * 0.5 * fade
            frames += struct.pack("<h", int(sample * 32767))
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(bytes(frames))


class Chimes:
    def __init__(self, folder: Path, enabled: Any) -> None:
        self.folder = folder
        self.enabled = enabled  # a callable: is sound on now?
        self.played: list[str] = []
        self._sounds: dict[str, Any] = {}

    def _sound(self, kind: str) -> Any:
        if kind not in self._sounds:
            self._sounds[kind] = None
            try:
                from kivy.core.audio import SoundLoader

                self.folder.mkdir(parents=True, exist_ok=True)
                path = self.folder / f"{kind}.wav"
                if not path.exists():
                    write_tune(path, TUNES[kind])
                self._sounds[kind] = SoundLoader.load(str(path))
            except Exception as exc:  # no audio device, a read-only disk: stay silent
                log.info("no %s sound: %s", kind, exc)
        return self._sounds[kind]

    def play(self, kind: str) -> None:
        if kind not in TUNES:
            raise ValueError(f"unknown sound {kind!r} (known: {', '.join(TUNES)})")
        if not self.enabled():
            return
        self.played.append(kind)
        sound = self._sound(kind)
        if sound is not None:
            try:
                sound.stop()
                sound.play()
            except Exception as exc:
                log.info("cannot play the %s sound: %s", kind, exc)
