"""What Kivy needs to know before its window opens: the keyboard mode, and a calm startup log.

Call :func:`prepare` before anything imports ``kivy.core.window`` (``table99 run`` does).

- Keyboard: on a touch-only Raspberry Pi there is no keyboard to type a name or a custom board
  with, and Kivy's default mode logs "virtual keyboard not allowed". With no physical keyboard
  (``/proc/bus/input/devices`` lists none) Kivy's ``dock`` mode puts its on-screen keyboard at the
  bottom of the screen whenever a text field is tapped; with one, the system keyboard alone.
- Log: Kivy looks for the X cut buffer tools ``xclip``/``xsel`` (middle-click paste) and, absent on
  a Pi, logs CRITICAL with two tracebacks. Nothing in Table99 uses that paste, so the message is
  turned into one INFO line that says so.
"""

from __future__ import annotations

import logging
from pathlib import Path

INPUT_DEVICES = Path("/proc/bus/input/devices")
EV_KEY, EV_REP = 1 << 1, 1 << 20


def has_keyboard(devices: str) -> bool:
    """Whether ``/proc/bus/input/devices`` text lists a real keyboard: a ``kbd`` handler with key
    repeat and the letter keys (a power button or HDMI-CEC remote has ``kbd`` too, but no A-Z)."""
    for block in devices.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(("H: ", "B: ")):
                key, _, value = line[3:].partition("=")
                fields[key.strip()] = value.strip()
        if "kbd" not in fields.get("Handlers", "").split():
            continue
        try:
            events = int(fields.get("EV", "0"), 16)
            key_words = fields.get("KEY", "").split()
            low = int(key_words[-1], 16) if key_words else 0  # the last word: keys 0-31 (or 0-63)
        except ValueError:
            continue
        letters = (1 << 16) | (1 << 30)  # KEY_Q, KEY_A: in the last word on 32- and 64-bit kernels
        if events & EV_KEY and events & EV_REP and low & letters == letters:
            return True
    return False


def keyboard_mode(devices_file: Path = INPUT_DEVICES) -> str:
    """Kivy's ``keyboard_mode``: ``dock`` (on-screen) without a physical keyboard, else ``system``."""
    try:
        devices = devices_file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "system"  # not Linux, or no /proc: a desktop with a keyboard
    return "system" if has_keyboard(devices) else "dock"


class CalmCutbuffer(logging.Filter):
    """Kivy's CRITICAL "no Cutbuffer provider" (with tracebacks) becomes one INFO line."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.levelno >= logging.CRITICAL and message.startswith("Cutbuffer: Unable to find"):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args = "Cutbuffer: xclip/xsel not installed: middle-click paste is off", ()
            record.exc_info = None
        return True


def prepare(mode: str | None = None) -> str:
    """Set the keyboard mode (``mode`` or detected) and calm the log; returns the mode set."""
    from kivy.config import Config as KivyConfig
    from kivy.logger import Logger

    chosen = mode or keyboard_mode()
    KivyConfig.set("kivy", "keyboard_mode", chosen)
    if not any(isinstance(f, CalmCutbuffer) for f in Logger.filters):
        Logger.addFilter(CalmCutbuffer())
    return chosen
