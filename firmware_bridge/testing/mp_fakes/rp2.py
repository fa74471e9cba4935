"""A fake ``rp2`` module: the BOOTSEL button, which the firmware watches to hand over to the REPL."""

PRESSED = 0  # tests set this to 1 to hold the button down


def bootsel_button():
    return PRESSED
