"""Terminal games, written for screen readers: one event per line, no cursor tricks."""
