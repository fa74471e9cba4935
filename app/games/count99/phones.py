"""Ninety Nine played from phones: every hand on its own phone, computers in any other seat.

Long because it is the whole session a front end drives (lobby, actions, the clock, views,
persistence) under one lock, whose invariants splitting would scatter; the options, seats, codes
and credentials are in :mod:`app.games.count99.phone_setup` (re-exported here).

How a front end uses it (the table's screen, the web display)
-------------------------------------------------------------
* **Where tables live.** One :class:`PhoneTables` registry per process, on the shared
  :class:`app.games.live.LiveTable` as ``live.phones``. The table's screen (Kivy thread) and the
  web server (its own thread) both use it; every method is thread-safe. A table the screen creates
  is found by the web server with ``live.phones.get(table_id)`` (and the other way round).
  ``live.phones.resume()`` (the web server calls it when it starts) loads every unfinished phones
  game from the store, so a restart mid-game loses nothing.
* **Create.** ``table = live.phones.create(PhoneOptions(variant=..., seats=("person", "person",
  "hard", "easy"), hand_size=3, tokens=9, manual_draw=False, turn_seconds=None))``: a table in
  its lobby. ``table.table_id`` names it in addresses: ``live.web.phones_url(table.table_id)`` is
  the join address for the QR code (``live.web`` is None while the web display is off); the TV's
  is the same with ``?tv``.
* **Seat codes.** ``table.host_view(_)["seats"][i]["code"]`` is seat i's join code (4 digits) for
  the host to read out; ``table.new_code(i)`` makes a fresh one (a burnt code, a lost phone: the
  old device's credential stops working once the new code is used).
* **Join.** ``credential = table.join(seat, code, name)`` (raises :class:`JoinRefused` with a
  one-line reason). The front end keeps ``credential`` in an HttpOnly, SameSite=Strict cookie and
  later finds the seat with ``table.seat_for(credential)`` (None: not a seat of this table). Five
  wrong codes for one seat burn its code: the host must make a new one. Only digests of
  credentials are stored.
* **Start.** ``table.start()`` once every person seat has joined (``host_view`` says who is
  missing); the game is then stored (kind ``count99``, mode ``phones``) and ``table.game_id`` set.
* **Views.** ``table.public_view(_)`` (the TV, viewers, the table's screen: no card of any hand),
  ``table.seat_view(seat, _)`` (that seat's hand and the public facts), ``table.host_view(_)``
  (seats, codes, joined or not; no hands). ``_`` is an ``app.games.views.Tr`` (the reader's
  language; the table's screen passes ``Tr(app.i18n.language())``). None of them takes the lock:
  ``table.snapshot`` is the latest public state as plain data, swapped whole on each change; the
  table's screen draws from it and never waits. ``table.sentences(seat, after_seq, _)`` are the
  events since ``after_seq`` as the terminal game says them (``seat`` None: as the table hears).
* **Actions.** ``table.play(seat, slot, choice)``, ``table.draw(seat)``, ``table.back(seat)`` (the
  owner is back after a time-out). Each raises :class:`PhoneError` (or a ``Count99Error``) with a
  one-line reason and changes nothing, or commits to the store *before* anything is shown.
* **Host.** ``table.set_seat(i, kind)`` (lobby), ``table.remove_seat(i)`` (a computer takes the
  seat, for good), ``table.set_turn_seconds(s)`` (None: no limit), ``live.phones.forget(id)``.
* **Clock.** ``live.phones.tick()`` plays computer turns (one per ``computer_pause`` seconds) and
  hands an idle seat to the computer once its ``turn_seconds`` ran out. The web server calls it
  from its own loop (in an executor: a commit writes to disk), never the Kivy thread.
* **Changes.** ``live.phones.listeners`` are called with the table after every change, in the
  thread that made it: a listener only schedules work (the web server wakes its per-seat streams;
  the table's screen would ``Clock.schedule_once`` a redraw), it never blocks.

Every accepted action is committed before it is shown: ``load_session`` (app.games.count99.game)
rebuilds a stored phones game through the same rules, ``record_of`` gives its record, and
``table99 replay`` replays it to the same winner. What is *not* kept over a restart: the lobby
(nothing is stored before ``start``), seat codes (the host makes new ones), who was away and the
turn clock (it starts afresh). The event counter (``seq``) is kept going: each load starts past
every number served before it, so a phone's old Last-Event-ID hears every sentence made since.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from app.games.count99.phone_setup import (
    CODE_DIGITS,
    CODE_TRIES,
    COMPUTER_LEVELS,
    KIND,
    MODE,
    NAME_MAX,
    PAUSE_RANGE,
    PERSON,
    PRIVATE_SETUP,
    SEAT_KINDS,
    STAND_IN,
    TABLE_CODE_TRIES,
    TURN_SECONDS_RANGE,
    JoinRefused,
    PhoneError,
    PhoneOptions,
    Seat,
    check_turn_seconds,
    clean_name,
    csrf_for,
    digest,
    new_code,
    shareable_setup,
)
from app.games.count99.seeds import new_seed
from app.games.count99.texts import card_label, card_name, describe, direction_name, hand_text, tokens_text
from app.store import GameStore
from rules.count99.cards import choices_for
from rules.count99.deal import CardDrawn, CardGame
from rules.count99.errors import Count99Error
from rules.count99.players import ComputerPlayer, make_player
from rules.count99.record import action_from_dict, setup_from_record, setup_to_dict
from rules.count99.table import (
    CardPlayed,
    MilestoneLanded,
    Setup,
    Table,
    TokensLost,
)

log = logging.getLogger(__name__)

SEQ_PER_START = 1_000_000_000  # a loaded game's seq starts at (times loaded) x this: past any before
LOG_KEPT = 400  # events kept for sentences (a phone that was away longer gets a fresh view)
LAST_PLAYS = 8
MAX_TABLES = 16  # tables kept in memory; beyond, the oldest finished (or never started) is dropped


class PhoneTable:
    """One table of phones: the lobby, then the game. All state changes hold ``self.lock``."""

    def __init__(self, store: GameStore, options: PhoneOptions, table_id: str, *,
                 clock: Callable[[], float] = time.monotonic,
                 computer_name: Callable[[int], str] = lambda n: f"Computer {n}",
                 on_change: Callable[[PhoneTable], None] = lambda table: None) -> None:
        options.check()
        self.store = store
        self.options = options
        self.table_id = table_id
        self.clock = clock
        self.computer_name = computer_name
        self.on_change = on_change
        self.lock = threading.RLock()
        self._codes = secrets.SystemRandom()
        self.seats: list[Seat] = [Seat(kind) for kind in options.seats]
        self.game: CardGame | None = None
        self.game_id: int | None = None
        self.seq = 0  # bumped on every change; views and sentences carry it
        self.moved_seq = 0  # the seq of the last change to the game itself (a play, a draw, the deal)
        self.wrong_codes = 0  # wrong join codes at this table since the host last made a new code
        self.log: deque[tuple[int, object]] = deque(maxlen=LOG_KEPT)
        self.computers: dict[int, ComputerPlayer] = {}
        self.turn_started = clock()
        self.next_computer_at = clock()
        self._stored = 0
        self._loads = 0  # how many times this stored game was loaded (restarts): seq continues past them
        self._last_actor: int | None = None  # who played last (their turn may come straight back)
        self._name_computers()
        for seat in self.seats:
            if seat.person:
                seat.code = new_code(self._codes)
        self.snapshot: dict[str, Any] = {}
        # Each seat's cards as the last change left them: only seat_view reads it, one seat at a time.
        self._private: tuple[Any, ...] | None = None
        self._log_snapshot: tuple[tuple[int, object], ...] = ()
        self._publish()

    # -- the lobby ----------------------------------------------------------------------------------
    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.table.over

    def _name_computers(self) -> None:
        """Computers are "Computer 1", "Computer 2", ... skipping any name a person took (a person
        may call themselves "Computer 2"; the next computer is then "Computer 3", not a clash)."""
        taken = {s.name.casefold() for s in self.seats if (s.person or s.was_person) and s.name}
        number = 0
        for seat in self.seats:
            if not seat.person and not seat.was_person:
                number += 1
                while self.computer_name(number).casefold() in taken:
                    number += 1
                seat.name = self.computer_name(number)

    def set_seat(self, index: object, kind: str) -> None:
        """The host (lobby only): seat ``index`` is a person's, or an easy or hard computer's."""
        with self.lock:
            self._seat(index)
            if self.started:
                raise PhoneError("the game has started: remove a seat to give it to a computer")
            if kind not in SEAT_KINDS:
                raise PhoneError(f"a seat is one of {', '.join(SEAT_KINDS)}, not {kind!r}")
            assert isinstance(index, int)
            seats = tuple(kind if i == index else s.kind for i, s in enumerate(self.seats))
            options = replace(self.options, seats=seats)
            options.check()  # before it is kept: a refused change leaves the table as it was
            self.options = options
            self.seats[index] = Seat(kind, code=new_code(self._codes) if kind == PERSON else None)
            self._name_computers()
            self._changed()

    def set_options(self, **changes: Any) -> None:
        """The host (lobby only): change hand size, tokens, variant, draw, pause or turn time."""
        with self.lock:
            if self.started and set(changes) - {"turn_seconds"}:
                raise PhoneError("the game has started: only the turn time can change")
            if "seats" in changes:
                raise PhoneError("change seats one at a time with set_seat")
            options = replace(self.options, **changes)
            options.check()
            self.options = options
            if self.started:
                self._persist_setup()
            self._changed()

    def set_turn_seconds(self, seconds: int | None) -> None:
        self.set_options(turn_seconds=seconds)
        with self.lock:
            self.turn_started = self.clock()

    def new_code(self, index: object) -> str:
        """The host: a fresh join code for a person's seat (its old code, burnt or not, is gone)."""
        with self.lock:
            seat = self._seat(index)
            if not seat.person:
                raise PhoneError("only a person's seat has a code")
            seat.code, seat.burnt, seat.wrong = new_code(self._codes), False, 0
            self.wrong_codes = 0  # the host acted: the table takes joins again
            self._changed()
            return seat.code

    def join(self, index: object, code: object, name: object) -> str:
        """A phone takes seat ``index`` (0-based) with its code and a name; returns the credential."""
        with self.lock:
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.seats):
                raise JoinRefused("there is no such seat")
            seat = self.seats[index]
            if not seat.person:
                raise JoinRefused("a computer plays this seat")
            if seat.burnt or seat.code is None:
                raise JoinRefused("this seat's code is used up: ask the host for a new one")
            if self.wrong_codes >= TABLE_CODE_TRIES:  # even the right code: guessing has to stop
                raise JoinRefused("too many wrong codes at this table: ask the host for a new code")
            typed = code.strip().encode() if isinstance(code, str) else b""
            if not hmac.compare_digest(typed, seat.code.encode()):
                seat.wrong += 1
                self.wrong_codes += 1
                if seat.wrong >= CODE_TRIES:
                    seat.code, seat.burnt = None, True
                    self._changed()  # the host's page shows the burnt code and the count
                    raise JoinRefused(
                        "too many wrong codes: this seat's code is burnt; ask the host for a new one")
                self._changed()
                raise JoinRefused(f"wrong code ({CODE_TRIES - seat.wrong} tries left for this seat)")
            if self.started:
                cleaned = seat.name  # the record names the seat: a rejoin keeps its name
            else:
                cleaned = clean_name(name)
                taken = {s.name.casefold() for i, s in enumerate(self.seats) if i != index and s.name}
                if cleaned.casefold() in taken:
                    raise JoinRefused("another seat has this name: choose another")
                seat.name = cleaned
            credential = secrets.token_urlsafe(24)
            seat.credential = digest(credential)
            seat.code, seat.wrong, seat.away = None, 0, False
            if self.started:
                self._persist_setup()
            self._changed()
            return credential

    def seat_for(self, credential: str | None) -> int | None:
        """The seat a device credential holds at this table, or None."""
        if not credential or len(credential) > 200:
            return None
        wanted = digest(credential)
        for index, seat in enumerate(self.seats):
            if seat.credential is not None and seat.person and hmac.compare_digest(seat.credential, wanted):
                return index
        return None

    def missing(self) -> list[int]:
        """Person seats nobody has joined yet: the game cannot start while there are any."""
        return [i for i, s in enumerate(self.seats) if s.person and not s.joined]

    def start(self, seed: int | None = None, title: str = "") -> None:
        """The host starts the game: stored from here on (and dealt)."""
        with self.lock:
            if self.started:
                raise PhoneError("the game has already started")
            if self.missing():
                missing = self.missing()
                if len(missing) == 1:
                    raise PhoneError(f"seat {missing[0] + 1} has not joined yet (or give it to a computer)")
                names = ", ".join(str(i + 1) for i in missing)
                raise PhoneError(f"seats {names} have not joined yet (or give them to a computer)")
            options = self.options
            seed = new_seed() if seed is None else seed
            setup = Setup(options.variant, tuple(s.name for s in self.seats), tokens=options.tokens,
                          hand_size=options.hand_size)
            game = CardGame(setup, seed=seed, manual_draw=options.manual_draw)
            self.game_id = self.store.create_game(KIND, self._stored_setup(setup, seed),
                                                  title or ", ".join(setup.players))
            self.game = game
            self._make_computers()
            self._log(game.advance())
            self._save()
            self._turn_began()
            self._changed(moved=True)

    # -- stored form --------------------------------------------------------------------------------
    def _stored_setup(self, setup: Setup, seed: int) -> dict[str, Any]:
        return {**setup_to_dict(setup), "mode": MODE, "seed": seed, "manual_draw": self.options.manual_draw,
                "table": self.table_id, "turn_seconds": self.options.turn_seconds,
                "computer_pause": self.options.computer_pause, "loads": self._loads,
                "seats": [{"kind": s.kind, "credential": s.credential, "was_person": s.was_person}
                          for s in self.seats]}

    def _persist_setup(self) -> None:
        assert self.game is not None and self.game_id is not None
        self.store.update_setup(self.game_id, self._stored_setup(self.game.setup, self.game.seed))

    @classmethod
    def load(cls, store: GameStore, game_id: int, *, clock: Callable[[], float] = time.monotonic,
             on_change: Callable[[PhoneTable], None] = lambda table: None) -> PhoneTable:
        """A stored phones game as it was (seat credentials, computers, turn time); the clock
        starts afresh. Raises KeyError (no such game) or PhoneError (not a phones game)."""
        stored = store.load(game_id)
        if stored.kind != KIND or stored.setup.get("mode") != MODE:
            raise PhoneError(f"game {game_id} is not a Ninety Nine game played with phones")
        setup = setup_from_record(stored.setup)
        raw_seats = stored.setup.get("seats")
        if not isinstance(raw_seats, list) or len(raw_seats) != len(setup.players):
            raise PhoneError(f"game {game_id}: its seats are not readable")
        kinds = tuple(str(s.get("kind")) if isinstance(s, dict) else "" for s in raw_seats)
        options = PhoneOptions(
            variant=setup.variant, seats=kinds if PERSON in kinds else (PERSON, *kinds[1:]),
            hand_size=setup.hand_size, tokens=setup.tokens, manual_draw=bool(stored.setup.get("manual_draw")),
            turn_seconds=stored.setup.get("turn_seconds"),
            computer_pause=stored.setup.get("computer_pause", 1.0))
        table = cls(store, options, str(stored.setup.get("table") or f"g{game_id}"), clock=clock,
                    on_change=on_change)
        for index, (seat, raw) in enumerate(zip(table.seats, raw_seats, strict=True)):
            seat.kind = kinds[index]
            seat.name = setup.players[index]
            seat.code = None
            credential = raw.get("credential")
            seat.credential = credential if isinstance(credential, str) and seat.person else None
            seat.was_person = bool(raw.get("was_person"))
        game = CardGame.replay(setup, int(stored.setup["seed"]), options.manual_draw, list(stored.actions))
        table.game, table.game_id, table._stored = game, game_id, len(stored.actions)
        # The event counter goes on past every seq served before the restart (a phone reconnecting
        # with its old Last-Event-ID then hears every sentence made since): each load starts a new
        # block of SEQ_PER_START numbers, the count of loads kept in the stored setup.
        loads = stored.setup.get("loads", 0)
        known = isinstance(loads, int) and not isinstance(loads, bool) and loads >= 0
        table._loads = (loads if known else 0) + 1
        table.seq = table._loads * SEQ_PER_START
        if not game.table.over:  # a finished game is only looked at: loading it writes nothing
            table._persist_setup()
        table._make_computers()
        table.log.extend((0, event) for event in _public_events(setup, list(stored.actions)))
        with table.lock:
            if not game.table.over and not table._may_draw_first():  # automatic, perhaps not yet committed
                table._log(game.advance())
                table._save()
            table._turn_began()
            table._changed(notify=False, moved=True)
        return table

    # -- actions --------------------------------------------------------------------------------------
    def _seat(self, index: object) -> Seat:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.seats):
            raise PhoneError("there is no such seat")
        return self.seats[index]

    def _playing(self) -> CardGame:
        if self.game is None:
            raise PhoneError("the game has not started yet")
        if self.game.table.over:
            raise PhoneError("the game is over")
        return self.game

    def _person(self, index: object) -> Seat:
        seat = self._seat(index)
        if not seat.person:
            raise PhoneError("a computer plays this seat now")
        return seat

    def play(self, index: int, slot: object, choice: object = None, seen: object = None) -> None:
        """The person in seat ``index`` plays the card in ``slot`` (0-based), ``choice`` for an Ace/10.

        ``seen`` is the ``seq`` of the view the play was chosen from (the web page always sends it):
        a play chosen before the game last moved is refused, so a double tap or a held key that
        repeats the request cannot play a second card when the turn comes straight back (a Jack)."""
        with self.lock:
            game = self._playing()
            seat = self._person(index)
            if isinstance(slot, bool) or not isinstance(slot, int) or slot < 0:  # -1 is no "slot 0"
                raise PhoneError("'slot' is the card's place in your hand")
            if choice is not None and (isinstance(choice, bool) or not isinstance(choice, int)):
                raise PhoneError("'choice' is a whole number or left out")
            if seen is not None:
                if isinstance(seen, bool) or not isinstance(seen, int):
                    raise PhoneError("'seq' is the number of the view you chose from")
                if seen < self.moved_seq:
                    raise PhoneError("the game moved on since you chose: look at your hand again")
            events: list[object] = list(game.play(index, slot, choice))  # refused: nothing changed
            seat.away = False  # the owner played: the computer stops playing the seat (published below)
            self._after_play(index, events)

    def draw(self, index: int) -> None:
        with self.lock:
            game = self._playing()
            seat = self._person(index)
            events = list(game.draw(index))  # refused: nothing changed, "away" included
            seat.away = False
            self._save()
            if game.table.turn == index and not game.can_draw(index):
                self._last_actor = None
                events += game.advance()
                self._save()
            self._log(events)
            self._changed(moved=True)

    def back(self, index: int) -> None:
        """The owner of a timed-out seat acts again: the computer stops playing it."""
        with self.lock:
            seat = self._person(index)
            if seat.away:
                seat.away = False
                self._turn_began()
                self._changed()

    def remove_seat(self, index: object) -> None:
        """The host: a computer takes the person's seat for the rest of the game (their device too)."""
        with self.lock:
            seat = self._person(index)
            if not self.started:
                self.set_seat(index, STAND_IN)
                return
            seat.kind, seat.credential, seat.code, seat.away = STAND_IN, None, None, False
            seat.was_person, seat.burnt = True, False
            self._make_computers()
            self._persist_setup()
            self.next_computer_at = self.clock()
            self._changed()

    def tick(self) -> bool:
        """The clock: at most one computer turn (computers, away seats, a turn time that ran out).
        Returns whether anything changed. The web server's loop calls this a few times a second."""
        with self.lock:
            game = self.game
            if game is None or game.table.over or game.table.turn is None:
                return False
            index = game.table.turn
            seat = self.seats[index]
            now = self.clock()
            limit = self.options.turn_seconds
            if seat.person and not seat.away:
                if limit is None or now - self.turn_started < limit:
                    return False
                seat.away = True  # its time ran out: the computer plays it until its owner is back
                log.info("phones %s: seat %d timed out; the computer plays it", self.table_id, index + 1)
            elif now < self.next_computer_at:
                return False
            events: list[object] = []
            while game.can_draw(index):  # a computer never forgets to draw
                events += game.draw(index)
            events += game.advance()  # "no cards" / "no safe card", checked once it had its chance
            if game.table.turn == index and game.hands[index]:
                player = self.computers.get(index) or make_player(STAND_IN, game.seed * 101 + index)
                slot, choice = player.choose(game.view(index))
                events += game.play(index, slot, choice)
                while game.can_draw(index):
                    events += game.draw(index)
            self._after_play(index, events)
            return True

    def _after_play(self, index: int, events: list[object]) -> None:
        game = self.game
        assert game is not None
        self._last_actor = index if self.seats[index].person and not self.seats[index].away else None
        self._save()
        if not self._may_draw_first():
            events += game.advance()
            self._save()
        self._log(events)
        self._turn_began()
        self._changed(moved=True)

    def _may_draw_first(self) -> bool:
        """Manual draw and the turn came straight back (a Jack or Skip with two players): the person
        may draw before "no cards" or "no safe card" is checked, as in the game against the computer."""
        game = self.game
        if game is None or not game.manual_draw:
            return False
        turn = game.table.turn
        return turn is not None and turn == self._last_actor and self.seats[turn].person \
            and not self.seats[turn].away and game.can_draw(turn)

    def _make_computers(self) -> None:
        assert self.game is not None
        self.computers = {i: make_player(s.kind, self.game.seed * 101 + i)
                          for i, s in enumerate(self.seats) if not s.person}

    def _save(self) -> None:
        """Commit what the game added (and the result) before anything is shown."""
        game = self.game
        assert game is not None and self.game_id is not None
        new = list(game.actions[self._stored:])
        if new or game.table.over:
            finished = None
            if game.table.over and game.table.winner is not None:
                finished = f"{game.setup.players[game.table.winner]} won"
            self.store.extend(self.game_id, new, finished=finished)
        self._stored = len(game.actions)

    def _turn_began(self) -> None:
        now = self.clock()
        self.turn_started = now
        self.next_computer_at = now + self.options.computer_pause

    def _log(self, events: list[Any]) -> None:
        for event in events:
            self.log.append((self.seq + 1, event))

    def _changed(self, notify: bool = True, moved: bool = False) -> None:
        self.seq += 1
        if moved:
            self.moved_seq = self.seq
        self._publish()
        if notify:
            try:
                self.on_change(self)
            except Exception:  # a front end's trouble never undoes a commit
                log.exception("a phones listener failed")

    # -- views --------------------------------------------------------------------------------------
    def _publish(self) -> None:
        """The public state as plain data (no card of any hand), swapped in whole: lock-free readers."""
        game = self.game
        seats = [{"index": i, "name": s.name, "kind": s.kind, "joined": s.joined, "away": s.away,
                  "was_person": s.was_person} for i, s in enumerate(self.seats)]
        state: dict[str, Any] = {"table": self.table_id, "seq": self.seq, "started": game is not None,
                                 "game_id": self.game_id, "variant": self.options.variant.value,
                                 "hand_size": self.options.hand_size, "tokens_each": self.options.tokens,
                                 "manual_draw": self.options.manual_draw,
                                 "turn_seconds": self.options.turn_seconds, "seats": seats}
        if game is not None:
            table = game.table
            plays = [{"seat": e.seat, "card": e.card, "chosen": e.chosen, "count": e.after}
                     for _seq, e in self.log if isinstance(e, CardPlayed)][-LAST_PLAYS:]
            for i, seat_state in enumerate(seats):
                seat_state["tokens"] = table.tokens[i]
                seat_state["cards"] = len(game.hands[i])
                seat_state["out"] = not table.is_in(i)
            state.update(count=table.count, direction=table.direction, turn=table.turn,
                         round=table.round_no, winner=table.winner, over=table.over, plays=plays)
            self._private = (game.setup, tuple(tuple(h) for h in game.hands),
                             tuple(game.can_draw(i) for i in range(len(self.seats))), table.count,
                             table.direction, table.tokens, table.turn, table.over)
        self.snapshot = state
        self._log_snapshot = tuple(self.log)  # what sentences() reads: never the deque being appended to

    def public_view(self, _: Any) -> dict[str, Any]:
        """What the TV and any viewer see, in ``_``'s language: never a card of a hand."""
        state = self.snapshot
        view = dict(state)
        names = [s["name"] for s in state["seats"]]
        if state["started"]:
            view["direction_text"] = direction_name(state["direction"], _)
            view["turn_name"] = names[state["turn"]] if state["turn"] is not None else None
            view["plays"] = [{**p, "name": names[p["seat"]], "label": _play_label(p, _)}
                             for p in state["plays"]]
            if state["winner"] is not None:
                view["result"] = _("{name} wins the game!", name=names[state["winner"]])
        return view

    def seat_view(self, index: int, _: Any) -> dict[str, Any]:
        """What seat ``index``'s phone shows: the public view plus its own hand, nothing else.
        Built from what the last change published, without the lock (a commit never blocks it)."""
        seat = self._seat(index)
        private = self._private
        view = self.public_view(_)
        view["you"] = index
        view["away"] = seat.away
        hand: list[dict[str, Any]] = []
        if private is not None:
            setup, cards, can_draw, count, direction, tokens, turn, over = private
            own = cards[index]
            for slot, card in enumerate(own):
                options = choices_for(setup.variant, card, count)
                hand.append({"slot": slot, "card": card, "label": card_label(card, _),
                             "name": card_name(card, _),
                             "choices": list(options) if len(options) > 1 else []})
            view["your_turn"] = turn == index and not over
            view["can_draw"] = can_draw[index]
            view["hand_text"] = hand_text(own, _)
            view["tokens_text"] = tokens_text(setup, tokens, index, _)
            view["count_text"] = _("Count {count}, {direction}.", count=count,
                                   direction=direction_name(direction, _))
            view["prompt"] = _("Your turn. Count {count}.", count=count) if view["your_turn"] else ""
        view["hand"] = hand
        return view

    def host_view(self, _: Any) -> dict[str, Any]:
        """The host's page: the public view plus each seat's code; no card of any hand. Lock-free
        like the other views (the codes are read as they are now; the next change re-sends them)."""
        view = self.public_view(_)
        view["seats"] = [{**s, "code": seat.code, "burnt": seat.burnt}
                         for s, seat in zip(view["seats"], list(self.seats), strict=True)]
        view["missing"] = self.missing()
        view["wrong_codes"] = self.wrong_codes
        view["joins_locked"] = self.wrong_codes >= TABLE_CODE_TRIES
        return view

    def sentences(self, index: int | None, after_seq: int, _: Any) -> list[tuple[int, str]]:
        """The events after ``after_seq`` as seat ``index`` hears them (the terminal game's
        sentences; a card drawn is heard by its own seat only); (seq, sentence) pairs."""
        game = self.game
        if game is None:
            return []
        setup = game.setup
        found: list[tuple[int, str]] = []
        for seq, event in self._log_snapshot:
            if seq <= after_seq:
                continue
            if isinstance(event, CardDrawn) and event.seat != index:
                continue
            text = describe(event, setup, index, _)
            if text:
                found.append((seq, text))
        return found

    def sound_for(self, index: int, after_seq: int) -> str | None:
        """Which sound the phone of seat ``index`` plays for the events after ``after_seq``:
        "bust", "milestone", or None (its own turn's sound comes from the view's ``your_turn``)."""
        sound = None
        for seq, event in self._log_snapshot:
            if seq <= after_seq:
                continue
            if isinstance(event, TokensLost) and event.seat == index:
                sound = "bust"
            elif isinstance(event, MilestoneLanded) and sound is None:
                sound = "milestone"
        return sound


def _public_events(setup: Setup, actions: list[dict[str, Any]]) -> list[object]:
    """The public events of stored actions (the count keeper's: no hand, no card drawn), so a table
    loaded after a restart shows its last plays again. Sequence 0: no phone hears them twice."""
    table = Table.new(setup)
    events: list[object] = []
    for data in actions:
        action = action_from_dict(data, setup)
        if action is not None:
            table, new = table.apply(action)
            events.extend(new)
    return events[-LOG_KEPT:]


def _play_label(play: dict[str, Any], _: Any) -> str:
    label = card_name(play["card"], _)
    if play.get("chosen") is not None:
        label = _("{card} as {value}", card=label, value=f"{play['chosen']:+d}")
    return label


@dataclass
class PhoneTables:
    """The process-wide registry of phone tables (thread-safe): see the module docstring."""

    store: GameStore
    clock: Callable[[], float] = time.monotonic
    listeners: list[Callable[[PhoneTable], None]] = field(default_factory=list)
    _tables: dict[str, PhoneTable] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _resumed: bool = False
    _unloadable: dict[int, str] = field(default_factory=dict)  # game id -> why resume() could not load it

    def unloadable(self, game_id: int) -> str | None:
        """Why :meth:`resume` could not load stored game ``game_id`` (English, as the games layer
        says it: a front end translates), or None."""
        with self._lock:
            return self._unloadable.get(game_id)

    def _tell(self, table: PhoneTable) -> None:
        for listener in list(self.listeners):
            try:
                listener(table)
            except Exception:
                log.exception("a phones listener failed")

    def create(self, options: PhoneOptions,
               computer_name: Callable[[int], str] = lambda n: f"Computer {n}") -> PhoneTable:
        table_id = secrets.token_hex(4)
        table = PhoneTable(self.store, options, table_id, clock=self.clock, computer_name=computer_name,
                           on_change=self._tell)
        with self._lock:
            self._tables[table_id] = table
            done = [t for t in self._tables.values() if t.over or not t.started]
            while len(self._tables) > MAX_TABLES and done:  # the oldest finished or never started
                self._tables.pop(done.pop(0).table_id, None)
        self._tell(table)
        return table

    def get(self, table_id: str) -> PhoneTable | None:
        with self._lock:
            return self._tables.get(table_id)

    def tables(self) -> list[PhoneTable]:
        with self._lock:
            return list(self._tables.values())

    def forget(self, table_id: str) -> None:
        with self._lock:
            self._tables.pop(table_id, None)

    def resume(self) -> list[str]:
        """Load every unfinished phones game from the store (once); returns one line per game that
        could not be loaded (it stays in the store, untouched)."""
        with self._lock:
            if self._resumed:
                return []
            self._resumed = True
            known = {t.game_id for t in self._tables.values()}
        problems: list[str] = []
        for summary in self.store.unfinished(KIND):
            if summary.id in known:
                continue
            try:
                if self.store.load(summary.id).setup.get("mode") != MODE:
                    continue
                table = PhoneTable.load(self.store, summary.id, clock=self.clock, on_change=self._tell)
            except (PhoneError, Count99Error, KeyError, ValueError, TypeError) as exc:
                problems.append(f"phones game {summary.id} cannot be resumed: {exc}")
                with self._lock:
                    self._unloadable[summary.id] = str(exc)
                continue
            with self._lock:
                self._tables.setdefault(table.table_id, table)
        return problems

    def tick(self) -> list[PhoneTable]:
        """Run every table's clock once; returns the tables that changed."""
        changed = []
        for table in self.tables():
            try:
                if table.tick():
                    changed.append(table)
            except Exception:  # one table's bug must not stop the others' clocks
                log.exception("phones table %s: its clock failed", table.table_id)
        return changed


__all__ = [  # the setup's names are re-exported: front ends import everything from here
    "CODE_DIGITS", "CODE_TRIES", "COMPUTER_LEVELS", "KIND", "MAX_TABLES", "MODE", "NAME_MAX", "PAUSE_RANGE",
    "PERSON", "PRIVATE_SETUP", "SEAT_KINDS", "STAND_IN", "TABLE_CODE_TRIES", "TURN_SECONDS_RANGE",
    "JoinRefused", "PhoneError", "PhoneOptions", "PhoneTable", "PhoneTables", "Seat", "check_turn_seconds",
    "clean_name", "csrf_for", "digest", "new_code", "shareable_setup",
]
