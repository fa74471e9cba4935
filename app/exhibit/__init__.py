"""Exhibitor mode (issue 15): a table that demos itself at a game store. No kivy here.

``settings`` ([exhibit] in the config), ``lock`` (the staff PIN), ``counts`` (demos started and
finished, kept in the family store's database) and ``scratch`` (the store the demo's games live in,
never the family's). The screens are in ``app/ui/exhibit``; setting up a store demo: docs/exhibit.md.
"""
