"""Exhibitor mode's phone view (issue 15): the loop's QR code and the follow-only web display.

The real app in exhibitor mode (the shell's hook, the real loop and visitor's game) on a fake clock,
with the starter ``table99 run`` gives it, on 127.0.0.1 and a free port. Everything waits on
conditions with generous deadlines (a loaded machine), never on fixed sleeps.
"""

from __future__ import annotations

import json
import logging
import socket
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.config import Config
from app.exhibit.settings import exhibit_defaults
from app.paths import default_database
from app.store import GameStore
from tests.browser_pool import BrowserPool
from tests.screen_catalog import FakeClock
from tests.ui_support import UI, frames
from tests.web_support import http, wait_for

pytestmark = pytest.mark.ui
FAMILY = ("Oma Hilde", "Opa Kurt")  # names only the family's game has
ARTIFACTS_WEB = Path(__file__).resolve().parent.parent / "test-artifacts" / "web"
DEADLINE = 90.0


def family_store() -> GameStore:
    """The family's database with a finished game (and an unfinished one) in it."""
    from app.games.board99.game import Board99Game, TableSetup
    from rules import board99 as rules

    store = GameStore(default_database())
    for finish in (True, False):
        setup = rules.make_setup(FAMILY, deck=list(range(100)))
        game = Board99Game.create(store, setup, TableSetup({FAMILY[0]: "red", FAMILY[1]: "blue"}, {}, 1),
                                  title=" / ".join(FAMILY))
        if finish:
            store.set_status(game.id, "finished", "won: " + FAMILY[0])
    return store


def exhibit_config(port: int = 0, **exhibit: Any) -> Config:
    return replace(Config(), web={**Config().web, "bind": "127.0.0.1", "port": port or 8099},
                   exhibit={**exhibit_defaults(), "enabled": True, "pin": "2468", "narration": False,
                            "games": ["board99", "parlett", "count99"], **exhibit})


def starter(config: Config, port: int | None = 0) -> Callable[[Any], Any]:
    """What table99 run hands the app (run_app._start_web), on a free port unless ``port``."""
    from app.web.launch import start_follow_only

    return lambda live: start_follow_only(config, live, port=port)


def build_app(ui: UI, config: Config, store: GameStore, web: Callable[[Any], Any] | None) -> Any:
    from app.ui.shell import Table99App

    app = Table99App(config=config, store=store)
    app.exhibit_clock = FakeClock()
    app.exhibit_autotick = False
    app.exhibit_web = web
    root = app.build()
    ui.show(root)
    app.exhibit_controller.start(ui.window)
    return app


def close_app(app: Any, store: GameStore) -> None:
    scratch = (app.exhibit or {}).get("scratch")
    app.stop_phone_view()
    if app.exhibit_controller is not None:
        app.exhibit_controller.release()
    if scratch is not None:
        scratch.close()
    store.close()


@pytest.fixture
def phone(ui: UI) -> Iterator[Any]:
    store = family_store()
    config = exhibit_config()
    app = build_app(ui, config, store, starter(config))
    yield app
    close_app(app, store)


def tick(app: Any, seconds: float = 0.5) -> None:
    app.exhibit_clock.now += seconds
    app.exhibit_controller.tick()
    frames(1)


def until(app: Any, condition: Callable[[], Any], what: str, table_seconds: float = 0.0) -> Any:
    """Run the app's frames (and ``table_seconds`` of table time per round) until ``condition()``."""
    step = (lambda: tick(app, table_seconds)) if table_seconds else (lambda: frames(1))
    return wait_for(condition, DEADLINE, what, between=step)


def get_json(url: str) -> Any:
    status, _headers, body = http("GET", url)
    assert status == 200, (url, status, body[:200])
    return json.loads(body)


def current_view(app: Any) -> dict[str, Any]:
    url = app.phone_view.url() + "api/view/current"
    return get_json(url).get("view") or {}


def test_the_phone_view_follows_the_demo_then_the_visitors_game(phone: Any) -> None:
    controller = phone.exhibit_controller
    assert phone.phone_view is not None and phone.ctx.extras["live"].store is phone.exhibit["scratch"]
    seen: set[str] = set()

    def on_show() -> bool:  # the game the loop shows now, as the phones see it
        demo = controller.loop.demo
        view = current_view(phone)
        if demo is not None and view.get("id") == demo.game_id and view.get("kind") == demo.kind:
            seen.add(demo.kind)
        return seen >= {"board99", "parlett"}

    until(phone, on_show, "the phones to follow the board game's demo, then Parlett's", table_seconds=2.0)
    assert controller.game_on_show() == controller.loop.demo.game_id
    page = http("GET", phone.phone_view.url())
    assert page[0] == 200 and b'id="boot"' in page[2]
    controller.start_visitor()  # a touch on the loop
    visitor = controller.visitor
    assert phone.ctx.manager.current == "exhibit_visitor"
    game_id = visitor.game.id
    view = until(phone, lambda: (v := current_view(phone)).get("id") == game_id and v, "the visitor's game")
    assert view["kind"] == "board99" and view["title"] == "A visitor's game"
    # followed because the screen shows it (the controller says which game), not guessed from the store
    assert controller.game_on_show() == game_id and controller.board_screen_on_show() is visitor
    visitor.visitor_stops()
    until(phone, lambda: current_view(phone).get("id") == getattr(controller.loop.demo, "game_id", -1),
          "the loop's next demo after the visitor stopped", table_seconds=0.5)


def test_the_scratch_live_tables_hooks_never_reach_the_familys_sessions(phone: Any) -> None:
    """The phone view's LiveTable (the scratch store) finds no session and redraws no screen of the
    family's game UIs (``app.uis``): scratch ids are not the family's, a lookup could pick up a family
    session of the same id."""
    from types import SimpleNamespace

    from kivy.uix.screenmanager import Screen

    asked: list[str] = []

    class Recording(dict):  # type: ignore[type-arg]
        def get(self, key: Any, default: Any = None) -> Any:
            asked.append(key)
            return super().get(key, default)

        def __getitem__(self, key: Any) -> Any:
            asked.append(key)
            return super().__getitem__(key)

    live = phone.phone_view.live
    game_id = until(phone, lambda: current_view(phone).get("id"), "a demo on the phones", table_seconds=1.0)
    same_id = SimpleNamespace(game_id=game_id, sheet=SimpleNamespace(over=False))
    phone.uis = Recording(parlett=SimpleNamespace(session=same_id, go=lambda name: asked.append(name)),
                          count99=SimpleNamespace(keeper=SimpleNamespace(game=same_id)))
    refreshed: list[str] = []
    manager = phone.ctx.manager
    added = []
    for name in ("parlett-family", "count99-family"):
        family = Screen(name=name)
        family.refresh = lambda name=name: refreshed.append(name)  # type: ignore[attr-defined]
        manager.add_widget(family)
        added.append(family)
    try:
        for kind, name in (("parlett", "parlett-family"), ("count99", "count99-family")):
            manager.current = name  # a family game's screen, as the staff's history might show it
            assert live.find_session(kind, game_id) is None
            live.on_changed(kind, game_id)
    finally:
        manager.current = "home"
        for family in added:
            manager.remove_widget(family)
    assert asked == [] and refreshed == []


def family_words(body: bytes) -> list[str]:
    text = body.decode("utf-8", "replace")
    return [name for name in FAMILY if name in text]


def test_no_address_reaches_the_familys_games_and_phones_cannot_act(phone: Any) -> None:
    view = phone.phone_view
    base = view.url().rsplit("/v/", 1)[0]
    token = view.server.access.token
    family = phone.ctx.store
    family_ids = [g.id for g in family.games()]
    assert family_ids and any(g.status == "finished" for g in family.games())
    until(phone, lambda: current_view(phone).get("id"), "a demo on the phones", table_seconds=1.0)
    served = [f"/v/{token}/", f"/v/{token}/live", f"/v/{token}/live?tv&lang=de",
              f"/v/{token}/api/view/current",
              "/static/app.js", "/static/style.css"]
    for path in served:
        status, _h, body = http("GET", base + path)
        assert status == 200, path
        assert family_words(body) == [], path
    assert b"All games" not in http("GET", base + served[0])[2]  # the page links to no game list
    refused = ["/", f"/v/{token}//", f"/v/{token}/pair", f"/v/{token}/pair?code=123456",
               f"/v/{token}/api/view/0", f"/v/{token}/events?game=1", "/v/not-the-token/live",
               f"/v/{token}/live/../", f"/v/{token}/history", "/static/../server.py", "/anything"]
    refused += [f"/v/{token}/game/{n}" for n in family_ids]
    refused += [f"/v/{token}/api/view/{n}" for n in family_ids]
    refused += [f"/v/{token}/events?game={n}" for n in family_ids]
    for path in refused:
        status, _h, body = http("GET", base + path)
        assert status == 404, (path, status)
        assert family_words(body) == [], path
    headers = {"Content-Type": "application/json", "Origin": base}
    for path in [f"/v/{token}/api/pair", *(f"/v/{token}/api/game/{n}/undo" for n in family_ids),
                 f"/v/{token}/api/game/{current_view(phone)['id']}/add-deal"]:
        status, _h, _body = http("POST", base + path, b"{}", headers)
        assert status in (404, 405), (path, status)
    # the family's web display token (a family run's web-token) opens nothing here either
    from app.paths import data_dir
    from app.web.pairing import Access

    family_token = Access(data_dir()).token
    assert family_token != token
    assert http("GET", f"{base}/v/{family_token}/live")[0] == 404
    # the first event of the stream is the game on show, nothing of the family's
    first = first_event(f"{base}/v/{token}/events?game=current")
    assert family_words(first.encode()) == [] and '"kind"' in first


def first_event(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(f"GET {parts.path}?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode())
        data = b""
        deadline = time.monotonic() + 30
        while (start := data.find(b"\ndata: ")) < 0 or data.find(b"\n\n", start) < 0:
            assert time.monotonic() < deadline, data[:300]
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", "replace")


def decode_qr(path: str, box: tuple[float, float, float, float] | None = None) -> str:
    """The QR code in the screenshot at ``path`` (OpenCV's detector); ``box``: only this part of the
    window (x, y, width, height in Kivy's window coordinates, y up), so the board's grid beside it
    cannot distract the detector."""
    import cv2

    image = cv2.imread(path)
    assert image is not None, path
    if box is not None:
        x, y, width, height = (int(v) for v in box)
        rows = image.shape[0]
        image = image[max(0, rows - y - height):rows - y, max(0, x):x + width]
    text, _points, _straight = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def test_the_qr_code_on_the_loop_decodes_to_the_served_address(phone: Any, ui: UI, tmp_path: Any) -> None:
    from kivy.core.window import Window

    loop = phone.exhibit_controller.loop
    assert loop.qr.texture is not None and loop.phone.width > 0
    frames(3)
    shot = Window.screenshot(name=str(tmp_path / "loop.png"))
    column = loop.phone
    url = decode_qr(shot, (*column.to_window(column.x, column.y), column.width, column.height))
    assert url == phone.phone_view.url()
    assert url.startswith("http://127.0.0.1:") and url.endswith(f"/v/{phone.phone_view.server.access.token}/")
    status, _headers, body = http("GET", url)
    assert status == 200 and b"Table99" in body
    # big enough to scan from a step away: at least 180 px square, whole pixels per module
    width, height = loop.qr.size
    assert width == height >= 180 and loop.qr.texture.mag_filter == "nearest"
    # the standard's quiet zone: 4 modules of white all round the code, on the loop's dark ground
    import cv2
    import segno

    modules = segno.make(url, error="l", boost_error=True).symbol_size(scale=1, border=0)[0]
    module = loop.qr.texture.width // (modules + 4)  # the texture holds 2 modules of it
    assert module >= 6 and loop.qr.texture.width == (modules + 4) * module
    gray = cv2.imread(shot, cv2.IMREAD_GRAYSCALE)
    x, y = (int(v) for v in loop.qr.to_window(loop.qr.x, loop.qr.y))
    top = gray.shape[0] - y - int(height)
    square = gray[top:top + int(height), x:x + int(width)]
    zone = 4 * module
    assert square.shape == (height, width) and width == modules * module + 2 * zone
    ring = square.copy()
    ring[zone:-zone, zone:-zone] = 255
    assert ring.min() >= 200, "the quiet zone is not all white"
    assert square[zone:zone + module, zone:zone + module].max() < 60  # the finder pattern's corner
    assert gray[top:top + int(height), max(0, x - 3):x].max() < 200  # the dark ground beside it
    # beside the demo, never over it
    stage, column = loop.stage, loop.phone
    assert stage.right <= column.x and loop.qr.x >= column.x and loop.qr.top <= column.top


class FakeNetwork:
    """``socket`` as app.web.server sees it, on a Raspberry Pi OS table: the hostname maps to
    127.0.1.1 (/etc/hosts); the outgoing interface, found with a connected UDP socket (nothing is
    sent), is ``interface`` (None: no route at all)."""

    AF_INET, SOCK_DGRAM = socket.AF_INET, socket.SOCK_DGRAM

    def __init__(self, interface: str | None, hosts: tuple[str, ...] = ("127.0.1.1",)) -> None:
        self.interface, self.hosts = interface, hosts
        self.probed: list[tuple[str, int]] = []
        self.sent = 0

    def gethostname(self) -> str:
        return "raspberrypi"

    def getaddrinfo(self, host: str, *_args: Any) -> list[Any]:
        assert host == "raspberrypi"
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, 0)) for a in self.hosts]

    def socket(self, family: int, kind: int) -> Any:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)
        network = self

        class Udp:
            def __enter__(self) -> Any:
                return self

            def __exit__(self, *_exc: Any) -> None:
                pass

            def connect(self, address: tuple[str, int]) -> None:
                network.probed.append(address)
                if network.interface is None:
                    raise OSError(101, "Network is unreachable")

            def getsockname(self) -> tuple[str, int]:
                return (str(network.interface), 40000)

            def send(self, *_a: Any) -> None:
                network.sent += 1

            sendto = send

        return Udp()


@pytest.mark.parametrize("kind", ["phone view", "family web display"])
def test_bound_to_every_network_the_address_is_the_outgoing_interfaces_ipv4(
        monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Raspberry Pi OS: the hostname is 127.0.1.1, so the address in the QR code must come from the
    interface the table talks through (192.168.1.20 here), not ``raspberrypi.local``, which many
    Android phones cannot resolve. The family's web display (home screen QR) uses the same address."""
    from app.games.live import LiveTable
    from app.web import address as web_address
    from app.web.follow import FollowOnlyServer
    from app.web.pairing import Access

    network = FakeNetwork("192.168.1.20")
    monkeypatch.setattr(web_address, "socket", network)
    store = GameStore(default_database())
    try:
        if kind == "phone view":
            server: Any = FollowOnlyServer(LiveTable(store), "0.0.0.0", 8099)  # not started: its address
            assert server.view_url() == f"http://192.168.1.20:8099/v/{server.access.token}/"
            assert FollowOnlyServer(LiveTable(store)).access.token != server.access.token  # per run
        else:
            from app.web.server import WebServer

            server = WebServer(LiveTable(store), Access(None), "0.0.0.0", 8099)
            assert server.view_url() == f"http://192.168.1.20:8099/v/{server.access.token}/live"
        assert network.probed and network.sent == 0
    finally:
        store.close()


def test_the_address_is_worked_out_off_the_main_thread_and_refreshed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop asks for the QR code's address at every demo, on Kivy's main thread; without DNS a
    lookup there blocks the screen for seconds. The server's thread works it out when it starts and
    again now and then (a new DHCP lease); the main thread only reads what it found."""
    import threading

    from app.games.live import LiveTable
    from app.web import address as web_address
    from app.web.follow import FollowOnlyServer

    where: list[threading.Thread] = []
    address = ["192.168.1.20"]

    def lookup() -> str:
        where.append(threading.current_thread())
        return address[0]

    monkeypatch.setattr(web_address, "lan_address", lookup)
    store = GameStore(default_database())
    server = FollowOnlyServer(LiveTable(store), "0.0.0.0", 0)
    server.address_refresh = 0.05  # a day's rounds in a moment
    server.start()
    try:
        assert where, "worked out before start() returns: the first QR code has it"
        for _ in range(50):  # every demo, on the main thread
            assert server.view_url().startswith("http://192.168.1.20:")
        address[0] = "192.168.1.21"  # a new lease
        deadline = time.monotonic() + DEADLINE
        while "192.168.1.21" not in server.view_url():
            assert time.monotonic() < deadline, "the address was never refreshed"
            time.sleep(0.05)
        assert threading.main_thread() not in where
    finally:
        server.stop()
        store.close()


def test_without_a_route_the_address_falls_back_to_the_hostname(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.web import address

    monkeypatch.setattr(address, "socket", FakeNetwork(None, ("127.0.1.1", "10.1.2.3")))
    assert address.lan_address() == "10.1.2.3"  # the hostname's own LAN address
    monkeypatch.setattr(address, "socket", FakeNetwork(None))
    assert address.lan_address() == "raspberrypi.local"  # mDNS, the last resort
    monkeypatch.setattr(address, "socket", FakeNetwork("127.0.0.1"))  # only loopback: not for phones
    assert address.lan_address() == "raspberrypi.local"


def test_a_busy_port_leaves_the_loop_running_without_a_qr_code(
        ui: UI, caplog: pytest.LogCaptureFixture) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    store = family_store()
    config = exhibit_config(port)
    try:
        with caplog.at_level(logging.INFO):
            app = build_app(ui, config, store, starter(config, port=None))
        try:
            lines = [r for r in caplog.records if "QR" in r.getMessage() and r.levelno >= logging.WARNING]
            assert len(lines) == 1 and str(port) in lines[0].getMessage(), [r.getMessage() for r in lines]
            assert app.phone_view is None and "live" not in app.ctx.extras
            loop = app.exhibit_controller.loop
            assert loop.qr.texture is None and loop.phone.width == 0
            assert loop.staff_button.parent is loop.bar  # the Staff button stays reachable
            kinds = until(app, lambda: {"board99", "parlett"} <= set(loop.shown), "the loop to go on",
                          table_seconds=2.0)
            assert kinds
        finally:
            close_app(app, store)
    finally:
        taken.close()


def test_a_starter_that_fails_leaves_the_loop_running_without_a_qr_code(
        ui: UI, caplog: pytest.LogCaptureFixture) -> None:
    """Anything going wrong while the web display starts (not only a busy port): one line, no QR."""
    def broken(_live: Any) -> Any:
        raise OSError("no network here")

    store = GameStore(default_database())
    with caplog.at_level(logging.INFO):
        app = build_app(ui, exhibit_config(), store, broken)
    try:
        lines = [r.getMessage() for r in caplog.records  # the app's own lines: Kivy's "Cutbuffer"
                 if r.levelno >= logging.WARNING and r.name.startswith("app.")]  # (no xclip) is not ours
        assert lines == ["exhibit: no QR code on the loop: OSError: no network here"]
        loop = app.exhibit_controller.loop
        assert app.phone_view is None and loop.qr.texture is None and loop.demo is not None
    finally:
        close_app(app, store)


def test_a_qr_code_that_cannot_be_drawn_is_one_log_line_and_the_loop_runs_on(
        ui: UI, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """segno missing beside aiohttp, or CoreImage failing: an exception from Kivy's Clock would end
    the app (and systemd restart it, over and over). One line in the log, no QR column, demos go on."""
    from app.ui import web_join

    calls: list[str] = []

    def broken(text: str, size: int) -> Any:
        calls.append(text)
        raise ImportError("No module named 'segno'")

    monkeypatch.setattr(web_join, "qr_image", broken)
    store = family_store()
    config = exhibit_config()
    with caplog.at_level(logging.INFO):
        app = build_app(ui, config, store, starter(config))  # the shell's own show_qr
        try:
            assert app.phone_view is not None and calls  # the server runs; only the code failed
            loop = app.exhibit_controller.loop
            assert loop.qr.texture is None and loop.phone.width == 0
            assert loop.staff_button.parent is loop.bar  # the Staff button stays reachable
            until(app, lambda: len(loop.shown) >= 3, "three demos (each one shows the QR code)",
                  table_seconds=2.0)
        finally:
            close_app(app, store)
    lines = [r.getMessage() for r in caplog.records if "QR code cannot be drawn" in r.getMessage()]
    assert len(lines) == 1, lines


@pytest.mark.parametrize("how", ["config", "no web display"])
def test_the_phone_view_can_be_switched_off(ui: UI, how: str) -> None:
    started: list[Any] = []
    config = exhibit_config(phone_view=how != "config")
    store = GameStore(default_database())
    web = None if how == "no web display" else (lambda live: (started.append(live), (None, "no"))[1])
    app = build_app(ui, config, store, web)
    try:
        loop = app.exhibit_controller.loop
        assert started == [] and app.phone_view is None
        assert loop.qr.texture is None and loop.phone.width == 0
    finally:
        close_app(app, store)


def test_leaving_exhibitor_mode_stops_the_phone_view(phone: Any) -> None:
    import urllib.error

    url = phone.phone_view.url()
    server = phone.phone_view.server
    until(phone, lambda: http("GET", url)[0] == 200, "the phone view")
    phone.exhibit_controller.leave_exhibit()  # the staff screen's Leave, after the PIN
    assert phone.phone_view is None and "live" not in phone.ctx.extras
    assert server._thread is not None and not server._thread.is_alive()  # ended, not left hanging
    with pytest.raises(urllib.error.URLError) as refused:  # nobody listens: not a server that hangs
        urllib_get(url)
    assert isinstance(refused.value.reason, ConnectionRefusedError), refused.value


def test_stop_waits_for_a_view_being_built_before_the_store_closes() -> None:
    """A page asked for just as the exhibit ends: its view is built in the server's executor, reading
    the scratch store. stop() returns only once that has finished, so closing the store next is safe."""
    import contextlib
    import http.client as http_client
    import threading

    from app.games.live import LiveTable
    from app.web.follow import FollowOnlyServer

    store = GameStore(default_database())
    server = FollowOnlyServer(LiveTable(store), "127.0.0.1", 0)
    build = server.hub.cached
    building: list[threading.Thread] = []
    entered, done = threading.Event(), threading.Event()

    def slow_build(game_id: int | None, lang: str) -> Any:
        building.append(threading.current_thread())
        entered.set()
        deadline = time.monotonic() + DEADLINE
        try:
            # until the server's loop is done with its executor (asyncio's own flag: set by
            # shutdown_default_executor, or by close() that does not wait): the server is ending
            while not getattr(server._loop, "_executor_shutdown_called", False):
                assert time.monotonic() < deadline
                time.sleep(0.01)
            return build(game_id, lang)  # reads the store while the server stops
        finally:
            done.set()

    server.hub.cached = slow_build  # type: ignore[method-assign]
    server.start()
    def ask() -> None:
        with contextlib.suppress(OSError, http_client.HTTPException):  # the server ends meanwhile
            http("GET", f"{server.base_url()}/v/{server.access.token}/api/view/current", timeout=DEADLINE)

    asker = threading.Thread(target=ask, daemon=True)
    try:
        asker.start()
        assert entered.wait(DEADLINE)
        server.stop()
        assert done.is_set() and not building[0].is_alive()  # nothing reads the store any more
        assert server._thread is not None and not server._thread.is_alive()
    finally:
        server.stop()
        store.close()


def test_deleted_demo_games_leave_nothing_behind_in_the_hub() -> None:
    """The loop makes and deletes a demo game every few minutes all day (ids never reused): the hub's
    per-game counters and commit times must not gain an entry per demo."""
    from app.games.live import LiveTable
    from app.web.follow import FollowOnlyServer

    store = GameStore(default_database())
    server = FollowOnlyServer(LiveTable(store), "127.0.0.1", 0)
    server.start()
    try:
        hub = server.hub
        kept = store.create_game("count99", {"players": ["Ann"]}, title="kept")
        demos = []
        for n in range(12):  # a morning of demos: made, played a little, deleted
            game_id = store.create_game("count99", {"players": ["Ann"]}, title=f"demo {n}")
            store.append(game_id, {"type": "note", "n": n})
            store.delete_game(game_id)
            demos.append(game_id)
        store.append(kept, {"type": "note"})  # the last change: when it has been heard, all have
        deadline = time.monotonic() + DEADLINE
        while hub.changes < len(demos) * 3 + 2:  # every commit heard (made, played, deleted; kept x2)
            assert time.monotonic() < deadline, hub.changes
            time.sleep(0.01)
        kept_ids = {*hub._generation, *hub._view_generation, *hub.commit_times}
        assert not kept_ids & set(demos), sorted(kept_ids)
        assert kept in hub.commit_times and kept in hub._generation  # a live game is still tracked
    finally:
        server.stop()
        store.close()


def urllib_get(url: str) -> int:
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as response:
        return int(response.status)


def test_a_new_language_keeps_one_phone_view_and_its_qr_code(phone: Any) -> None:
    from app import i18n

    server = phone.phone_view.server
    old = phone.exhibit_controller
    until(phone, lambda: current_view(phone).get("id") == getattr(old.loop.demo, "game_id", -1),
          "the phones to follow the first loop's demo", table_seconds=0.5)
    try:
        phone.switch_language("de")
        controller = phone.exhibit_controller
        loop = controller.loop
        assert controller is not old and loop is not old.loop
        assert phone.phone_view is not None and phone.phone_view.server is server
        assert loop.qr.texture is not None and loop.phone_title.text == "Auf dem Handy mitverfolgen"

        def follows_the_new_loop() -> bool:  # the game on show is asked of the new controller
            demo, live = loop.demo, phone.phone_view.live
            return (demo is not None and live.open_game() == demo.game_id  # not the old loop's fallback
                    and current_view(phone).get("id") == demo.game_id)

        until(phone, follows_the_new_loop, "the phones to follow the new loop's demo", table_seconds=0.5)
    finally:
        i18n.set_language("en")


@pytest.mark.slow
def test_a_phone_scanning_the_qr_code_follows_the_demo_then_the_visitor(phone: Any, tmp_path: Any,
                                                                        browsers: BrowserPool) -> None:
    """Headless Chromium at a phone's size opens the address the loop's QR code holds (decoded from
    the screen) and follows the board game's demo, then a visitor's game, with no link elsewhere."""
    from kivy.core.window import Window

    from tests.web_support import SIZES

    controller = phone.exhibit_controller
    loop = controller.loop
    frames(3)
    column = loop.phone
    shot = Window.screenshot(name=str(tmp_path / "loop.png"))
    url = decode_qr(shot, (*column.to_window(column.x, column.y), column.width, column.height))
    driver = browsers.take("de-DE,de", SIZES["phone"])
    try:
        driver.get(url)

        def board_pegs() -> int:
            return len(driver.find_elements("css selector", "circle.peg"))

        until(phone, lambda: loop.demo.kind == "board99" and board_pegs() >= 2,
              "the demo's pegs on the phone", table_seconds=1.0)
        assert "Das Spiel 99" in driver.find_element("id", "title").text  # the phone's language
        ARTIFACTS_WEB.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS_WEB / "exhibit-phone-demo-de.png"))
        links = [a.get_attribute("href") for a in driver.find_elements("css selector", "a")]
        assert all(link.startswith(url.rsplit("/v/", 1)[0]) for link in links), links  # nowhere else
        assert not any(link.rstrip("/").endswith(("/pair", "/history")) for link in links), links
        assert not driver.find_elements("css selector", "form, button")  # phones only watch
        controller.start_visitor()
        visitor = controller.visitor.visitor  # the visitor's name at the table ("Guest")
        until(phone, lambda: visitor in driver.find_element("id", "view").text and board_pegs() == 0,
              "the visitor's game (no peg yet) on the phone")
        driver.save_screenshot(str(ARTIFACTS_WEB / "exhibit-phone-visitor-de.png"))
    finally:
        browsers.give_back(driver)


def test_with_the_qr_code_the_staff_button_works_and_a_touch_on_the_code_starts_a_game(phone: Any) -> None:
    from tests.ui_support import tap

    controller = phone.exhibit_controller
    loop = controller.loop
    assert loop.staff_button.parent is loop.phone  # under the code, in its column
    tap(loop.staff_button)
    assert phone.ctx.manager.current == "exhibit_staff"
    controller.back_to_loop()
    frames(2)
    assert phone.ctx.manager.current == "home"
    tap(loop.qr)  # a touch anywhere but Staff: a visitor's game
    assert phone.ctx.manager.current == "exhibit_visitor"


def test_the_board_demos_in_between_state_reaches_the_phones(phone: Any) -> None:
    """What the table shows between commits in the board game's demo ("Mia: PLAY 57, waiting for the
    pegs") reaches the phones too: the demo's own referee is read, not the family's board screen."""
    loop = phone.exhibit_controller.loop
    live = phone.phone_view.live
    seen: list[dict[str, Any]] = []

    def in_between() -> bool:
        demo = loop.demo
        if demo is not None and demo.kind == "board99" and demo.game_id in live.transient:
            seen.append(live.transient[demo.game_id])
        return bool(seen)

    until(phone, in_between, "the demo's in-between state", table_seconds=0.25)
    assert seen[0].get("settling") or seen[0].get("held") or seen[0].get("thinking")
