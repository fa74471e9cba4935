"""Build the configured :class:`~hardware.board_source.BoardSource`.

Each source kind names a factory ``module:function`` (one module per kind under
:mod:`app.source_factories`) taking ``(options, config)`` and returning a
source; the factory validates its own options with :func:`app.config.check_table`. Factories are
imported only when chosen, so a missing hardware library affects only the source that needs it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from app.config import Config, ConfigError, check_source_options, default_config_path, load_config_or_default
from hardware.board_source import BoardSource

FACTORIES: dict[str, str] = {
    "simulated": "app.source_factories.simulated:make",
    "scripted": "app.source_factories.scripted:make",
    "gpio": "app.source_factories.gpio:make",
    "serial": "app.source_factories.serial:make",
    "camera": "app.source_factories.camera:make",
}


def make_source(config: Config, kind: str | None = None) -> BoardSource:
    """Build the source ``kind`` (default: the config's) or raise ConfigError saying why not."""
    kind = kind or config.board_source
    if kind not in FACTORIES:
        raise ConfigError("board source", f"unknown source {kind!r}; known: {', '.join(FACTORIES)}")
    module_name, function = FACTORIES[kind].split(":")
    factory = getattr(importlib.import_module(module_name), function)
    options: Mapping[str, Any] = config.options_for(kind)
    source: BoardSource = factory(options, config)
    return source


def configured_size() -> tuple[int, int]:
    """The picture size ``[board.camera]`` asks for (the defaults when the config has none or a
    broken one: the table's start reports that; a command line tool just uses the camera).

    ``table99 vision calibrate --camera`` and ``vision watch`` used 1280x960 whatever the config
    said, so a profile learnt there could be for another picture size than the table's."""
    config, _problem = load_config_or_default(default_config_path())
    try:
        values = check_source_options(config, "camera")
    except ConfigError:
        from app.source_factories.camera import SPEC

        return SPEC["width"].default, SPEC["height"].default
    return int(values["width"]), int(values["height"])
