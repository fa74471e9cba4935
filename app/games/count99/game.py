"""Ninety Nine games the app keeps: stored in the GameStore, rebuilt from it, exported as records.

Two kinds of session share the store kind ``count99``; the stored setup's ``mode`` tells them apart:

* :class:`KeptGame` (``"table"``): a real deck on a real table. Players tap the card just played;
  the app keeps the count, turns, tokens. A new round starts by itself when one ends (its start
  is an action, so undoing the round-ending card also takes back the new round).
* :class:`ComputerGame` (``"computer"``): the person in seat 0 against computer players, with the
  deck and hands of :class:`rules.count99.deal.CardGame` (seeded, so the stored actions rebuild it).
* :class:`app.games.count99.phones.PhoneTable` (``"phones"``): several people, each on their own
  phone, and computers; the same deck and hands, the seats' credentials stored as digests.

Every accepted action is committed before the screen shows it, so a crash or a power cut loses
nothing: loading replays the stored actions through the same rules. No Kivy here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app.games.count99.seeds import new_seed
from app.games.count99.texts import describe
from app.i18n import tr
from app.store import GameStore, StoredGame
from rules.count99.deal import CardGame
from rules.count99.errors import Count99Error
from rules.count99.players import ComputerPlayer, make_player
from rules.count99.record import action_from_dict, action_to_dict, setup_from_record, setup_to_dict, to_record
from rules.count99.table import (
    Eliminated,
    GameWon,
    MilestoneLanded,
    MilestonePassed,
    NoCards,
    NoSafeCard,
    PlayCard,
    RoundEnded,
    RoundStarted,
    Setup,
    StartRound,
    Table,
    TokensLost,
)

if TYPE_CHECKING:
    from app.games.count99.phones import PhoneTable

KIND = "count99"
# Events worth saying aloud: the count itself is on screen and asked for on demand.
ANNOUNCED = (RoundStarted, MilestoneLanded, MilestonePassed, TokensLost, Eliminated, RoundEnded, GameWon)


def record_of(stored: StoredGame) -> dict[str, Any]:
    """A stored game as its ``table99/count99`` record (draws left out, rounds grouped). A phones
    game's seats (their credentials' digests) and its seed (it would tell every hand) stay out of it:
    records are shared."""
    from app.games.count99.phones import shareable_setup

    setup = setup_from_record(stored.setup)
    shared = shareable_setup(stored.setup)
    extra = {k: shared[k] for k in ("mode", "seed", "manual_draw", "level") if k in shared}
    return to_record(setup, list(stored.actions), **extra)


def announcement(events: list[object], setup: Setup, you: int | None = None) -> str:
    """One sentence per event worth hearing, joined: what the announcer says after an action."""
    lines = [describe(e, setup, you) for e in events if isinstance(e, ANNOUNCED)]
    return " ".join(line for line in lines if line)


def result_text(table: Table) -> str:
    if table.winner is None:
        return ""
    return tr("{name} won", name=table.setup.players[table.winner])


class KeptGame:
    """The count keeper for a physical deck, backed by the store."""

    def __init__(self, store: GameStore, game_id: int, setup: Setup, actions: list[dict[str, Any]]) -> None:
        self.store = store
        self.game_id = game_id
        self.setup = setup
        self.actions = actions
        self.table = Table.new(setup)
        for data in actions:
            action = action_from_dict(data, setup)
            if action is not None:
                self.table, _ = self.table.apply(action)

    @classmethod
    def create(cls, store: GameStore, setup: Setup, title: str = "") -> KeptGame:
        stored_setup = {**setup_to_dict(setup), "mode": "table"}
        game_id = store.create_game(KIND, stored_setup, title or ", ".join(setup.players))
        game = cls(store, game_id, setup, [])
        game._commit(StartRound(game.table.next_first()))
        return game

    @classmethod
    def load(cls, store: GameStore, game_id: int) -> KeptGame:
        """The stored game; a round that ended just before a crash (its next start was not yet
        committed: they are two appends) gets its next round now, as it would have."""
        stored = store.load(game_id)
        game = cls(store, game_id, setup_from_record(stored.setup), list(stored.actions))
        if not game.table.in_round and not game.table.over:
            start = StartRound(game.table.next_first())
            game.table, _ = game.table.apply(start)
            game.actions.append(action_to_dict(start, game.setup))
            store.append(game_id, game.actions[-1])
        return game

    def _commit(self, action: StartRound | PlayCard | NoSafeCard | NoCards) -> list[object]:
        """Apply, store, and start the next round when this one ended: all or nothing."""
        table, events = self.table.apply(action)
        new = [action_to_dict(action, self.setup)]
        all_events: list[object] = list(events)
        if not table.in_round and not table.over:
            start = StartRound(table.next_first())
            table, more = table.apply(start)
            new.append(action_to_dict(start, self.setup))
            all_events += more
        self.store.extend(self.game_id, new, finished=result_text(table) if table.over else None)
        self.actions += new
        self.table = table
        return all_events

    def play(self, card: str, choice: int | None = None) -> list[object]:
        if self.table.turn is None:
            raise Count99Error("the game is over")
        return self._commit(PlayCard(self.table.turn, card, choice))

    def no_safe_card(self) -> list[object]:
        assert self.table.turn is not None
        return self._commit(NoSafeCard(self.table.turn))

    def no_cards(self) -> list[object]:
        assert self.table.turn is not None
        return self._commit(NoCards(self.table.turn))

    def can_undo(self) -> bool:
        return any("start" not in a for a in self.actions)

    def undo(self) -> dict[str, Any] | None:
        """Take back the last card or penalty (and the round it opened); returns it, or None."""
        if not self.can_undo():
            return None
        while True:
            last = self.store.pop_last(self.game_id)
            self.actions.pop()
            if last is not None and "start" not in last:
                break
        self.table = KeptGame(self.store, self.game_id, self.setup, self.actions).table
        return last

    def record(self) -> dict[str, Any]:
        return to_record(self.setup, self.actions, mode="table")


class ComputerGame:
    """Seat 0 is the person; the other seats are computer players of one level."""

    HUMAN = 0

    def __init__(
        self, store: GameStore, game_id: int, game: CardGame, level: str, stored: int
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.game = game
        self.level = level
        self._stored = stored  # how many of game.actions are committed
        self.opening: list[object] = []  # what happened on creation (the first deal), for the screen
        self.computers: dict[int, ComputerPlayer] = {
            seat: make_player(level, game.seed * 101 + seat) for seat in range(1, len(game.setup.players))
        }

    @classmethod
    def create(
        cls, store: GameStore, setup: Setup, level: str = "hard", manual_draw: bool = False,
        seed: int | None = None,
    ) -> ComputerGame:
        seed = new_seed() if seed is None else seed
        game = CardGame(setup, seed=seed, manual_draw=manual_draw)
        stored_setup = {**setup_to_dict(setup), "mode": "computer", "seed": seed,
                        "manual_draw": manual_draw, "level": level}
        game_id = store.create_game(KIND, stored_setup, tr("{name} against the computer",
                                                           name=setup.players[0]))
        session = cls(store, game_id, game, level, 0)
        session.opening = session.advance()
        return session

    @classmethod
    def load(cls, store: GameStore, game_id: int) -> ComputerGame:
        stored = store.load(game_id)
        setup = setup_from_record(stored.setup)
        game = CardGame.replay(setup, int(stored.setup["seed"]), bool(stored.setup.get("manual_draw")),
                               list(stored.actions))
        session = cls(store, game_id, game, str(stored.setup.get("level", "hard")), len(stored.actions))
        # What was automatic and may not have been committed before a crash (the next deal, "no
        # cards", "no safe card") happens now; unless the person may still draw first (docs).
        if not session.may_draw_first():
            session.opening = session.advance()
        return session

    @property
    def table(self) -> Table:
        return self.game.table

    @property
    def setup(self) -> Setup:
        return self.game.setup

    def _save(self) -> None:
        new = list(self.game.actions[self._stored :])
        if new or self.table.over:
            self.store.extend(self.game_id, new,
                              finished=result_text(self.table) if self.table.over else None)
        self._stored = len(self.game.actions)

    def advance(self) -> list[object]:
        events: list[object] = list(self.game.advance())
        self._save()
        return events

    def humans_turn(self) -> bool:
        return self.table.turn == self.HUMAN

    def play(self, slot: int, choice: int | None = None) -> list[object]:
        events: list[object] = list(self.game.play(self.HUMAN, slot, choice))
        self._save()
        if self.may_draw_first():
            return events  # checked by draw() or the next advance(), once they had their chance
        return events + self.advance()

    def may_draw_first(self) -> bool:
        """Manual draw, and the turn came straight back (a Jack or Skip with two players): the person
        may draw before "no cards" or "no safe card" is checked, as on any other turn (docs)."""
        return self.game.manual_draw and self.humans_turn() and self.game.can_draw(self.HUMAN)

    def draw(self) -> list[object]:
        events: list[object] = list(self.game.draw(self.HUMAN))
        self._save()
        if self.humans_turn() and not self.game.can_draw(self.HUMAN):
            events += self.advance()
        return events

    def computer_step(self) -> list[object]:
        """One computer player's turn (and what follows automatically); [] when it is not theirs."""
        seat = self.table.turn
        if seat is None or seat not in self.computers:
            return []
        slot, choice = self.computers[seat].choose(self.game.view(seat))
        events: list[object] = list(self.game.play(seat, slot, choice))
        while self.game.can_draw(seat):
            events += self.game.draw(seat)
        self._save()
        return events + self.advance()

    def record(self) -> dict[str, Any]:
        return to_record(self.setup, self.game.actions, mode="computer", seed=self.game.seed,
                         manual_draw=self.game.manual_draw, level=self.level)


def load_session(store: GameStore, game_id: int) -> KeptGame | ComputerGame | PhoneTable:
    """The stored game's session, by its mode. A phones game is better taken from the registry
    (``live.phones``), where the web server drives it; this loads a fresh copy from the store."""
    stored = store.load(game_id)
    if stored.setup.get("mode") == "phones":
        from app.games.count99.phones import PhoneTable

        return PhoneTable.load(store, game_id)
    if stored.setup.get("mode") == "computer":
        return ComputerGame.load(store, game_id)
    return KeptGame.load(store, game_id)
