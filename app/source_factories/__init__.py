"""One module per board source kind, each with ``make(options, config) -> BoardSource``."""
