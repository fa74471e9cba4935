"""Sensing the physical board: the BoardSource seam, simulated and scripted boards, GPIO drivers.

Nothing here imports gpiozero at module level; the GPIO drivers import it when they are built, so
the rest of Table99 runs on machines without it.
"""
