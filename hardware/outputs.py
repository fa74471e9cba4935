"""Optional things on the table besides the sensors: turn LEDs, a buzzer, PLAY/DRAW/DISCARD buttons.

Each is a small class on gpiozero devices (``pin_factory=`` for tests, ``close()``, ``with``), and
each is optional: :class:`TableDevices` holds whichever are configured and ``None`` for the rest,
so the app never asks "is there a buzzer?" twice. Nothing here knows about games: the app's
``app/referee/outputs.py`` decides which LED lights for whom and when the buzzer sounds.

Buttons are pressed in gpiozero's callback thread. They put the button's name on a queue that
the app drains on its main thread (like board readings), never calling into the game directly.
gpiozero is imported inside the constructors, so this module imports without it.
"""

from __future__ import annotations

import queue
from collections.abc import Mapping, Sequence
from typing import Any

BUTTONS = ("play", "draw", "discard")


class TurnLeds:
    """One LED per seat; :meth:`show` lights the LED of the seat whose turn it is."""

    def __init__(self, pins: Sequence[Any], *, active_high: bool = True, pin_factory: Any = None) -> None:
        from gpiozero import LED

        self._leds: list[Any] = []
        try:
            for pin in pins:
                self._leds.append(LED(pin, active_high=active_high, pin_factory=pin_factory))
        except Exception:
            self.close()
            raise
        self.lit: int | None = None

    def __len__(self) -> int:
        return len(self._leds)

    @property
    def states(self) -> tuple[bool, ...]:
        """Which seats' LEDs are lit now."""
        return tuple(bool(led.is_lit) for led in self._leds)

    def show(self, seat: int | None) -> None:
        """Light seat ``seat`` (0-based) only; None or a seat without an LED turns all off."""
        for index, led in enumerate(self._leds):
            led.value = index == seat
        self.lit = seat if seat is not None and 0 <= seat < len(self._leds) else None

    def blink_all(self, times: int = 3) -> None:
        """A game is over: every LED blinks a few times, then all are off."""
        self.lit = None
        for led in self._leds:
            led.blink(on_time=0.3, off_time=0.3, n=times, background=True)

    def close(self) -> None:
        for led in self._leds:
            led.close()
        self._leds = []

    def __enter__(self) -> TurnLeds:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TableBuzzer:
    """A buzzer with two sounds: one long beep for a penalty, three short ones for a win."""

    PENALTY = (0.6, 0.1, 1)  # on, off, times
    WIN = (0.15, 0.1, 3)

    def __init__(self, pin: Any, *, active_high: bool = True, pin_factory: Any = None) -> None:
        from gpiozero import Buzzer

        self._buzzer = Buzzer(pin, active_high=active_high, pin_factory=pin_factory)
        self.sounded: list[str] = []  # what was sounded, in order (the app's log and the tests)

    def _beep(self, name: str, pattern: tuple[float, float, int]) -> None:
        on, off, times = pattern
        self.sounded.append(name)
        self._buzzer.beep(on_time=on, off_time=off, n=times, background=True)

    def penalty(self) -> None:
        self._beep("penalty", self.PENALTY)

    def win(self) -> None:
        self._beep("win", self.WIN)

    @property
    def device(self) -> Any:
        return self._buzzer

    def close(self) -> None:
        self._buzzer.close()

    def __enter__(self) -> TableBuzzer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TableButtons:
    """Physical PLAY / DRAW / DISCARD buttons; presses wait in :attr:`presses` for the main thread."""

    def __init__(
        self, pins: Mapping[str, Any], *, pull_up: bool = True, bounce_time: float | None = 0.05,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button

        unknown = set(pins) - set(BUTTONS)
        if unknown:
            raise ValueError(f"unknown button(s) {sorted(unknown)}; known: {', '.join(BUTTONS)}")
        self.presses: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._buttons: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                button = Button(pin, pull_up=pull_up, bounce_time=bounce_time, pin_factory=pin_factory)
                button.when_pressed = self._pressed(name)
                self._buttons[name] = button
        except Exception:
            self.close()
            raise

    def _pressed(self, name: str) -> Any:
        def when_pressed() -> None:
            self.presses.put(name)

        return when_pressed

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._buttons)

    def button(self, name: str) -> Any:
        return self._buttons[name]

    def drain(self) -> list[str]:
        """The buttons pressed since the last call, oldest first (call from the main thread)."""
        pressed: list[str] = []
        while True:
            try:
                pressed.append(self.presses.get_nowait())
            except queue.Empty:
                return pressed

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons = {}

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class TableDevices:
    """Whichever outputs are configured (None for each that is absent)."""

    def __init__(
        self, leds: TurnLeds | None = None, buzzer: TableBuzzer | None = None,
        buttons: TableButtons | None = None,
    ) -> None:
        self.leds = leds
        self.buzzer = buzzer
        self.buttons = buttons

    @property
    def empty(self) -> bool:
        return self.leds is None and self.buzzer is None and self.buttons is None

    def close(self) -> None:
        for part in (self.leds, self.buzzer, self.buttons):
            if part is not None:
                part.close()

    def __enter__(self) -> TableDevices:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
