"""How the table's screen reaches Ninety Nine with phones: the registry of phone tables, the address
phones join at, the host's actions off the Kivy thread, and one line when the web display is off.

The phones join through the web display, so the registry used is the one on the web display's
:class:`~app.games.live.LiveTable` (``ctx.extras["live"]``, set by ``table99 run``): the web server
finds the table there, serves its phones and drives its clock (``live.phones.tick()``). Without a
running web display there is nobody to join; the screens say so in one line (:func:`web_missing`)
and never open a table.

Both host screens (lobby and game) follow their table the same way (:class:`FollowsTable`): a
Clock poll while on show, a redraw when the table's snapshot moved on.

The host's actions (start, a new code, a seat to a computer, the turn time) take the table's lock
and some commit to the store; a commit by the web thread may hold that lock for a disk write. So
they run on one worker thread (:class:`HostActions`) and their outcome comes back on Kivy's clock:
the table's screen never waits on the web thread. The web server is reached duck-typed through
``live.web`` only: this front end never imports another one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kivy.clock import Clock

from app.games.count99.phones import PhoneError
from app.games.count99.refusals import known_text
from app.i18n import tr
from rules.count99.errors import Count99Error

log = logging.getLogger(__name__)
POLL = 0.2  # seconds between the host screens' looks at the table's snapshot


def live_of(ctx: Any) -> Any:
    """The web display's LiveTable, or None (the web display is off or did not start)."""
    return ctx.extras.get("live")


def web_of(ctx: Any) -> Any:
    live = live_of(ctx)
    return getattr(live, "web", None) if live is not None else None


def registry(ctx: Any) -> Any:
    """``live.phones`` when the web display runs (phones can join), else None."""
    live = live_of(ctx)
    if live is None or getattr(live, "web", None) is None:
        return None
    return getattr(live, "phones", None)


def web_missing(ctx: Any) -> str:
    """One line when phones cannot join (what is wrong and what to do), or "" when they can."""
    if registry(ctx) is not None:
        return ""
    problem = ctx.extras.get("web_problem")
    if problem:  # aiohttp missing, the port taken: the start-up's own line says what to do
        return tr("Phones cannot join: the web display did not start ({problem}).", problem=problem)
    return tr("Phones cannot join: the web display is off. Set [web] enabled = true in the config "
              "and restart Table99.")


def join_url(web: Any, table_id: str) -> str:
    """The address a phone opens to join table ``table_id`` (the QR code's text)."""
    made = getattr(web, "phones_url", None)
    if callable(made):
        return str(made(table_id))
    base = str(web.view_url())  # .../v/TOKEN/live: the phones' pages live beside it
    return f"{base.rsplit('/live', 1)[0]}/phones/{table_id}"


def refusal_text(refusal: BaseException | str) -> str:
    """A refusal of the games layer (an exception, or its English line) in the reader's language
    where the catalog or a template knows it."""
    reason = str(refusal)
    return known_text(reason, tr) or tr(reason)


class HostActions:
    """The host's actions on one worker thread; ``done(error_text)`` runs on Kivy's clock after each
    (``""``: it was done). One at a time, in the order tapped."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table99-phones-host")
        self.pending = 0  # actions not finished yet (tests wait for 0)

    def run(self, action: Callable[[], Any], done: Callable[[str], Any] | None = None) -> None:
        self.pending += 1

        def work() -> None:
            try:
                action()
                text = ""
            except (PhoneError, Count99Error) as exc:  # refused: one line, nothing changed
                text = refusal_text(exc)
            except Exception as exc:  # a store that cannot write: said, logged, the app goes on
                log.exception("a host action on a phones table failed")
                text = tr("The table could not do it: {reason}",
                          reason=refusal_text(exc) or type(exc).__name__)
            Clock.schedule_once(lambda _dt: self._finish(done, text), 0)

        self._pool.submit(work)

    def _finish(self, done: Callable[[str], Any] | None, text: str) -> None:
        self.pending -= 1
        if done is not None:
            done(text)


class FollowsTable:
    """What the lobby and the game screen share (mixed in before ``Screen``): ``open(table)`` shows a
    table afresh; on show, a 5 Hz Clock poll looks at ``table.snapshot`` (swapped in whole by the
    games layer, so read without the table's lock: a commit in the web thread never holds up a
    frame) and redraws when its ``seq`` moved on, clearing the last refusal; off screen, no poll (a
    hidden screen would redraw for nobody). The screen draws in ``refresh()`` and may take the table
    elsewhere in ``moved_on`` (the lobby, once a phone's host started the game)."""

    session: Any = None  # the PhoneTable (named as the shell's /live lookup expects)
    shown_seq: int | None = None  # the snapshot on show
    note = ""  # a refused host action, shown until the next change
    _poll: Any = None

    def refresh(self) -> None:
        raise NotImplementedError

    def moved_on(self, table: Any, snapshot: dict[str, Any]) -> bool:
        """True when the screen handed ``table`` on and must not redraw it."""
        return False

    def open(self, table: Any) -> None:
        self.session = table
        self.shown_seq = None
        self.note = ""
        self.refresh()

    def on_pre_enter(self, *args: Any) -> None:
        self.refresh()
        if self._poll is None:
            self._poll = Clock.schedule_interval(self.poll, POLL)

    def on_leave(self, *args: Any) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def poll(self, _dt: float = 0) -> None:
        table = self.session
        if table is None:
            return
        snapshot = table.snapshot
        if not self.moved_on(table, snapshot) and snapshot.get("seq") != self.shown_seq:
            self.note = ""
            self.refresh()

    def action_done(self, text: str) -> None:
        """A host action's outcome (HostActions' ``done``): its refusal, or "" when it was done."""
        self.note = text
        self.refresh()
