"""The serial link to a board-scanning microcontroller: protocol, host driver, firmware, emulator.

pyserial is imported only by the modules that open ports, so the protocol can be used without it.
"""
