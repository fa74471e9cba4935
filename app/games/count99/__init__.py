"""Ninety Nine, the adding game, as the app keeps it: the count keeper and games against the computer."""
