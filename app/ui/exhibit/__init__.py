"""Exhibitor mode's screens (issue 15): the attract loop, a visitor's game, the staff screen."""
