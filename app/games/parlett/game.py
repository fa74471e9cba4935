"""A Parlett score sheet kept in the GameStore: the screens' only way to change a game.

Every deal is validated by the rules and committed to the store *before* the screen shows it,
so a crash or a power cut loses nothing that was shown. Corrections rewrite the deal list in one
transaction after the whole corrected series has replayed cleanly. No Kivy here: it is tested
on its own and the screens stay thin.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.paths import data_dir
from app.store import GameStore
from rules.errors import InvalidActionError, InvalidRecordError
from rules.parlett.match import Scoresheet
from rules.parlett.record import entry_from_json, entry_to_json, setup_of, sheet_from_record
from rules.parlett.variants import VARIANTS, Options, Table

KIND = "parlett"


class EntryRejected(Exception):
    """The rules refused a deal or a correction; ``str()`` says why, for the screen."""


@dataclass
class ParlettSession:
    store: GameStore
    game_id: int
    sheet: Scoresheet

    # -- creating and loading -----------------------------------------------------------------------
    @classmethod
    def new(cls, store: GameStore, variant: str, players: list[str], dealer: str,
            options: dict[str, Any] | None = None) -> ParlettSession:
        """Start a rubber; raises EntryRejected for impossible setups (names, counts, options)."""
        setup = {"format": "table99/parlett", "version": 1, "variant": variant, "options": options or {},
                 "players": players, "dealer": dealer}
        try:
            sheet = sheet_from_record(setup | {"deals": []})
        except InvalidRecordError as exc:
            raise EntryRejected(str(exc)) from exc
        game_id = store.create_game(KIND, setup_of(sheet.table), title=", ".join(players))
        return cls(store, game_id, sheet)

    @classmethod
    def load(cls, store: GameStore, game_id: int) -> ParlettSession:
        stored = store.load(game_id)
        sheet = sheet_from_record(stored.setup | {"deals": list(stored.actions)})
        return cls(store, game_id, sheet)

    # -- the deal being entered ---------------------------------------------------------------------
    def save_draft(self, draft: dict[str, Any]) -> None:
        """Keep what has been tapped in for the next deal (bids at the start, tricks at the end), so
        a power cut during play loses nothing. Stored beside the setup, tagged with the deal it is
        for; never part of the record."""
        self.store.update_setup(self.game_id, setup_of(self.table) | {
            "draft": {"deal": len(self.sheet.deals) + 1, "entry": draft}})

    def draft(self) -> dict[str, Any] | None:
        """The saved entry for the next deal, or None (none saved, or it was for a deal now scored)."""
        saved = self.store.load(self.game_id).setup.get("draft")
        if not isinstance(saved, dict) or saved.get("deal") != len(self.sheet.deals) + 1:
            return None
        entry = saved.get("entry")
        return entry if isinstance(entry, dict) else None

    def clear_draft(self) -> None:
        self.store.update_setup(self.game_id, setup_of(self.table))

    @property
    def table(self) -> Table:
        return self.sheet.table

    def record(self) -> dict[str, Any]:
        return setup_of(self.table) | {"deals": [entry_to_json(d.entry) for d in self.sheet.deals]}

    # -- changing -----------------------------------------------------------------------------------
    def add_deal(self, deal: dict[str, Any]) -> Scoresheet:
        """Check, commit, then show: returns the new sheet or raises EntryRejected."""
        try:
            sheet = self.sheet.add(entry_from_json(deal, self.table))
        except (ValueError, InvalidActionError) as exc:
            raise EntryRejected(str(exc)) from exc
        finished = " & ".join(sheet.winners) if sheet.over else None
        self.store.append(self.game_id, entry_to_json(sheet.deals[-1].entry), finished=finished)
        self.sheet = sheet
        self.clear_draft()  # a crash before this line leaves a draft tagged for the scored deal: ignored
        return sheet  # the status went with the deal (a rubber cannot take deals after it is over)

    def correct_deal(self, index: int, deal: dict[str, Any]) -> Scoresheet:
        """Replace deal ``index`` (0-based); later deals are re-scored (trumps, dealers, games)."""
        deals = [entry_to_json(d.entry) for d in self.sheet.deals]
        if not 0 <= index < len(deals):
            raise EntryRejected(f"there is no deal {index + 1}")
        deals[index] = deal
        try:
            sheet = sheet_from_record(setup_of(self.table) | {"deals": deals})
        except InvalidRecordError as exc:
            raise EntryRejected(str(exc)) from exc
        self.store.replace_actions(self.game_id, [entry_to_json(d.entry) for d in sheet.deals])
        self.sheet = sheet
        self._mark_status()
        return sheet

    def delete_last_deal(self) -> Scoresheet:
        """Take back the last deal (entered by mistake); earlier deals are untouched."""
        if not self.sheet.deals:
            raise EntryRejected("there is no deal to delete")
        self.store.pop_last(self.game_id)
        deals = [entry_to_json(d.entry) for d in self.sheet.deals[:-1]]
        self.sheet = sheet_from_record(setup_of(self.table) | {"deals": deals})
        self._mark_status()
        return self.sheet

    def _mark_status(self) -> None:
        if self.sheet.over:
            winners = " & ".join(self.sheet.winners)
            self.store.set_status(self.game_id, "finished", winners)
        else:
            self.store.set_status(self.game_id, "playing")

    def export(self, folder: Path | None = None) -> Path:
        """Write the record as JSON (``table99 replay`` reads it back)."""
        target = folder or data_dir() / "exports"
        target.mkdir(parents=True, exist_ok=True)
        path = target / f"parlett-{self.game_id}.json"
        path.write_text(json.dumps(self.record(), ensure_ascii=False, indent=1), encoding="utf-8")
        return path


def check_variant_options(variant: str, options: dict[str, Any]) -> str | None:
    """None when the options suit the variant, else the reason (for the setup screen)."""
    try:
        Options.from_dict(options, VARIANTS[variant])
    except (TypeError, ValueError) as exc:
        return str(exc)
    return None
