"""The games as the app keeps them: one folder per game, its session objects and their sentences.

Each game's ``game.py`` keeps a game in the :class:`~app.store.GameStore` (every action committed
before a screen shows it) and ``texts.py`` says its events in the app's language. Front ends (the
touchscreen, the terminal, the web display, the exhibitor loop, the club hub) import these and the
shared services, never each other; :mod:`app.games.live` is how a front end in another thread
reaches the session the table has open. No Kivy, no web library here.
"""
