"""The table's live sessions, reachable from other front ends (the web display) on the main thread.

A front end that runs in its own thread (the web server) never touches a session itself: it hands a
command to :meth:`LiveTable.submit`, which queues it; the thread that owns the sessions (Kivy's main
thread, or the headless loop of ``table99 web``) runs it in :meth:`LiveTable.drain`, exactly as
board drivers hand readings over a queue. So the referee and every session stay single-threaded,
and a paired tablet goes through the same session object as the touchscreen: one checked path that
commits to the store.

The owner tells the LiveTable how to find the session the table's screen has open
(:attr:`find_session`) and what to do after another front end changed it (:attr:`on_changed`: the
touchscreen redraws its current screen). A game the table does not have open is loaded from the
store for the command and dropped again, so nothing here keeps a second copy of a game.

No Kivy, no web library: both sides import this.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from app.games.count99.phones import PhoneTables
from app.store import GameStore

log = logging.getLogger(__name__)


@dataclass
class LiveTable:
    store: GameStore
    # (kind, game_id) -> the session the table's screen has open, or None
    find_session: Callable[[str, int], Any] = lambda kind, game_id: None
    # called on the main thread after a command from another front end changed (kind, game_id)
    on_changed: Callable[[str, int], None] = lambda kind, game_id: None
    # called from any thread after submit(): the owner schedules drain() on its main thread
    wake: Callable[[], None] = lambda: None
    # runs ``fn`` once the main thread has finished what it is doing (Kivy: after the next frame), so
    # another front end's work never lands in the middle of the table's own verdict; any thread
    later: Callable[[Callable[[], None]], None] = lambda fn: fn()
    # the web display's handle for the table's screen (address, QR, pairing, revoke), or None
    web: Any = None
    # the game the table's screen has open (set by the UI; called on the main thread), or None when
    # there is no screen (table99 web): then /live follows the unfinished game changed last
    open_game: Callable[[], int | None] | None = None
    # told (on the main thread) when the table's screen opens another game: the web display's /live
    show_listeners: list[Callable[[int | None], None]] = field(default_factory=list)
    # What the table shows between commits (the board game: pegs settling, announcements held until
    # the peg is judged), by game id; set on the main thread by the UI, read by the web display.
    # Never stored: it is gone once the play is judged and committed (or the app stops).
    transient: dict[int, dict[str, Any]] = field(default_factory=dict)
    # told (on the main thread) when a game's transient state changed
    transient_listeners: list[Callable[[int], None]] = field(default_factory=list)
    # The tables of Ninety Nine played from phones (app.games.count99.phones): the table's screen
    # creates them, the web server finds them here and drives their clock. Made from ``store``.
    phones: PhoneTables = None  # type: ignore[assignment]
    _commands: queue.Queue[tuple[Callable[[], Any], Future[Any]]] = field(default_factory=queue.Queue)

    def __post_init__(self) -> None:
        if self.phones is None:
            self.phones = PhoneTables(self.store)

    def set_transient(self, game_id: int, state: dict[str, Any] | None) -> None:
        """The UI (main thread): ``game_id``'s in-between state is now ``state`` (None: nothing in
        flight). Listeners hear of changes only, so the UI may call this every frame."""
        if (state or None) == self.transient.get(game_id):
            return
        if state:
            self.transient[game_id] = state
        else:
            self.transient.pop(game_id, None)
        for listener in list(self.transient_listeners):
            try:
                listener(game_id)
            except Exception:
                log.exception("a transient listener failed")

    def committed(self, game_id: int) -> None:
        """The web display's store listener, before it builds a view of the new commit: what was in
        between (the peg just judged, the tap that waited for it) is over. Dropped without telling
        the listeners (the commit re-sends the view anyway); the UI's next poll sets what is still
        in flight, so a phone never shows the old "pegs settling" line with the new view."""
        self.transient.pop(game_id, None)

    def submit(self, command: Callable[[], Any]) -> Future[Any]:
        """Queue ``command`` for the main thread; the future holds its result or its exception."""
        future: Future[Any] = Future()
        self._commands.put((command, future))
        self.wake()
        return future

    def drain(self, limit: int = 50) -> int:
        """Run queued commands (on the main thread); returns how many ran."""
        ran = 0
        while ran < limit:
            try:
                command, future = self._commands.get_nowait()
            except queue.Empty:
                break
            ran += 1
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(command())
            except Exception as exc:  # the web side turns it into a clear refusal
                future.set_exception(exc)
        return ran

    def screen_changed(self) -> None:
        """The UI calls this (main thread) when its screen changes: /live follows the open game."""
        if self.open_game is None:
            return
        game_id = self.open_game()
        for listener in list(self.show_listeners):
            try:
                listener(game_id)
            except Exception:
                log.exception("a show listener failed")

    def pending(self) -> int:
        return self._commands.qsize()
