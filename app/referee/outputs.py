"""The table's LEDs, buzzer and buttons, driven by the referee's events.

``[outputs]`` in the config names the pins; every part is optional::

    [outputs]
    turn_leds = [5, 6, 13, 19]      # one LED per seat, in seating order
    buzzer = 12
    play_button = 16
    draw_button = 20
    discard_button = 21

:class:`TableOutputs` subscribes to a :class:`~app.referee.core.Referee`: ``TurnChanged`` lights the
LED of the player to move (computer seats too: a person places their pegs), ``Penalised`` sounds
the penalty beep, ``Won`` and ``Tied`` the win beeps and blink every LED. Buttons arrive on a
queue; the screen calls :meth:`TableOutputs.poll_buttons` from its clock (main thread): DRAW is
announced at once, PLAY and DISCARD need a card, so they go to the screen's ``ask_card``.

The board screen wires it with :func:`attach_outputs` (built once per app, kept in
``ctx.extras``). A broken output (pin busy, no GPIO) is logged and left out: an LED must never
stop a game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.config import Config, ConfigError, Key, check_table, in_range
from app.referee.events import TurnChanged
from app.source_factories.gpio import pin_check, pins_check
from hardware.outputs import BUTTONS, TableButtons, TableBuzzer, TableDevices, TurnLeds
from rules.board99.events import Penalised, Tied, Won

log = logging.getLogger(__name__)
EXTRAS_KEY = "table_outputs"


SPEC: dict[str, Key] = {
    "turn_leds": Key(list, [], pins_check()),
    "leds_active_high": Key(bool, True),
    "buzzer": Key((int, str), None, pin_check),
    "buzzer_active_high": Key(bool, True),
    **{f"{name}_button": Key((int, str), None, pin_check) for name in BUTTONS},
    "buttons_pull_up": Key(bool, True),
    "button_bounce_ms": Key(int, 50, in_range(0, 1000)),
    "mock": Key(bool, False),  # gpiozero's mock pins: try the wiring on a desktop
}


def check_outputs(table: Mapping[str, Any], where: str = "config.toml") -> dict[str, Any]:
    """Validate ``[outputs]``; a pin used twice is an error naming both keys."""
    values = check_table(f"{where}: [outputs]", table, SPEC)
    used: dict[Any, str] = {}
    named = [(f"turn_leds[{i + 1}]", p) for i, p in enumerate(values["turn_leds"])]
    named += [(key, values[key]) for key in ("buzzer", *(f"{b}_button" for b in BUTTONS))]
    for key, pin in named:
        if pin is None:
            continue
        if pin in used:
            raise ConfigError(f"{where}: [outputs] {key}", f"pin {pin} is already {used[pin]}")
        used[pin] = key
    return values


def build_devices(values: Mapping[str, Any], pin_factory: Any = None) -> TableDevices:
    """The configured parts; raises whatever gpiozero raises for a pin it cannot use."""
    if values["mock"] and pin_factory is None:
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    devices = TableDevices()
    try:
        if values["turn_leds"]:
            devices.leds = TurnLeds(values["turn_leds"], active_high=values["leds_active_high"],
                                    pin_factory=pin_factory)
        if values["buzzer"] is not None:
            devices.buzzer = TableBuzzer(values["buzzer"], active_high=values["buzzer_active_high"],
                                         pin_factory=pin_factory)
        buttons = {b: values[f"{b}_button"] for b in BUTTONS if values[f"{b}_button"] is not None}
        if buttons:
            bounce = values["button_bounce_ms"] / 1000 or None
            devices.buttons = TableButtons(buttons, pull_up=values["buttons_pull_up"], bounce_time=bounce,
                                           pin_factory=pin_factory)
    except Exception:
        devices.close()
        raise
    return devices


class TableOutputs:
    """Maps referee events to the table's devices and its buttons to announcements."""

    def __init__(self, devices: TableDevices, players: Sequence[str] = ()) -> None:
        self.devices = devices
        self.players: tuple[str, ...] = tuple(players)
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self, referee: Any) -> None:
        """Follow ``referee`` (and only it): seats come from its game's setup."""
        self.detach()
        self.players = tuple(referee.game.setup.players)
        self._unsubscribe = referee.subscribe(self.on_event)
        self.on_event(TurnChanged(referee.state.to_move))

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.devices.leds is not None:
            self.devices.leds.show(None)

    def on_event(self, event: Any) -> None:
        leds, buzzer = self.devices.leds, self.devices.buzzer
        if isinstance(event, TurnChanged):
            if leds is not None:
                seat = self.players.index(event.player) if event.player in self.players else None
                leds.show(seat)
        elif isinstance(event, Penalised):
            if buzzer is not None:
                buzzer.penalty()
        elif isinstance(event, (Won, Tied)):
            if buzzer is not None:
                buzzer.win()
            if leds is not None:
                leds.blink_all()

    def poll_buttons(self, referee: Any, ask_card: Callable[[str], None]) -> list[str]:
        """Act on buttons pressed since the last poll; returns refusals to show (translated).

        DRAW is announced for the player to move; PLAY and DISCARD call ``ask_card("play")`` /
        ``ask_card("discard")`` so the screen can ask which card.
        """
        buttons = self.devices.buttons
        if buttons is None:
            return []
        refusals: list[str] = []
        for name in buttons.drain():
            if name == "draw":
                try:
                    referee.announce_draw()
                except Exception as exc:  # RefereeRefusal: its message is for the screen
                    refusals.append(str(exc))
            else:
                ask_card(name)
        return refusals

    def close(self) -> None:
        self.detach()
        self.devices.close()


def outputs_from_config(config: Config) -> TableOutputs | None:
    """The configured outputs, or None when ``[outputs]`` is empty or unusable (logged)."""
    if not config.outputs:
        return None
    try:
        devices = build_devices(check_outputs(config.outputs, config.path or "config.toml"))
    except Exception:
        log.exception("the table's outputs (LEDs, buzzer, buttons) are left out")
        return None
    return None if devices.empty else TableOutputs(devices)


def attach_outputs(ctx: Any, referee: Any) -> TableOutputs | None:
    """Build the outputs once per app (kept in ``ctx.extras``) and follow ``referee`` with them."""
    if EXTRAS_KEY not in ctx.extras:
        ctx.extras[EXTRAS_KEY] = outputs_from_config(ctx.config)
    outputs: TableOutputs | None = ctx.extras[EXTRAS_KEY]
    if outputs is not None:
        outputs.attach(referee)
    return outputs
