"""The application: the referee (UI-free), persistence, settings, the Kivy UI and the CLI.

Only this package wires rules, hardware, firmware_bridge and vision together.
"""
