"""The web display: live views of the table's games for phones, tablets and TVs, and paired score keeping.

``launch.start_web`` starts :class:`~app.web.server.WebServer` in its own thread; see docs/web.md.
"""
