"""Test support for the firmware: fake MicroPython hardware modules (``mp_fakes/``) that the tests
put first on the real MicroPython interpreter's path. Never copied to a Pico."""
