"""Turn LEDs, buzzer and buttons on mock pins, and the [outputs] config that builds them."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("gpiozero", reason="the GPIO tests need gpiozero (pip install 'table99[gpio]')")

from gpiozero.pins.mock import MockFactory

from app.config import Config, ConfigError
from app.referee.events import TurnChanged
from app.referee.outputs import TableOutputs, attach_outputs, build_devices, check_outputs
from hardware.outputs import TableButtons, TableBuzzer, TableDevices, TurnLeds
from rules.board99.events import Penalised, Won


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def test_turn_leds_light_exactly_one_seat(factory: MockFactory) -> None:
    with TurnLeds([5, 6, 13], pin_factory=factory) as leds:
        leds.show(1)
        assert [factory.pin(p).state for p in (5, 6, 13)] == [False, True, False]
        leds.show(None)
        assert not any(factory.pin(p).state for p in (5, 6, 13))
        leds.show(7)  # no LED for that seat: all off, nothing raised
        assert leds.lit is None


def test_active_low_leds_are_driven_low_when_lit(factory: MockFactory) -> None:
    with TurnLeds([5, 6], active_high=False, pin_factory=factory) as leds:
        leds.show(0)
        assert [factory.pin(p).state for p in (5, 6)] == [False, True]


def test_buttons_queue_their_presses_for_the_main_thread(factory: MockFactory) -> None:
    with TableButtons({"play": 16, "draw": 20}, bounce_time=None, pin_factory=factory) as buttons:
        factory.pin(20).drive_low()
        factory.pin(20).drive_high()
        factory.pin(16).drive_low()
        assert buttons.drain() == ["draw", "play"]
        assert buttons.drain() == []
    with pytest.raises(ValueError, match="unknown button"):
        TableButtons({"pass": 16}, pin_factory=factory)


def test_outputs_config_is_checked_with_clear_messages() -> None:
    values = check_outputs({"turn_leds": [5, 6], "buzzer": 12})
    assert values["draw_button"] is None and values["button_bounce_ms"] == 50
    with pytest.raises(ConfigError, match=r"\[outputs\] buzzer: pin 5 is already turn_leds\[1\]"):
        check_outputs({"turn_leds": [5, 6], "buzzer": 5})
    with pytest.raises(ConfigError, match="did you mean 'buzzer'"):
        check_outputs({"buzer": 12})
    with pytest.raises(ConfigError, match="turn_leds: item 2: must be a BCM GPIO number"):
        check_outputs({"turn_leds": [5, 99]})


class FakeReferee:
    """Just what TableOutputs uses: subscribe, the game's players, who is to move, DRAW."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.game = SimpleNamespace(setup=SimpleNamespace(players=("Ann", "Ben", "Cat")))
        self.state = SimpleNamespace(to_move="Ann")
        self.draws = 0

    def subscribe(self, listener: Any) -> Any:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def emit(self, event: Any) -> None:
        for listener in list(self.listeners):
            listener(event)

    def announce_draw(self) -> None:
        self.draws += 1
        if self.draws > 1:
            raise RuntimeError("Ann already holds five cards")


def test_referee_events_drive_leds_and_buzzer_and_buttons_announce(factory: MockFactory) -> None:
    values = check_outputs({"turn_leds": [5, 6, 13], "buzzer": 12, "draw_button": 20, "play_button": 16})
    devices = build_devices(values, factory)
    outputs = TableOutputs(devices)
    referee = FakeReferee()
    outputs.attach(referee)
    leds = [factory.pin(p) for p in (5, 6, 13)]
    assert [p.state for p in leds] == [True, False, False]  # Ann to move at once
    referee.emit(TurnChanged("Cat"))
    assert [p.state for p in leds] == [False, False, True]
    referee.emit(Penalised("Ben", "illegal-play", 60, 57))  # type: ignore[arg-type]
    referee.emit(Won(("Ann",), (1, 2, 3, 4, 5)))
    assert devices.buzzer is not None and devices.buzzer.sounded == ["penalty", "win"]
    asked: list[str] = []
    factory.pin(20).drive_low()
    factory.pin(20).drive_high()
    factory.pin(16).drive_low()
    factory.pin(16).drive_high()
    factory.pin(20).drive_low()
    refusals = outputs.poll_buttons(referee, asked.append)
    assert referee.draws == 2 and asked == ["play"]
    assert refusals == ["Ann already holds five cards"]
    outputs.close()
    assert referee.listeners == []


def test_no_outputs_configured_means_none_and_a_broken_one_is_left_out() -> None:
    ctx = SimpleNamespace(config=Config(), extras={})
    assert attach_outputs(ctx, FakeReferee()) is None
    broken = SimpleNamespace(config=Config(outputs={"buzzer": 5, "turn_leds": [5]}), extras={})
    assert attach_outputs(broken, FakeReferee()) is None  # logged, not raised


def test_mock_outputs_from_the_config_follow_the_referee() -> None:
    ctx = SimpleNamespace(config=Config(outputs={"turn_leds": [5, 6], "buzzer": 12, "mock": True}), extras={})
    referee = FakeReferee()
    outputs = attach_outputs(ctx, referee)
    assert isinstance(outputs, TableOutputs) and outputs is ctx.extras["table_outputs"]
    assert isinstance(outputs.devices.leds, TurnLeds) and outputs.devices.leds.lit == 0
    assert isinstance(outputs.devices.buzzer, TableBuzzer)
    outputs.close()


def test_empty_devices_close_quietly() -> None:
    devices = TableDevices()
    assert devices.empty
    devices.close()
