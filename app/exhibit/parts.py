"""Exhibitor mode's parts built from the config: whether it is on, and the settings, lock, counts
and scratch store the shell keeps (``ctx.extras["exhibit"]``)."""

from __future__ import annotations

from typing import Any

from app.config import Config
from app.store import GameStore


def exhibit_on(config: Config) -> bool:
    """Whether ``config`` starts exhibitor mode, the locked kiosk of a bad ``[exhibit]`` included
    (the same test as :func:`exhibit_extras`, without building anything)."""
    from dataclasses import replace

    from app.config import ConfigError
    from app.exhibit.settings import ExhibitSettings

    try:
        return ExhibitSettings.from_config(config).enabled
    except ConfigError as exc:
        return ExhibitSettings.from_config(replace(config, exhibit_problem=str(exc))).enabled


def exhibit_extras(config: Config, store: GameStore) -> dict[str, Any] | None:
    """What the shell puts in ``ctx.extras["exhibit"]`` when exhibit mode is on, else None.

    ``{"settings": ExhibitSettings, "lock": StaffLock, "counts": DemoCounts (in ``store``, the
    family's database), "scratch": GameStore (a scratch store: close it when the app stops)}``.
    Never raises for the config: a config whose ``[exhibit]`` fell back (``config.exhibit_problem``)
    gives a locked kiosk; one built by hand with ``enabled`` and no PIN does too, with the reason in
    ``settings.problem``."""
    from dataclasses import replace

    from app.config import ConfigError
    from app.exhibit.counts import DemoCounts
    from app.exhibit.lock import StaffLock, StoredTries
    from app.exhibit.scratch import scratch_store
    from app.exhibit.settings import ExhibitSettings

    try:
        settings = ExhibitSettings.from_config(config)
    except ConfigError as exc:
        settings = ExhibitSettings.from_config(replace(config, exhibit_problem=str(exc)))
    if not settings.enabled:
        return None
    return {"settings": settings, "lock": StaffLock(settings.pin, tries=StoredTries(store)),
            "counts": DemoCounts(store, settings.event), "scratch": scratch_store()}
