"""Announcements made while the pegs settle: held, then applied in the order they were made.

At a quick table the next player taps PLAY or DRAW before the last peg has settled (or before a
slow camera has reported it). Applying the tap at once would file it under the wrong player, so
the referee holds it and applies it once the board can be judged (docs/referee.md). This is one
part of :class:`~app.referee.core.Referee`, kept in its own module because it is one idea.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.i18n import tr
from app.referee.events import AnnouncementRefused, Phase
from app.referee.refusals import RefereeRefusal

MAX_HELD = 6  # announcements that may wait for the board at once (one round of six players)


@dataclass(frozen=True)
class HeldAnnouncement:
    """An announcement made while pegs were settling, applied once the board is still.

    ``by`` is None when the screen did not name anyone: it then means "the player to move" *after*
    the settling peg was judged (Ann's peg lands, Ben taps PLAY at once: Ben's play, not Ann's).
    """

    kind: str  # "play", "draw", "discard", "dead-hand"
    by: str | None
    card: int | None = None
    cards: tuple[int, ...] = ()


def held_text(held: HeldAnnouncement) -> str:
    what = {"play": tr("PLAY"), "draw": tr("DRAW"), "discard": tr("DISCARD"),
            "dead-hand": tr("DEAD HAND")}[held.kind]
    if held.card is not None:
        what = f"{what} {held.card}"
    if held.by is not None:
        what = tr("{name}: {what}", name=held.by, what=what)
    return what


class HeldAnnouncements:
    """The referee's held announcements (a part of :class:`~app.referee.core.Referee`, which owns
    ``_held``, ``_releasing`` and the state these methods read)."""

    _held: list[HeldAnnouncement]
    _releasing: bool
    _pending: Any
    _penalty: Any
    _thought: Any
    _source_ok: bool

    def _hold(self, held: HeldAnnouncement) -> bool:
        """Hold an announcement while the board settles; True when held (the caller stops).

        Several may wait, in the order they were made (Ben's DRAW, then Ann's, tapped while Ann's
        peg still settles); each goes to the player to move when its turn to be applied comes.
        """
        if self._releasing:
            return False  # applying a held announcement now
        if not self.settling and not self._held and not self._waits_for_peg(held) and self._thought is None:
            return False  # (while a computer thinks, a person's tap waits for its move, as in turn)
        if len(self._held) >= MAX_HELD:
            raise RefereeRefusal(tr("Wait: {what} is waiting for the pegs to settle.",
                                    what=held_text(self._held[-1])))
        self._held.append(held)
        self._refresh_prompt()
        return True

    def _waits_for_peg(self, held: HeldAnnouncement) -> bool:
        """An announcement naming nobody while a person's PLAY still waits for its peg.

        With a source that reports late (a camera, a slow link) the next player's tap can arrive
        before the reading of the peg just played: applying it at once would file it under the
        player whose peg is still on its way. It waits for that peg instead. Naming a player on
        purpose (or CANCEL first) still replaces the pending play, as a correction does.
        """
        pending = self._pending
        return held.by is None and pending is not None and pending.hole is None

    def _release_held(self) -> None:
        """Apply held announcements, oldest first, as soon as each can be judged.

        Each waits until no play waits for its peg. A held PLAY may then go ahead even while a peg
        is still settling (at a quick table that peg is usually the play being announced: it is
        judged against the PLAY once still), and so may a DRAW or DISCARD tapped before a held
        PLAY (Ann draws, Ben plays and pegs at once: the settling peg is Ben's). A DRAW, DISCARD or
        dead hand with no PLAY after it waits for a still board, so a peg nobody announced is
        asked about first.
        """
        while (self._held and self._source_ok and self._pending is None and self._penalty is None
               and self._thought is None):
            held = self._held[0]
            play_follows = any(later.kind == "play" for later in self._held[1:])
            if held.kind != "play" and self.settling and not play_follows:
                return
            self._held.pop(0)
            self._releasing = True
            try:
                self._apply_held(held)
            except RefereeRefusal as exc:
                later, self._held = self._held, []
                self._emit(AnnouncementRefused(str(exc) + " " + tr(
                    "Not applied: {what}. Announce it again.", what=held_text(held))))
                for item in later:  # made after a refused one: whose turn they were is unknown
                    self._emit(AnnouncementRefused(tr("Not applied: {what}. Announce it again.",
                                                      what=held_text(item))))
                self._refresh_prompt()
                return
            finally:
                self._releasing = False
        if self._held and (self._penalty is not None or self.phase in (Phase.FIX_BOARD, Phase.WHO_PLAYED)) \
                and not self.settling:
            self._refuse_held()

    def _refuse_held(self) -> None:
        """The board needs a person first (a penalty, a peg to explain): held taps are void."""
        held, self._held = self._held, []
        reason = (tr("First take the penalised peg off the board.") if self._penalty is not None
                  else tr("First make the board match the game."))
        for item in held:
            self._emit(AnnouncementRefused(reason + " " + tr("Not applied: {what}. Announce it again.",
                                                             what=held_text(item))))
        self._refresh_prompt()

    def _apply_held(self, held: HeldAnnouncement) -> None:
        if held.kind == "play":
            assert held.card is not None
            self.announce_play(held.card, held.by)
        elif held.kind == "draw":
            self.announce_draw(held.by, held.card)
        elif held.kind == "discard":
            assert held.card is not None
            self.announce_discard(held.card, held.by)
        else:
            self.announce_dead_hand(held.cards, held.by)
